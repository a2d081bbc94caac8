// A 100,000-character text (the contract's maximum) goes through the queue and the worker and comes back as one
// continuous MP3 whose reported duration matches ffprobe's; its segments are playable while the job runs.
// The engine is the deployed one: the real Polly adapter and AWS SDK against the Polly stand-in on loopback, serving
// canned speech (cut to each request's length; test/helpers/polly-stand-in.ts), so a job of the contract's maximum
// runs the cloud MP3 path (Polly's frames joined and levelled, never re-encoded). Its local-engine twin (espeak-ng,
// LAME in worker threads) is the same pipeline per chunk, covered at every voice and format by
// test/integration/speech.test.ts and test/e2e/narration.test.ts; here it only added ~100 minutes of MP3 encoding.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { awsDeps } from '../../lambdas/narration/deps';
import { startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';
import { ffprobe, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(600_000);

let rt: TestRuntime;
let polly: PollyStandIn;
const files = tempDir('long-');
beforeAll(async () => {
  // Our adapter sends at most 3,000 characters a request; this job is MP3 (Polly's own frames).
  polly = await startPollyStandIn({ speech: 'canned', cannedChars: 3000, cannedFormats: ['mp3'] });
  // Narration only: the Documents API's handlers and workers would only add their start and their idle polling.
  rt = await startRuntime(
    { SPEECH_ENGINE: 'polly', AWS_ENDPOINT_URL_POLLY: polly.endpoint, WAIT_WINDOW_S: '0' },
    { documents: false },
  );
});
afterAll(async () => {
  await rt?.stop();
  await polly?.stop();
  files.cleanup();
});

function text100k(): string {
  const base = readFileSync(join(__dirname, '..', 'fixtures', 'texto-2000.txt'), 'utf8').trim();
  let out = '';
  for (let i = 1; [...out].length < 100_000; i++) out += `Capítulo ${i}.\n\n${base}\n\n`;
  return [...out].slice(0, 100_000).join('');
}

test('100,000 characters: answered 202 at once (no wait window); playable segments while it runs; real audio at audio_url', async () => {
  const text = text100k();
  expect([...text].length).toBe(100_000);
  const res = await postJson(rt.url('/convert/text'), { text, voice: 'es-MX-Andres', fmt: 'mp3' });
  // WAIT_WINDOW_S=0: the request is answered as soon as the job is queued, so what a client sees while a long job
  // runs is always checked (the 200 within the window is test/e2e/narration.test.ts's).
  expect(res.status).toBe(202);
  const queued = (await res.json()) as { audio_id: string; audio_url: string; chars: number };
  expect(queued.chars).toBe(100_000);

  // Progress and segments move while the worker runs (JSON clients are answered at once).
  const progress = new Set<number>();
  let segmentsWhilePending = 0;
  const deadline = Date.now() + 540_000;
  while (Date.now() < deadline) {
    const r = await fetch(rt.url(queued.audio_url), { headers: { accept: 'application/json' } });
    if (r.status !== 202) break;
    progress.add(((await r.json()) as { progress: number }).progress);
    const rec = await awsDeps().audio.get(queued.audio_id);
    if (rec && rec.status !== 'done')
      segmentsWhilePending = Math.max(segmentsWhilePending, rec.segments?.length ?? 0);
    await new Promise((r) => setTimeout(r, 250));
  }
  expect([...progress].some((p) => p > 0 && p < 1)).toBe(true);
  expect(segmentsWhilePending).toBeGreaterThan(0);

  const info = await fetch(rt.url(queued.audio_url), { headers: { accept: 'application/json' } });
  expect(info.status).toBe(200);
  const done = (await info.json()) as { duration_s: number; url: string; status: string; chars: number };
  expect(done).toMatchObject({ status: 'done', chars: 100_000 });

  // A client that only follows audio_url gets the audio itself.
  const file = await fetch(rt.url(queued.audio_url));
  expect(file.status).toBe(200);
  const path = join(files.path, 'long.mp3');
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const probe = ffprobe(path);
  expect(probe.codec).toBe('mp3');
  expect(probe.duration).toBeGreaterThan(3600); // over an hour of speech
  expect(Math.abs(done.duration_s - probe.duration) / probe.duration).toBeLessThan(0.02);
  const rec = await awsDeps().audio.get(queued.audio_id);
  const total = rec!.segments!.reduce((a, s) => a + s.duration_s, 0);
  expect(Math.abs(total - probe.duration)).toBeLessThan(0.05);
});
