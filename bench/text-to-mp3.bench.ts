// Text → MP3 with the local engine: narrate() (chunking, parallel synthesis, pauses, streaming encoder) against
// the plain way on the same text in the same run: one engine call for the whole text, then the same encoder.
// A ratio near or below 1 means the pipeline costs nothing over the bare engine + encoder.
// Runs for each local engine available (espeak-ng CLI when installed, WASM always).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encodeToFile } from '../lambdas/narration/audio/encode';
import { narrate } from '../lambdas/narration/use-cases/narrate';
import type { Synthesizer } from '../lambdas/narration/ports';
import { findVoice } from '../lambdas/narration/core/voices';
import { espeakCliAvailable } from '../lambdas/narration/speech/espeak-cli';
import { createSynthesizer } from '../lambdas/narration/speech/index';

const REPS = 3;
const voice = findVoice('es-MX-Mia')!;
const fixture = readFileSync(join(__dirname, '../test/fixtures/texto-2000.txt'), 'utf8');
const text = [fixture, fixture, fixture].join('\n\n'); // ~6,000 characters, ~6 minutes of speech

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
}

async function bench(engine: Synthesizer, dir: string): Promise<void> {
  const pipeline: number[] = [];
  const baseline: number[] = [];
  const synthOnly: number[] = [];
  const encodeOnly: number[] = [];
  let audioS = 0;
  // Warm-up (WASM compilation, page cache), not measured.
  await narrate({ text: fixture, voice, fmt: 'mp3', synthesizer: engine, outPath: join(dir, 'warm.mp3') });
  for (let i = 0; i < REPS; i++) {
    const [tp, r] = await time(() =>
      narrate({ text, voice, fmt: 'mp3', synthesizer: engine, outPath: join(dir, 'pipeline.mp3') }),
    );
    pipeline.push(tp);
    audioS = r.durationS;
    const [ts, pcm] = await time(() => engine.synthesize(text, voice)); // the whole text in one call
    const [te] = await time(() =>
      encodeToFile(
        'mp3',
        pcm.sampleRate,
        (async function* () {
          yield pcm.samples;
        })(),
        join(dir, 'baseline.mp3'),
      ),
    );
    synthOnly.push(ts);
    encodeOnly.push(te);
    baseline.push(ts + te);
  }
  const p = median(pipeline);
  const b = median(baseline);
  console.log(
    `text-to-mp3 (${engine.engine}, ${text.length} chars): ${p.toFixed(0)} ms vs baseline ${b.toFixed(0)} ms → ratio ${(p / b).toFixed(2)}×`,
  );
  console.log(
    `# ${engine.engine}: ${audioS.toFixed(0)} s of audio; engine alone ${((audioS * 1000) / median(synthOnly)).toFixed(0)}× realtime, ` +
      `MP3 encoder ${((audioS * 1000) / median(encodeOnly)).toFixed(0)}× realtime, pipeline ${((audioS * 1000) / p).toFixed(0)}× realtime ` +
      `(median of ${REPS}, concurrency ${engine.concurrency}, ${engine.maxChars} chars per call)`,
  );
}

(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bench-mp3-'));
  try {
    if (await espeakCliAvailable()) await bench(await createSynthesizer('espeak-cli'), dir);
    else console.log('# espeak-ng CLI not installed: only the WASM engine is measured');
    await bench(await createSynthesizer('espeak-wasm'), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
