// Retries with backoff against the emulators' SQS: the poller receives each job message with a 15-minute visibility
// (the cloud's guard for a worker that dies), so a failed attempt can only come back this soon because the worker
// shortened its message's visibility to the backoff (JOB_RETRY_SCHEDULE_S, lambdas/shared/jobs/retry.ts).
// A transient fault is retried within a minute on the default schedule; a job that always fails still reaches its
// DLQ after maxReceiveCount attempts (the last attempt's message is made visible at once).
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { config } from '../../lambdas/narration/config';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { findVoice } from '../../lambdas/narration/core/voices';
import { makeHandler as makeWorker } from '../../lambdas/narration/handlers/worker';
import { narrationManifest } from '../../lambdas/narration/routes';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { sqsClient } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { DEFAULT_JOB_RETRY_SCHEDULE_S } from '../../lambdas/shared/jobs/retry';
import { startPoller, type Poller } from '../../lib/local/worker-poller';
import { withEmulators } from '../helpers/env';
import { receiveUntilRedriven, withoutBackstop } from '../helpers/sqs-redrive';
import { narrationDepsOn, testClock } from '../helpers/clock';
import { until } from '../helpers/until';

jest.setTimeout(150_000);

/** The guard: what a message would wait if nobody shortened it (longer than this test). */
const GUARD_VISIBILITY_S = 900;

let emu: Awaited<ReturnType<typeof withEmulators>>;
const pollers: Poller[] = [];
beforeAll(async () => {
  emu = await withEmulators({ queues: narrationManifest.queues });
  delete process.env.JOB_RETRY_SCHEDULE_S; // the default backoff
  // WAIT_WINDOW_S 0: the request answers 202 at once instead of waiting for the worker.
  Object.assign(process.env, {
    SPEECH_ENGINE: 'espeak',
    SYNC_MAX_CHARS: '100',
    MAX_RECEIVE_COUNT: '3',
    WAIT_WINDOW_S: '0',
  });
  resetConfig();
  startWorker();
});
afterAll(async () => {
  // Stopped, not killed: a job still in the worker must finish before the emulators' files are removed (a read of
  // its job text racing the removal failed the suite once: ENOENT from s3rver).
  await Promise.all(pollers.map((p) => p.stop()));
  await emu.cleanup();
});

const TEXT = 'Había una vez un pueblo junto al mar. '.repeat(8);

/**
 * One poller for the file (a killed poller's in-flight receive could take a later test's message for the whole
 * guard): each test sets the engine and, when it wants a shorter one, the retry schedule.
 */
let engine: Synthesizer | undefined;
let schedule: number[] | undefined;
function startWorker(): void {
  const base = narrationDepsOn(testClock(), { synthesizer: async () => engine! });
  const deps = Object.create(base, {
    config: { get: () => ({ ...config(), ...(schedule ? { JOB_RETRY_SCHEDULE_S: schedule } : {}) }) },
  }) as NarrationDeps;
  pollers.push(
    startPoller({
      worker: { ...narrationManifest.workers[0]!, memoryMb: 1024, timeoutS: 60, tmpMb: 512 },
      handler: makeWorker(deps),
      queues: emu.queues,
      endpoint: emu.env.AWS_ENDPOINT_URL_SQS!,
      visibilityS: GUARD_VISIBILITY_S,
      concurrency: { priority: 1, standard: 1 },
    }),
  );
}

// A new address per queued job: the same text from one caller is reused, not queued again (docs/reuse.md).
let jobsQueued = 0;

async function queueJob(deps: NarrationDeps): Promise<string> {
  const out = await startConversion(withoutBackstop(deps), {
    text: TEXT,
    voice: findVoice('es-MX-Mia')!,
    fmt: 'mp3',
    caller: { kind: 'anonymous', subject: ipSubject(`198.51.100.${++jobsQueued}`) },
  });
  expect(out.statusCode).toBe(202);
  return out.body.audio_id as string;
}

test('a transient fault (the engine throttles once) is retried after the first backoff, within a minute', async () => {
  expect(config().JOB_RETRY_SCHEDULE_S).toEqual([...DEFAULT_JOB_RETRY_SCHEDULE_S]);
  const real = await awsDeps().synthesizer();
  const calls: number[] = [];
  const flaky: Synthesizer = {
    engine: 'throttles-once',
    maxChars: real.maxChars,
    concurrency: 1,
    synthesize: (text, voice) => {
      calls.push(Date.now());
      if (calls.length === 1) return Promise.reject(new Error('ThrottlingException: Rate exceeded'));
      return real.synthesize(text, voice);
    },
  };
  engine = flaky;
  schedule = undefined;
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  const done = await until(
    'the job to finish',
    async () => {
      const r = await deps.audio.get(audioId);
      return r?.status === 'done' ? r : undefined;
    },
    60_000,
  );
  expect(done.attempts).toBe(2);
  // The retry came after the first backoff (not at once), and within a minute of the failure, although the message
  // was received with a 15-minute visibility.
  const waitedMs = calls[1]! - calls[0]!;
  expect(waitedMs).toBeGreaterThanOrEqual((DEFAULT_JOB_RETRY_SCHEDULE_S[0]! - 1) * 1000);
  expect(waitedMs).toBeLessThan(60_000);
});

test('a job that always fails ends failed after 3 attempts and its message reaches the DLQ', async () => {
  const failing: Synthesizer = {
    engine: 'broken',
    maxChars: 2000,
    concurrency: 1,
    synthesize: async () => {
      throw new Error('speech engine unavailable');
    },
  };
  engine = failing;
  // A short schedule keeps the test quick; the 15-minute guard still means only the backoff can bring it back.
  schedule = [1, 2];
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  const failed = await until(
    'the job to fail',
    async () => {
      const r = await deps.audio.get(audioId);
      return r?.status === 'failed' ? r : undefined;
    },
    60_000,
  );
  expect(failed.attempts).toBe(3);
  expect(failed.error).toMatch(/after 3 attempts \(speech engine unavailable\)/);
  for (const p of pollers.splice(0)) p.kill();
  // The last attempt's message was made visible at once: the next receive moves it to the DLQ.
  const redriven = await receiveUntilRedriven(
    sqsClient(),
    emu.queues.standard!,
    emu.queues.standardDlq!,
    (body) => (body as { audioId?: string }).audioId === audioId,
  );
  expect(redriven.received).toEqual([]);
  expect(redriven.dead.body).toEqual({ audioId });
});
