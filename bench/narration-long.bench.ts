// Long narrations (issue #11): how soon the first segment of a long text is playable, and how long the whole file
// takes, with the parallel pipeline (narrate(): engine processes up to the cores, MP3 segments encoded in worker
// threads) against the single-process pipeline on the same text in the same run (one engine call at a time,
// encoding in the main thread). Then a simulated cloud run: the real Polly adapter and AWS SDK against the Polly
// stand-in on loopback (test/helpers/polly-stand-in.ts) with per-request latency and an 8 TPS limit answered with
// ThrottlingException, checking the job finishes without a throttling failure.
// BENCH_CHARS (default 100,000) sets the text size; CLOUD_LATENCY_MS (default 600) the stand-in's latency.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PollySynthesizer, pollyClient } from '../lambdas/narration/adapters/polly';
import { findVoice } from '../lambdas/narration/core/voices';
import type { Synthesizer } from '../lambdas/narration/ports';
import { createSynthesizer } from '../lambdas/narration/speech/index';
import { narrate } from '../lambdas/narration/use-cases/narrate';
import { startPollyStandIn } from '../test/helpers/polly-stand-in';

const CHARS = Number(process.env.BENCH_CHARS ?? 100_000);
const voice = findVoice('es-MX-Mia')!;
const fixture = readFileSync(join(__dirname, '../test/fixtures/texto-2000.txt'), 'utf8').trim();
let text = '';
for (let i = 1; text.length < CHARS; i++) text += `Capítulo ${i}.\n\n${fixture}\n\n`;
text = text.slice(0, CHARS);

async function run(engine: Synthesizer, outPath: string, encoderThreads?: number) {
  const t = performance.now();
  let first = Number.NaN;
  const r = await narrate({
    text,
    voice,
    fmt: 'mp3',
    synthesizer: engine,
    outPath,
    ...(encoderThreads !== undefined ? { encoderThreads } : {}),
    onSegment: (s) => {
      if (s.n === 0) first = performance.now() - t;
    },
  });
  return { firstMs: first, totalMs: performance.now() - t, audioS: r.durationS, segments: r.segments.length };
}

(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bench-long-'));
  try {
    const engine = await createSynthesizer('espeak');
    const single: Synthesizer = {
      engine: engine.engine,
      maxChars: engine.maxChars,
      concurrency: 1,
      synthesize: (t, v, o) => engine.synthesize(t, v, o),
    };
    await run(engine, join(dir, 'warm.mp3')); // warm-up: WASM compilation, encoder threads
    const par = await run(engine, join(dir, 'parallel.mp3'));
    const base = await run(single, join(dir, 'single.mp3'), 0);
    console.log(
      `narration-long first segment (${engine.engine}, ${CHARS} chars): ${par.firstMs.toFixed(0)} ms vs whole file single-process ${base.totalMs.toFixed(0)} ms → ratio ${(par.firstMs / base.totalMs).toFixed(3)}×`,
    );
    console.log(
      `narration-long finished (${engine.engine}, ${CHARS} chars): ${par.totalMs.toFixed(0)} ms vs single-process ${base.totalMs.toFixed(0)} ms → ratio ${(par.totalMs / base.totalMs).toFixed(2)}×`,
    );
    console.log(
      `# ${par.audioS.toFixed(0)} s of audio in ${par.segments} segments; single-process first segment ${base.firstMs.toFixed(0)} ms; ` +
        `engine concurrency ${engine.concurrency}`,
    );

    const latencyMs = Number(process.env.CLOUD_LATENCY_MS ?? 600);
    const standIn = await startPollyStandIn({ latencyMs, tps: 8 });
    try {
      const polly = new PollySynthesizer(
        pollyClient({
          endpoint: standIn.endpoint,
          region: 'us-east-1',
          credentials: { accessKeyId: 'AKIDBENCH', secretAccessKey: 'bench' },
        }),
      );
      const cloud = await run(polly, join(dir, 'cloud.mp3'));
      console.log(
        `narration-long cloud (Polly stand-in, ${latencyMs} ms latency, 8 TPS, ${CHARS} chars): ${cloud.totalMs.toFixed(0)} ms vs 25000 ms window → ratio ${(cloud.totalMs / 25_000).toFixed(2)}×`,
      );
      console.log(
        `# cloud: first segment ${cloud.firstMs.toFixed(0)} ms, ${standIn.seen.length} requests, ${standIn.throttled} throttled (absorbed), ` +
          `at most ${standIn.maxInFlight} in flight, ${cloud.audioS.toFixed(0)} s of audio`,
      );
    } finally {
      await standIn.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(0);
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
