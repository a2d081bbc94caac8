// The job lease is renewed while its worker works (lambdas/shared/jobs/leased-job.ts), against the emulators with a
// 2 s lease: a narration job that runs far past its lease is not taken over by a second delivery while its first
// worker is alive, and finishes once, as that worker's attempt. The control: a worker that claimed the job and then
// stopped renewing (it died) loses it to the next delivery after the lease. Waits are on evidence (the record's
// progress and lease, the clock passing the first lease), never fixed sleeps.
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import { runJob } from '../../lambdas/narration/use-cases/narration-job';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { findVoice } from '../../lambdas/narration/core/voices';
import type { ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { s3Client } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { JobBusyError } from '../../lambdas/shared/jobs/leased-job';
import { withEmulators } from '../helpers/env';
import { until } from '../helpers/until';

jest.setTimeout(60_000);

const LEASE_S = 2;

let emu: Awaited<ReturnType<typeof withEmulators>>;
beforeAll(async () => {
  emu = await withEmulators();
  Object.assign(process.env, {
    SPEECH_ENGINE: 'espeak',
    SYNC_MAX_CHARS: '100',
    WAIT_WINDOW_S: '0',
    JOB_LEASE_S: String(LEASE_S),
  });
  resetConfig();
});
afterAll(async () => {
  await emu.cleanup();
});

const TEXT = 'Había una vez un pueblo junto al mar. '.repeat(80); // ~3,000 characters: two engine calls

let jobs = 0;

/**
 * A paid key's job (no free-tier charge), queued and not yet taken by any worker. Each job's text is new (numbered):
 * the same text again from the same key would reuse the earlier audio (docs/reuse.md) instead of queueing a job.
 */
async function queueJob(deps: NarrationDeps): Promise<string> {
  const out = await startConversion(deps, {
    text: `${TEXT}Trabajo ${++jobs}.`,
    voice: findVoice('es-MX-Mia')!,
    fmt: 'mp3',
    caller: {
      kind: 'key',
      subject: 'key#lease',
      key: { plan: 'pro', keyHash: 'e'.repeat(64) } as ApiKeyRecord,
    },
  });
  expect(out.statusCode).toBe(202);
  return out.body.audio_id as string;
}

/** The real engine, whose second call waits for the test's go (a long job, as long as the test wants). */
async function gatedSynth(): Promise<{ synth: Synthesizer; go(): void }> {
  const real = await awsDeps().synthesizer();
  let go!: () => void;
  const gate = new Promise<void>((r) => (go = r));
  let calls = 0;
  return {
    go,
    synth: {
      engine: 'gated',
      maxChars: 2000,
      concurrency: 1,
      synthesize: async (text, voice) => {
        if (++calls > 1) await gate;
        return real.synthesize(text, voice);
      },
    },
  };
}

test('a job running past its lease keeps it: a second delivery is refused, the first worker finishes it once', async () => {
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  const { synth, go } = await gatedSynth();
  const first = runJob({ ...deps, synthesizer: async () => synth } as NarrationDeps, audioId, 1, findVoice);
  const claimed = await until('the first worker to make progress', async () => {
    const r = await deps.audio.get(audioId);
    return r?.status === 'processing' && (r.progress ?? 0) > 0 ? r : undefined;
  });
  const firstLease = claimed.leaseUntil!;
  // Real time passes the first lease by a whole lease; meanwhile the heartbeat moved it on.
  const renewed = await until('the clock to pass the first lease and the lease to be renewed', async () => {
    const r = await deps.audio.get(audioId);
    return Date.now() / 1000 > firstLease + LEASE_S && r!.leaseUntil! > firstLease + LEASE_S ? r : undefined;
  });
  expect(renewed).toMatchObject({ status: 'processing', attempts: 1 });

  // The redelivery (visibility timeout, duplicate message) finds the job held and leaves it alone.
  await expect(runJob(deps, audioId, 2, findVoice)).rejects.toBeInstanceOf(JobBusyError);
  go();
  expect(await first).toBe('done');
  const done = await deps.audio.get(audioId);
  expect(done).toMatchObject({ status: 'done', attempts: 1 });
  const head = await s3Client().send(
    new HeadObjectCommand({ Bucket: emu.bucket, Key: `audio/${audioId}.mp3` }),
  );
  expect(head.ContentLength).toBe(done!.bytes);
});

test('control: a worker that stops renewing (it died) loses the job to the next delivery after the lease', async () => {
  const deps = awsDeps();
  const audioId = await queueJob(deps);
  const dead = (await deps.audio.claim(audioId, 1))!; // claimed, then nobody renews it
  await until("the dead worker's lease to run out", async () =>
    Date.now() / 1000 > dead.leaseUntil! + 1 ? true : undefined,
  );
  expect(await runJob(deps, audioId, 2, findVoice)).toBe('done');
  expect(await deps.audio.get(audioId)).toMatchObject({ status: 'done', attempts: 2 });
});
