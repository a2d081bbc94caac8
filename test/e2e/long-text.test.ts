// A 100,000-character text (the contract's maximum) goes through the queue and the worker and comes back as one
// continuous MP3 whose reported duration matches ffprobe's.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { ffprobe, postJson, startRuntime, waitForAudio, type TestRuntime } from '../helpers/runtime';

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

test('100,000 characters complete through the queue and the worker', async () => {
  const text = text100k();
  expect([...text].length).toBe(100_000);
  const res = await postJson(rt.url('/convert/text'), { text, voice: 'es-MX-Andres', fmt: 'mp3' });
  expect(res.status).toBe(202);
  const queued = (await res.json()) as {
    audio_id: string;
    audio_url: string;
    chars: number;
    estimated_duration_s: number;
  };
  expect(queued.chars).toBe(100_000);

  // Progress moves while the worker runs.
  const progress = new Set<number>();
  let status = 0;
  const deadline = Date.now() + 540_000;
  while (Date.now() < deadline) {
    const r = await fetch(rt.url(queued.audio_url), { redirect: 'manual' });
    status = r.status;
    if (status !== 202) break;
    progress.add(((await r.json()) as { progress: number }).progress);
    await new Promise((r) => setTimeout(r, 1000));
  }
  expect(status).toBe(302);
  expect([...progress].some((p) => p > 0 && p < 1)).toBe(true);

  const info = await fetch(rt.url(queued.audio_url), { headers: { accept: 'application/json' } });
  expect(info.status).toBe(200);
  const done = (await info.json()) as { duration_s: number; url: string; status: string; chars: number };
  expect(done).toMatchObject({ status: 'done', chars: 100_000 });

  const audio = await waitForAudio(rt.url(queued.audio_url), 1000);
  const file = await fetch(audio.headers.get('location')!);
  const path = join(files.path, 'long.mp3');
  writeFileSync(path, Buffer.from(await file.arrayBuffer()));
  const probe = ffprobe(path);
  expect(probe.codec).toBe('mp3');
  expect(probe.duration).toBeGreaterThan(3600); // over an hour of speech
  expect(Math.abs(done.duration_s - probe.duration) / probe.duration).toBeLessThan(0.02);
});
