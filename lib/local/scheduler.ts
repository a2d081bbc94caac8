// The local stand-in for EventBridge Scheduler: a manifest schedule's handler invoked every `localEveryVar` seconds
// (its config variable, e.g. FEED_TICK_S; default the cloud's rate), one invocation at a time (a tick that finds the
// previous one still running is skipped, as a rate schedule with a long-running target would pile up otherwise).
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import type { ScheduleSpec } from '../../lambdas/shared/manifest';
import { lambdaContext, runInvocation } from './invocations';

export type ScheduledHandler = (event: unknown, context: Context) => Promise<unknown>;

export interface LocalSchedule {
  /** Runs one tick now (waits for a running one first); what the handler returned. */
  tick(): Promise<unknown>;
  stop(): Promise<void>;
}

export function startSchedule(options: {
  spec: ScheduleSpec;
  service: string;
  handler: ScheduledHandler;
  env: Record<string, string | undefined>;
  log: (line: string) => void;
}): LocalSchedule {
  const { spec } = options;
  const raw = spec.localEveryVar ? Number(options.env[spec.localEveryVar]) : NaN;
  const everyMs = (Number.isFinite(raw) && raw > 0 ? raw : spec.everyMinutes * 60) * 1000;
  let running: Promise<unknown> | undefined;
  const run = () => {
    const id = randomUUID();
    running = runInvocation(options.service, { awsRequestId: id }, () =>
      options.handler({ source: 'local.scheduler', id: spec.id }, lambdaContext(spec, id, spec.timeoutS)),
    )
      .catch((err: unknown) => options.log(`${spec.id} failed: ${(err as Error).message}`))
      .finally(() => (running = undefined));
    return running;
  };
  const timer = setInterval(() => {
    if (!running) void run();
  }, everyMs);
  timer.unref();
  return {
    async tick() {
      if (running) await running;
      return run();
    },
    async stop() {
      clearInterval(timer);
      if (running) await running;
    },
  };
}
