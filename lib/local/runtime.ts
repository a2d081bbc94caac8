// The local runtime: emulators + the manifest's handlers behind a local front + the queue worker.
// `npm start` (bin/local.ts) and the e2e tests both use startLocal().
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Server } from 'node:http';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import { dynamo, resetClients } from '../../lambdas/shared/aws/clients';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { z } from 'zod';
import { webhookVars } from '../../lambdas/shared/webhooks/config';
import { resetConfig } from '../../lambdas/shared/config';
import type { QueueSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import { startEmulators, type Emulators } from './emulators';
import { startEmulatorsProcess } from './emulators-process';
import { createFront, listen, type LambdaHandler } from './front';
import { startPoller, type WorkerHandler } from './worker-poller';
import { startSchedule, type LocalSchedule, type ScheduledHandler } from './scheduler';
import { enableInvocationScopes, runInvocation } from './invocations';

export interface LocalOptions {
  dataDir: string;
  host?: string;
  narrationPort?: number;
  /** Port of the Documents API. @default 0 (any free port) */
  renderPort?: number;
  /** Serve the Documents API too. @default true */
  documents?: boolean;
  trustProxy?: boolean;
  /** Keep DynamoDB in memory (tests); default on disk under dataDir. */
  persist?: boolean;
  /** Extra environment for the handlers (e.g. SYNC_MAX_CHARS in tests). */
  env?: Record<string, string>;
  startWorker?: boolean;
  /**
   * Job queues' visibility timeout (the guard for a worker that dies). Given explicitly (tests), failed attempts
   * are retried after it too, unless JOB_RETRY_SCHEDULE_S is set; otherwise they follow the default backoff.
   * @default 10
   */
  queueVisibilityS?: number;
  /** Every route's deadline (s) instead of its spec's timeoutS (see FrontOptions.deadlineS). */
  deadlineS?: number;
  /**
   * The emulators in a child process (./emulators-process.ts), their CPU off the handlers' event loop; without
   * `emulators.stopService`. @default false (in this process)
   */
  emulatorsProcess?: boolean;
  log?: (line: string) => void;
}

export interface LocalRuntime {
  narrationUrl: string;
  /** Undefined when started with `documents: false`. */
  documentsUrl?: string;
  /** `pid` when they run in their own process (LocalOptions.emulatorsProcess). */
  emulators: Emulators & { pid?: number };
  /** The manifests' schedules by id (a timer each; `tick()` runs one now). Empty without the worker. */
  schedules: Record<string, LocalSchedule>;
  stop(): Promise<void>;
}

const ROOT = resolve(__dirname, '..', '..');

export async function loadHandlers(manifest: ServiceManifest): Promise<Record<string, LambdaHandler>> {
  // Also for fronts built without startLocal (test harnesses): every invocation needs its scope.
  await enableInvocationScopes();
  const out: Record<string, LambdaHandler> = {};
  for (const route of manifest.routes) {
    const mod = (await import(resolve(ROOT, route.handler))) as { handler?: LambdaHandler };
    const handler = mod.handler;
    if (typeof handler !== 'function') throw new Error(`${route.handler} does not export a handler`);
    // Both services share this process (and its logger): each invocation's lines name its service and carry its
    // own Lambda context and keys, however many run at once.
    out[route.id] = (event, context) =>
      runInvocation(manifest.service, context, () => handler(event, context));
  }
  return out;
}

export async function startLocal(options: LocalOptions): Promise<LocalRuntime> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? (() => undefined);
  // Before any SDK client runs: invocations served at once keep their own logger state (lib/local/invocations.ts).
  await enableInvocationScopes();
  const queueVisibilityS = options.queueVisibilityS ?? 10;
  const emulators = await (options.emulatorsProcess ? startEmulatorsProcess : startEmulators)({
    dataDir: options.dataDir,
    host,
    persistDynamo: options.persist !== false,
    queueVisibilityS,
    queues: localQueues([...narrationManifest.queues, ...documentsManifest.queues], {
      ...process.env,
      ...options.env,
    }),
  });
  Object.assign(
    process.env,
    { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    emulators.env,
    {
      SPEECH_ENGINE: process.env.SPEECH_ENGINE ?? 'espeak',
      // The documents renderer's Chromium dies with this process, even on SIGKILL (the script says how).
      CHROMIUM_LAUNCHER: process.env.CHROMIUM_LAUNCHER ?? resolve(__dirname, 'chromium-with-parent.sh'),
      // A job's lease must run out before its message is redelivered (after the visibility timeout).
      JOB_LEASE_S: String(Math.max(1, queueVisibilityS - 2)),
      ...(options.queueVisibilityS !== undefined && !process.env.JOB_RETRY_SCHEDULE_S
        ? { JOB_RETRY_SCHEDULE_S: String(queueVisibilityS) }
        : {}),
    },
    options.env ?? {},
  );
  resetConfig();
  resetClients();
  // Lets `npm run keys` reach this running instance's database.
  const endpointsFile = join(options.dataDir, 'endpoints.json');
  mkdirSync(options.dataDir, { recursive: true });
  writeFileSync(endpointsFile, JSON.stringify(emulators.env, null, 2));
  // Before anything is served: charges held by renders of a previous run are given back (one runtime per data
  // directory, so none of them can still deliver; in the cloud a hold is given back once its time is past).
  const released = await new DynamoQuotaStore(dynamo(), emulators.env.QUOTAS_TABLE!).releaseAllHolds();
  if (released) log(`gave back ${released} charge(s) held by renders of the previous run`);

  // Jobs the previous run left unfinished are listed before the fronts serve: a request of this run cannot be
  // among them (a job its request has made durable but not yet charged would be retired by the worker).
  if (options.startWorker !== false) {
    await requeueUnfinished(log);
    if (options.documents !== false) await requeueDocumentJobs(log);
  }

  const servers: Server[] = [];
  /** One service's front (its API Gateway stand-in) on its port; resolves with its URL. */
  const serve = async (manifest: ServiceManifest, port = 0) => {
    const front = createFront({
      manifest,
      handlers: await loadHandlers(manifest),
      host,
      port,
      trustProxy: options.trustProxy ?? false,
      ...(options.deadlineS !== undefined ? { deadlineS: options.deadlineS } : {}),
      log,
    });
    servers.push(front);
    return listen(front, host, port);
  };
  const narrationUrl = await serve(narrationManifest, options.narrationPort);

  const documentsUrl =
    options.documents !== false ? await serve(documentsManifest, options.renderPort) : undefined;

  // Every manifest worker polls its queues, as its event sources do in the cloud.
  const pollers: { stop(): Promise<void> }[] = [];
  if (options.startWorker !== false) {
    const workers = narrationManifest.workers.map((spec) => ({ spec, service: narrationManifest.service }));
    if (options.documents !== false) {
      workers.push(
        ...documentsManifest.workers.map((spec) => ({ spec, service: documentsManifest.service })),
      );
    }
    for (const { spec, service } of workers) {
      const mod = (await import(resolve(ROOT, spec.handler))) as { handler: WorkerHandler };
      pollers.push(
        startPoller({
          worker: spec,
          handler: (event, context) => runInvocation(service, context, () => mod.handler(event, context)),
          queues: emulators.queues,
          endpoint: emulators.env.AWS_ENDPOINT_URL_SQS!,
          visibilityS: queueVisibilityS,
          log,
        }),
      );
    }
  }

  // Every manifest schedule on a timer, as EventBridge Scheduler invokes it in the cloud.
  const schedules: Record<string, LocalSchedule> = {};
  if (options.startWorker !== false)
    for (const spec of narrationManifest.schedules ?? []) {
      const mod = (await import(resolve(ROOT, spec.handler))) as { handler: ScheduledHandler };
      schedules[spec.id] = startSchedule({
        spec,
        service: narrationManifest.service,
        handler: mod.handler,
        env: process.env,
        log,
      });
    }

  return {
    narrationUrl,
    documentsUrl,
    emulators,
    schedules,
    async stop() {
      await Promise.all(Object.values(schedules).map((s) => s.stop()));
      await Promise.all(pollers.map((p) => p.stop()));
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      );
      resetClients();
      rmSync(endpointsFile, { force: true });
      await emulators.stop();
    },
  };
}

/** The local queue lives in memory: after a restart, put unfinished jobs (kept on disk) back on it. */
async function requeueUnfinished(log: (line: string) => void): Promise<void> {
  const { awsDeps } = await import('../../lambdas/narration/deps');
  const deps = awsDeps();
  const jobs = await deps.audio.listUnfinished(10_000);
  for (const job of jobs) {
    if (job.status === 'processing') await deps.audio.release(job.audioId);
    await deps.queue.enqueue({ audioId: job.audioId }, job.plan !== 'free');
  }
  if (jobs.length) log(`re-queued ${jobs.length} unfinished job(s) from the previous run`);
}

/**
 * The queues as the stacks make them; locally a webhook delivery queue's maxReceiveCount follows
 * WEBHOOK_RETRY_SCHEDULE_S (tests shorten the schedule), as attempts = delays + 1.
 */
function localQueues(queues: QueueSpec[], env: Record<string, string | undefined>): QueueSpec[] {
  const attempts = z.object(webhookVars).parse(env).WEBHOOK_RETRY_SCHEDULE_S.length + 1;
  return queues.map((q) => (q.webhookDeliveries ? { ...q, maxReceiveCount: attempts } : q));
}

/** Async render jobs left queued or rendering by a previous run (the local queues live in memory). */
async function requeueDocumentJobs(log: (line: string) => void): Promise<void> {
  const { awsDeps } = await import('../../lambdas/documents/deps');
  const deps = awsDeps();
  const jobs = await deps.jobs.listUnfinished(10_000);
  for (const job of jobs.filter((j) => !j.batch)) {
    if (job.status === 'rendering') await deps.jobs.release(job.jobId);
    await deps.renderQueue.send({ jobId: job.jobId });
  }
  // CFDI batches: their next steps on the batch and assemble queues (each step is idempotent).
  const { requeueBatches } = await import('../../lambdas/documents/use-cases/batches');
  await requeueBatches(
    { jobs: deps.batches, batchQueue: deps.batchQueue, assembleQueue: deps.assembleQueue },
    jobs,
  );
  if (jobs.length) log(`re-queued ${jobs.length} unfinished document job(s) from the previous run`);
  // Webhook events of settled jobs not delivered yet: the delivery queue lived in memory too (a kill between a job's
  // outcome and its event leaves one never queued; in the cloud SQS keeps both messages).
  const { requeuePendingEvents } = await import('../../lambdas/documents/use-cases/job-events');
  const events = await requeuePendingEvents(
    { deliveryQueue: deps.deliveryQueue, jobs: deps.jobs },
    await deps.jobs.listSettledWithEvents(10_000),
    new Date(),
  );
  if (events) log(`re-queued ${events} undelivered webhook event(s) of document jobs from the previous run`);
}
