// A 100,000-character text (the contract's maximum) goes through the queue and the worker and comes back as one
// continuous MP3 whose reported duration matches ffprobe's; its segments are playable while the job runs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { awsDeps } from '../../lambdas/narration/deps';
import { ffprobe, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(600_000);

let rt: TestRuntime;
const files = tempDir('long-');
beforeAll(async () => {
  rt = await startRuntime();
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

function text100k(): string {
  const base = readFileSync(join(__dirname, '..', 'fixtures', 'texto-2000.txt'), 'utf8').trim();
  let out = '';
  for (let i = 1; [...out].length < 100_000; i++) out += `Capítulo ${i}.\n\n${base}\n\n`;
  return [...out].slice(0, 100_000).join('');
}

test('100,000 characters: 200 or 202 per the wait window; playable segments while it runs; real audio at audio_url', async () => {
  const text = text100k();
  expect([...text].length).toBe(100_000);
  const res = await postJson(rt.url('/convert/text'), { text, voice: 'es-MX-Andres', fmt: 'mp3' });
  // The request waits up to the window (25 s) for the worker: 200 when the audio is ready in time, else 202.
  expect([200, 202]).toContain(res.status);
  const queued = (await res.json()) as { audio_id: string; audio_url: string; chars: number };
  expect(queued.chars).toBe(100_000);

  if (res.status === 202) {
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
      await new Promise((r) => setTimeout(r, 1000));
    }
    expect([...progress].some((p) => p > 0 && p < 1)).toBe(true);
    expect(segmentsWhilePending).toBeGreaterThan(0);
  }

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
