// The worker under faults, against the emulators and the real SQS redrive: a worker killed mid-job leaves a job
// that the next delivery finishes (one audio object, no duplicate); a job that always fails ends `failed` with its
// reason after maxReceiveCount attempts and its message in the DLQ.
import { HeadObjectCommand as S3Head } from '@aws-sdk/client-s3';
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { findVoice } from '../../lambdas/narration/core/voices';
import { makeHandler as makeWorker } from '../../lambdas/narration/handlers/worker';
import { narrationManifest } from '../../lambdas/narration/routes';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { s3Client, sqsClient } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { startPoller, type Poller } from '../../lib/local/worker-poller';
import { withEmulators } from '../helpers/env';
import { receiveUntilRedriven, withoutBackstop } from '../helpers/sqs-redrive';
import { narrationDepsOn, testClock, type TestClock } from '../helpers/clock';
import { until } from '../helpers/until';

jest.setTimeout(300_000);

/** Longer than the test: a lease runs out only when the test clock is moved past it, never by real time passing. */
const LEASE_S = 600;

let emu: Awaited<ReturnType<typeof withEmulators>>;
const pollers: Poller[] = [];
beforeAll(async () => {
  emu = await withEmulators({ queueVisibilityS: 2 });
  Object.assign(process.env, {
    SPEECH_ENGINE: 'espeak',
    SYNC_MAX_CHARS: '100',
    JOB_LEASE_S: String(LEASE_S),
    MAX_RECEIVE_COUNT: '3',
    // The request answers 202 at once instead of waiting its window (25 s) for a worker that is not polling yet.
    WAIT_WINDOW_S: '0',
  });
  resetConfig();
});
// A case that fails leaves no poller behind to take the next case's job (ci37: the first case's working poller
// finished the second case's job, which was to fail).
afterEach(() => {
  for (const p of pollers.splice(0)) p.kill();
});
afterAll(async () => {
  for (const p of pollers) p.kill();
  await emu.cleanup();
});

const TEXT = 'Había una vez un pueblo junto al mar. '.repeat(140); // ~5,300 characters: three engine calls

function depsWith(synth: Synthesizer, clock: TestClock = testClock()): NarrationDeps {
  return narrationDepsOn(clock, { synthesizer: async () => synth });
}

function poller(deps: NarrationDeps): Poller {
  const p = startPoller({
    worker: {
      ...narrationManifest.workers[0]!,
      memoryMb: 1024,
      timeoutS: 60,
      tmpMb: 512,
    },
    handler: makeWorker(deps),
    queues: emu.queues,
    endpoint: emu.env.AWS_ENDPOINT_URL_SQS!,
    visibilityS: 2,
    concurrency: { priority: 1, standard: 1 },
    log: (l) => process.env.DEBUG_FAULTS && console.log(new Date().toISOString(), l),
  });
  pollers.push(p);
  return p;
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

test('a worker killed mid-job: the next delivery takes over after the lease and finishes, one audio object', async () => {
  const real = await awsDeps().synthesizer();
  let calls = 0;
  const hanging: Synthesizer = {
    engine: 'hangs-on-second-call',
    maxChars: real.maxChars,
    concurrency: 1,
    synthesize: (text, voice) =>
      ++calls === 1 ? real.synthesize(text, voice) : new Promise(() => undefined),
  };
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  const clock = testClock();
  const first = poller(depsWith(hanging, clock));
  // The first worker encodes chunk 1, reports progress, then hangs.
  await until('progress from the first worker', async () => {
    const r = await deps.audio.get(audioId);
    return r?.status === 'processing' && (r.progress ?? 0) > 0 ? r : undefined;
  });
  first.kill();
  // Still held: the first worker's lease has not run out, so no other delivery may take the job over.
  const held = await deps.audio.get(audioId);
  expect(held?.status).toBe('processing');
  expect(held?.leaseUntil).toBeGreaterThan(clock.now().getTime() / 1000);

  // The lease runs out (the clock moves past it instead of the test sleeping): the next delivery takes over.
  clock.advance((LEASE_S + 1) * 1000);
  poller(depsWith(real, clock));
  // ~5,300 characters narrated and encoded by the second worker: the 30 s default ran out at load ~9 (ci44), and
  // the test took 31 s with a CI run beside it.
  const done = await until(
    'the job to finish',
    async () => {
      const r = await deps.audio.get(audioId);
      return r?.status === 'done' ? r : undefined;
    },
    150_000,
    () => deps.audio.get(audioId),
  );
  expect(done.attempts).toBeGreaterThanOrEqual(2);
  const head = await s3Client().send(new S3Head({ Bucket: emu.bucket, Key: `audio/${audioId}.mp3` }));
  expect(head.ContentLength).toBe(done.bytes);
  expect(done.durationS).toBeGreaterThan(60);
  // The job text is cleaned up once the audio exists: after the job's end (its charge, webhook and counters), which
  // runs once `done` is visible (ci37, under load, read it in between).
  await until('the job text to be cleaned up', async () =>
    (await deps.store.getJobText(audioId)) === undefined ? true : undefined,
  );
});

test('a job that always fails ends failed with its reason after 3 attempts, and its message is in the DLQ', async () => {
  const failing: Synthesizer = {
    engine: 'broken',
    maxChars: 2000,
    concurrency: 1,
    synthesize: async () => {
      throw new Error('speech engine unavailable');
    },
  };
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  poller(depsWith(failing));
  const failed = await until(
    'the job to fail',
    async () => {
      const r = await deps.audio.get(audioId);
      return r?.status === 'failed' ? r : undefined;
    },
    30_000,
    () => deps.audio.get(audioId),
  );
  expect(failed.attempts).toBe(3);
  expect(failed.error).toMatch(/after 3 attempts \(speech engine unavailable\)/);
  for (const p of pollers.splice(0)) p.kill();

  // As in SQS, the move to the DLQ happens when the message would be received a 4th time: that receive gives nothing.
  const redriven = await receiveUntilRedriven(
    sqsClient(),
    emu.queues.standard!,
    emu.queues.standardDlq!,
    (body) => (body as { audioId?: string }).audioId === audioId,
  );
  expect(redriven.received).toEqual([]);
  expect(redriven.dead.body).toEqual({ audioId });
});
