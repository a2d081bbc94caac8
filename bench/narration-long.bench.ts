// Long narrations (issue #11): how soon the first segment of a long text is playable, and how long the whole file
// takes, with the parallel pipeline (narrate(): engine processes up to the cores, MP3 segments encoded in worker
// threads) against the single-process pipeline on the same text in the same run (one engine call at a time,
// encoding in the main thread). Then a simulated cloud run: the real Polly adapter and AWS SDK against the Polly
// stand-in on loopback (test/helpers/polly-stand-in.ts) with per-request latency and an 8 TPS limit answered with
// ThrottlingException, checking the job finishes without a throttling failure. The stand-in serves canned speech
// (cut to the length each text takes, encoded before the run): Polly's synthesis runs on AWS's machines, so only
// what our code does is on this machine's cores — the token bucket and concurrency, joining Polly's MP3 frames
// and the S3 writes (segments as they land, then the file and timings, to s3rver on loopback, as the worker does).
// Baseline in the same run: the same job made from Polly's Ogg Vorbis, decoded and encoded to MP3 by us (how WAV
// and OGG narrations are made). It then prints the decoding and encoding rates measured in the same process.
// Loudness (issue #28): the cloud job runs with loudness normalisation off (the baseline, as before), at the default
// -16 LUFS and at -23 LUFS, and prints the ratios and each levelled file's loudness by ffmpeg's ebur128 (the
// 100,000-character check of the target on the cloud path). The voice's level is measured on its first ~30 s
// (decoded in the MP3 threads); later chunks get that gain in their frames (global_gain). At -16 the canned speech
// (peaks 19.5 dB over its loudness) needs the limiter, so each later chunk is decoded (and the granules around its
// peaks once more); at -23 the gain leaves the peaks under the ceiling and nothing more is decoded.
// Why -16 cannot skip that decode (a partial decoder's peak bound measured against the decoded peaks):
// bench/narration-peak-bound.bench.ts.
// CLOUD_DECODED=0 skips the decode-and-re-encode baseline.
// BENCH_CHARS (default 100,000) sets the text size; CLOUD_LATENCY_MS (default 600) the stand-in's latency;
// BENCH_PARTS=cloud runs only the cloud simulation, =local only the local runs; CLOUD_SPEECH=espeak makes the
// stand-in speak every request again (its CPU then counts too, as before).
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { SynthesizeSpeechCommand } from '@aws-sdk/client-polly';
import { S3Client } from '@aws-sdk/client-s3';
import { S3AudioStore } from '../lambdas/narration/adapters/audio-store';
import { decodeOggVorbis, PollySynthesizer } from '../lambdas/narration/adapters/polly';
import { encodeMp3Segment } from '../lambdas/narration/audio/encode';
import type { LoudnessTarget } from '../lambdas/narration/audio/loudness';
import { findVoice } from '../lambdas/narration/core/voices';
import type { Synthesizer } from '../lambdas/narration/ports';
import { createSynthesizer } from '../lambdas/narration/speech/index';
import { narrate } from '../lambdas/narration/use-cases/narrate';
import { startEmulators } from '../lib/local/emulators';
import { ffmpegLoudness } from '../test/helpers/loudness-meter';
import { standInClient, startPollyStandIn } from '../test/helpers/polly-stand-in';

const CHARS = Number(process.env.BENCH_CHARS ?? 100_000);
const voice = findVoice('es-MX-Mia')!;
const fixture = readFileSync(join(__dirname, '../test/fixtures/texto-2000.txt'), 'utf8').trim();
let text = '';
for (let i = 1; text.length < CHARS; i++) text += `Capítulo ${i}.\n\n${fixture}\n\n`;
text = text.slice(0, CHARS);

interface RunOptions {
  encoderThreads?: number;
  /** 'off': the engine's own level (how narrations were made before loudness normalisation); else a target. */
  loudness?: 'off' | LoudnessTarget;
  /** Where segments, the file and its timings go as the worker stores them (the cloud run). */
  store?: S3AudioStore;
}

async function run(engine: Synthesizer, outPath: string, o: RunOptions = {}) {
  const t = performance.now();
  let first = Number.NaN;
  const audioId = `bench${Math.round(t)}`;
  const r = await narrate({
    text,
    voice,
    fmt: 'mp3',
    synthesizer: engine,
    outPath,
    ...(o.encoderThreads !== undefined ? { encoderThreads: o.encoderThreads } : {}),
    ...(o.loudness ? { loudness: o.loudness } : {}),
    onSegment: async (s, mp3) => {
      await o.store?.putSegment(audioId, s.n, mp3);
      if (s.n === 0) first = performance.now() - t;
    },
  });
  if (o.store) {
    await o.store.putAudioFile(audioId, 'mp3', outPath);
    await o.store.putTimings(audioId, r.timings);
  }
  return { firstMs: first, totalMs: performance.now() - t, audioS: r.durationS, segments: r.segments.length };
}

const cpuS = (since: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(since);
  return (u.user + u.system) / 1e6;
};

async function local(dir: string) {
  const engine = await createSynthesizer('espeak');
  const single: Synthesizer = {
    engine: engine.engine,
    maxChars: engine.maxChars,
    concurrency: 1,
    synthesize: (t, v, o) => engine.synthesize(t, v, o),
  };
  await run(engine, join(dir, 'warm.mp3')); // warm-up: WASM compilation, encoder threads
  const par = await run(engine, join(dir, 'parallel.mp3'));
  const base = await run(single, join(dir, 'single.mp3'), { encoderThreads: 0 });
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
}

async function cloud(dir: string) {
  const latencyMs = Number(process.env.CLOUD_LATENCY_MS ?? 600);
  const speech = process.env.CLOUD_SPEECH === 'espeak' ? 'espeak' : 'canned';
  const s3dir = await mkdtemp(join(tmpdir(), 'bench-long-s3-'));
  // The local runtime's emulators (s3rver on disk for S3), as `npm start` and the e2e tests use them.
  const emulators = await startEmulators({ dataDir: s3dir, persistDynamo: false, queues: [] });
  const s3 = new S3Client({
    endpoint: emulators.env.AWS_ENDPOINT_URL_S3!,
    region: 'us-east-1',
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    forcePathStyle: true,
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const standIn = await startPollyStandIn({ latencyMs, tps: 8, speech });
  try {
    const client = standInClient(standIn);
    const polly = new PollySynthesizer(client);
    const store = new S3AudioStore(s3, emulators.bucket);
    // Baseline in the same run: the same job without loudness normalisation (Polly's frames joined as they come,
    // the path before -16 LUFS became the default). Then the job as it runs now, levelled (one decode per chunk in
    // the MP3 threads, global_gain written into the frames).
    const cpuOff = process.cpuUsage();
    const off = await run(polly, join(dir, 'cloud-off.mp3'), { store, loudness: 'off' });
    const offCpu = cpuS(cpuOff);
    standIn.reset();
    const cpu0 = process.cpuUsage();
    const c = await run(polly, join(dir, 'cloud.mp3'), { store });
    const cpu = cpuS(cpu0);
    const throttled = standIn.throttled;
    const requests = standIn.seen.length;
    const maxInFlight = standIn.maxInFlight;
    // -23 LUFS (EBU R128 broadcast): the canned voice's gain then leaves its peaks under the ceiling, so after the
    // first ~30 s every chunk's gain is written into its frames undecoded (what any voice with that headroom gets).
    standIn.reset();
    const cpu23 = process.cpuUsage();
    const c23 = await run(polly, join(dir, 'cloud-23.mp3'), {
      store,
      loudness: { lufs: -23, truePeakDb: -1 },
    });
    const cpuMinus23 = cpuS(cpu23);

    console.log(
      `narration-long cloud (Polly stand-in, ${speech} speech, ${latencyMs} ms latency, 8 TPS, ${CHARS} chars): ${c.totalMs.toFixed(0)} ms vs 25000 ms window → ratio ${(c.totalMs / 25_000).toFixed(2)}×`,
    );
    console.log(
      `# cloud: first segment ${c.firstMs.toFixed(0)} ms, ${requests} requests (pacing floor at 8 TPS ${((requests / 8) * 1000).toFixed(0)} ms), ` +
        `${throttled} throttled (absorbed), at most ${maxInFlight} in flight, ${c.audioS.toFixed(0)} s of audio in ${c.segments} segments; ` +
        `process CPU ${cpu.toFixed(1)} s (all threads) in ${(c.totalMs / 1000).toFixed(1)} s on ${availableParallelism()} cores`,
    );
    console.log(
      `narration-long cloud, loudness -16 LUFS applied vs off (${CHARS} chars): ${c.totalMs.toFixed(0)} ms vs ${off.totalMs.toFixed(0)} ms → ratio ${(c.totalMs / off.totalMs).toFixed(2)}× (goal ≤ 1.1×)`,
    );
    console.log(
      `narration-long cloud, loudness -23 LUFS applied (gain undecoded after the voice's first ~30 s) vs off (${CHARS} chars): ${c23.totalMs.toFixed(0)} ms vs ${off.totalMs.toFixed(0)} ms → ratio ${(c23.totalMs / off.totalMs).toFixed(2)}×`,
    );
    // The whole 100,000-character files as a podcast platform's checker measures them (ffmpeg ebur128).
    for (const [file, lufs] of [
      ['cloud.mp3', -16],
      ['cloud-23.mp3', -23],
    ] as const) {
      const m = ffmpegLoudness(join(dir, file));
      console.log(
        `# loudness of the ${CHARS}-character cloud file at ${lufs} (ffmpeg ebur128): ${m.i} LUFS integrated, true peak ${m.tp} dBTP ` +
          `(goal ${lufs} ± 1, ≤ -1): ${Math.abs(m.i - lufs) <= 1 && m.tp <= -1 ? 'met' : 'NOT MET'}`,
      );
    }
    console.log(
      `# process CPU (all threads): loudness off ${offCpu.toFixed(1)} s, -16 LUFS ${cpu.toFixed(1)} s, -23 LUFS ${cpuMinus23.toFixed(1)} s; ` +
        `first segment ${off.firstMs.toFixed(0)} / ${c.firstMs.toFixed(0)} / ${c23.firstMs.toFixed(0)} ms`,
    );
    // CLOUD_DECODED=0: the loudness comparison only.
    if (process.env.CLOUD_DECODED === '0') return;
    // Baseline in the same run: the same job made the way WAV/OGG are (and MP3 was before): Polly's Ogg Vorbis
    // decoded to PCM and encoded to MP3 by us.
    standIn.reset();
    const decoding: Synthesizer = {
      engine: polly.engine,
      maxChars: polly.maxChars,
      concurrency: polly.concurrency,
      maxPerSecond: polly.maxPerSecond,
      synthesize: (t, v, o) => polly.synthesize(t, v, o),
    };
    const cpu1 = process.cpuUsage();
    const d = await run(decoding, join(dir, 'cloud-decoded.mp3'), { store });
    const decodedCpu = cpuS(cpu1);
    console.log(
      `narration-long cloud, Polly's MP3 joined vs its Ogg decoded and re-encoded: ${c.totalMs.toFixed(0)} ms vs ${d.totalMs.toFixed(0)} ms → ratio ${(c.totalMs / d.totalMs).toFixed(2)}×`,
    );
    console.log(
      `# decoded and re-encoded: first segment ${d.firstMs.toFixed(0)} ms, ${standIn.throttled} throttled, process CPU ${decodedCpu.toFixed(1)} s`,
    );

    // Where our CPU goes: one 3,000-character answer decoded, then encoded to MP3, on this thread.
    standIn.reset();
    const sample = fixture.slice(0, 3000);
    const answer = await client.send(
      new SynthesizeSpeechCommand({
        Text: sample,
        OutputFormat: 'ogg_vorbis',
        SampleRate: '24000',
        VoiceId: voice.polly.voiceId as never,
        Engine: voice.polly.engine,
      }),
    );
    const ogg = await answer.AudioStream!.transformToByteArray();
    let t0 = process.cpuUsage();
    const pcm = await decodeOggVorbis(ogg);
    const decodeCpu = cpuS(t0);
    const sampleS = pcm.samples.length / pcm.sampleRate;
    t0 = process.cpuUsage();
    await encodeMp3Segment(pcm.samples, pcm.sampleRate);
    const encodeCpu = cpuS(t0);
    const decodeX = sampleS / decodeCpu;
    const encodeX = sampleS / encodeCpu;
    console.log(
      `# where the CPU goes: Ogg Vorbis decoding ${decodeX.toFixed(0)}× realtime (main thread), MP3 encoding ${encodeX.toFixed(0)}× realtime (per worker thread); ` +
        `for ${c.audioS.toFixed(0)} s of audio that is ${(c.audioS / decodeX).toFixed(1)} s + ${(c.audioS / encodeX).toFixed(1)} s of CPU`,
    );
  } finally {
    await standIn.stop();
    s3.destroy();
    await emulators.stop();
    await rm(s3dir, { recursive: true, force: true });
  }
}

(async () => {
  const dir = await mkdtemp(join(tmpdir(), 'bench-long-'));
  const parts = process.env.BENCH_PARTS ?? 'local,cloud';
  try {
    if (parts.includes('local')) await local(dir);
    if (parts.includes('cloud')) await cloud(dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  process.exit(0);
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
