// The worker's side of a queued conversion (runJob) against the in-memory fakes: claim, narrate, complete; a
// duplicate delivery does nothing; a job another worker holds is busy until its lease runs out; a failed attempt
// gives the job back, the last one fails it.
import { runJob } from '../../../lambdas/narration/use-cases/narration-job';
import { findVoice, VOICES } from '../../../lambdas/narration/core/voices';
import type { AudioRecord } from '../../../lambdas/narration/ports';
import { JobBusyError } from '../../../lambdas/shared/jobs/leased-job';
import { fakeNarrationDeps } from '../../fakes/narration';

const T0 = new Date('2026-11-21T10:00:00Z');
let clock: Date;

async function setup(opts: { textExpired?: boolean } = {}) {
  const text = opts.textExpired ? undefined : 'Un texto que el trabajador narra. '.repeat(4);
  clock = T0;
  const f = fakeNarrationDeps({ now: () => clock, config: { MAX_RECEIVE_COUNT: 3 } });
  const record: AudioRecord = {
    audioId: 'job1',
    status: 'queued',
    voice: VOICES[0]!.id,
    fmt: 'wav',
    chars: text?.length ?? 0,
    plan: 'free',
    progress: 0,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    expiresAt: Math.floor(T0.getTime() / 1000) + 86400,
  };
  await f.audio.create(record);
  if (text !== undefined) await f.store.putJobText('job1', text);
  return f;
}

test('claims the job, stores the audio, completes it and deletes the job text', async () => {
  const f = await setup();
  expect(await runJob(f.deps, 'job1', 1, findVoice)).toBe('done');
  expect(await f.audio.get('job1')).toMatchObject({ status: 'done', progress: 1, attempts: 1 });
  expect((await f.audio.get('job1'))!.durationS).toBeGreaterThan(0);
  expect(f.store.objects.has('audio/job1.wav')).toBe(true);
  expect(f.store.objects.has('jobs/job1.txt')).toBe(false);
  expect(f.synth.texts.join(' ')).toContain('trabajador');
});

test('a duplicate delivery of a finished job is acknowledged without narrating again', async () => {
  const f = await setup();
  await runJob(f.deps, 'job1', 1, findVoice);
  const calls = f.synth.texts.length;
  expect(await runJob(f.deps, 'job1', 2, findVoice)).toBe('skipped');
  expect(f.synth.texts).toHaveLength(calls);
  expect(await runJob(f.deps, 'unknown', 1, findVoice)).toBe('skipped');
});

test('a job another worker holds is busy; once its lease runs out the next delivery takes it over', async () => {
  const f = await setup();
  await f.audio.claim('job1', 1); // a worker that then died
  await expect(runJob(f.deps, 'job1', 2, findVoice)).rejects.toBeInstanceOf(JobBusyError);
  expect(f.synth.texts).toEqual([]);
  clock = new Date(T0.getTime() + 121_000);
  expect(await runJob(f.deps, 'job1', 2, findVoice)).toBe('done');
  expect(await f.audio.get('job1')).toMatchObject({ status: 'done', attempts: 2 });
});

test('a backstop delivery of a job another worker holds is acknowledged (its own message covers the holder dying)', async () => {
  const f = await setup();
  await f.audio.claim('job1', 1);
  expect(await runJob(f.deps, 'job1', 1, findVoice, true)).toBe('skipped');
  await expect(runJob(f.deps, 'job1', 1, findVoice)).rejects.toBeInstanceOf(JobBusyError);
  expect(f.synth.texts).toEqual([]);
  // Queued (its request died before queueing it): the backstop runs it.
  const g = await setup();
  expect(await runJob(g.deps, 'job1', 1, findVoice, true)).toBe('done');
});

test('a failed attempt gives the job back for the next delivery; the last one fails it with the reason', async () => {
  const f = await setup();
  f.synth.faults.fail('synthesize', new Error('engine down'), 3);
  await expect(runJob(f.deps, 'job1', 1, findVoice)).rejects.toThrow('engine down');
  expect(await f.audio.get('job1')).toMatchObject({ status: 'queued', attempts: 1 });
  await expect(runJob(f.deps, 'job1', 2, findVoice)).rejects.toThrow('engine down');
  // The last attempt fails the job and still throws: the message goes on to the DLQ.
  await expect(runJob(f.deps, 'job1', 3, findVoice)).rejects.toThrow('engine down');
  expect(await f.audio.get('job1')).toMatchObject({
    status: 'failed',
    error: 'Narration failed after 3 attempts (engine down). Please submit the text again.',
  });
  expect(f.store.objects.has('audio/job1.wav')).toBe(false);
  expect(await runJob(f.deps, 'job1', 4, findVoice)).toBe('skipped');
});

test('a job whose text expired fails at once with a reason the caller can act on', async () => {
  const f = await setup({ textExpired: true });
  expect(await runJob(f.deps, 'job1', 1, findVoice)).toBe('skipped');
  expect(await f.audio.get('job1')).toMatchObject({
    status: 'failed',
    error: expect.stringMatching(/read back/),
  });
});

test('a job deleted while it is narrated stops at its next segment: nothing stored, not failed, not retried', async () => {
  const f = await setup();
  // A text of many chunks (the first chunk is small, then they grow up to the engine's 3,000 characters).
  await f.store.putJobText('job1', 'Una frase más del trabajador que narra. '.repeat(1500));
  const listed = f.audio.setSegments.bind(f.audio);
  let calls = 0;
  f.audio.setSegments = async (id, segments, progress) => {
    if (++calls === 2) await f.audio.remove(id); // DELETE /audio/{id} between two segments
    return listed(id, segments, progress);
  };
  expect(await runJob(f.deps, 'job1', 1, findVoice)).toBe('skipped');
  expect(calls).toBe(2);
  expect(await f.audio.get('job1')).toBeUndefined();
  expect(f.store.objects.has('audio/job1.wav')).toBe(false);
  // Far fewer engine calls than the text's chunks (60,000 characters: at least 20 chunks).
  expect(f.synth.texts.length).toBeLessThan(10);
});
