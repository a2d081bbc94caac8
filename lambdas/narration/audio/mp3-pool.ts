// MP3 encoding of a narration's segments on several cores. MP3 (LAME) encodes at ~200× realtime on one core: for a
// 100,000-character text (~100 minutes of speech) that is the slowest step, so each chunk's PCM is encoded on its
// own, in worker threads, and the frames are concatenated in order. That makes one continuous CBR stream (no
// Xing/Info header is written, every frame has the same size) whose duration is its frame count, and every chunk's
// bytes are also a playable segment on their own (a fresh encoder starts with an empty bit reservoir).
// Each segment we encode from a chunk at a loudness target is then kept under its true-peak ceiling (mp3-level.ts
// limitMp3Frames: decoded once, ~22 % of the encode's CPU), since the encoder's low pass and quantisation move peaks.
// The same threads level an engine's own MP3 where that decodes it (audio/mp3-level.ts: a voice's first chunks, and
// the later chunks of a voice whose gain needs the limiter), the only CPU work left on the cloud MP3 path, so it
// stays off the thread that paces Polly's calls; a known voice's gain with headroom is written here, undecoded.
// The worker is this same file (like pdf/isolate.ts): in Lambda the bundle is loaded again in the thread; from
// TypeScript sources (tests, `npm start`) tsx is registered first. Workers are kept warm and unref'd.
import { createRequire } from 'node:module';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { encodeMp3Segment, type Mp3Segment } from './encode';
import type { LoudnessTarget } from './loudness';
import {
  gainsWithoutDecoding,
  levelMp3Frames,
  levelMp3FramesAs,
  limitMp3Frames,
  type Mp3Leveling,
  type VoiceLevel,
} from './mp3-level';

const ROLE = 'narration-mp3-encoder';

type Job =
  | { id: number; samples: Int16Array; sampleRate: number; limit?: LoudnessTarget }
  | { id: number; frames: Uint8Array; target: LoudnessTarget; known?: VoiceLevel };
type Reply =
  | { id: number; ok: Mp3Segment }
  | { id: number; leveled: Uint8Array; leveling: Mp3Leveling }
  | { id: number; failed: string };

/** A chunk's PCM as a segment; with a target, its true peak kept under the target's ceiling (limitMp3Frames). */
async function encodeSegment(samples: Int16Array, sampleRate: number, limit?: LoudnessTarget) {
  const segment = await encodeMp3Segment(samples, sampleRate);
  if (limit) await limitMp3Frames(segment.bytes, limit);
  return segment;
}

const level = (frames: Uint8Array, target: LoudnessTarget, known?: VoiceLevel) =>
  known ? levelMp3FramesAs(frames, known, target) : levelMp3Frames(frames, target);

// ---- worker side ------------------------------------------------------------------------------------------------
if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE && parentPort) {
  const port = parentPort;
  const fail = (id: number) => (err: unknown) =>
    port.postMessage({ id, failed: String(err) } satisfies Reply);
  port.on('message', (job: Job) => {
    if ('frames' in job)
      level(job.frames, job.target, job.known).then(
        (leveling) =>
          port.postMessage({ id: job.id, leveled: job.frames, leveling } satisfies Reply, [
            job.frames.buffer as ArrayBuffer,
          ]),
        fail(job.id),
      );
    else
      encodeSegment(job.samples, job.sampleRate, job.limit).then(
        (ok) => port.postMessage({ id: job.id, ok } satisfies Reply, [ok.bytes.buffer as ArrayBuffer]),
        fail(job.id),
      );
  });
}

// ---- main side --------------------------------------------------------------------------------------------------
function spawn(): Worker {
  const options = { workerData: { role: ROLE } };
  const worker = __filename.endsWith('.ts')
    ? new Worker(
        `require(${JSON.stringify(createRequire(__filename).resolve('tsx/cjs/api'))}).register();require(${JSON.stringify(__filename)});`,
        { ...options, eval: true },
      )
    : new Worker(__filename, options);
  worker.unref();
  return worker;
}

/** Encodes segments on up to `size` worker threads (0: in this thread). Order of completion is not guaranteed. */
export class Mp3EncoderPool {
  private readonly idle: Worker[] = [];
  private readonly waiting: (() => void)[] = [];
  private running = 0;
  private nextId = 1;

  constructor(readonly size: number) {}

  /** `samples` as a segment; with `limit`, its true peak under that target's ceiling (see encodeSegment). */
  async encode(samples: Int16Array, sampleRate: number, limit?: LoudnessTarget): Promise<Mp3Segment> {
    if (this.size <= 0) return encodeSegment(samples, sampleRate, limit);
    const reply = await this.submit({ id: this.nextId++, samples, sampleRate, ...(limit ? { limit } : {}) });
    if (!('ok' in reply)) throw new Error('MP3 encoder answered another job');
    return { ...reply.ok, bytes: new Uint8Array(reply.ok.bytes) };
  }

  /**
   * `frames` (an engine's MP3 frames, no tags) brought to `target` (audio/mp3-level.ts): measured, or as a `known`
   * voice level says; a leveled copy. Work that decodes goes to a thread.
   */
  async level(
    frames: Uint8Array,
    target: LoudnessTarget,
    known?: VoiceLevel,
  ): Promise<{ frames: Uint8Array; leveling: Mp3Leveling }> {
    if (this.size <= 0 || (known && gainsWithoutDecoding(known, target))) {
      const copy = Uint8Array.from(frames);
      return { frames: copy, leveling: await level(copy, target, known) };
    }
    const reply = await this.submit({ id: this.nextId++, frames, target, ...(known ? { known } : {}) });
    if (!('leveled' in reply)) throw new Error('MP3 leveller answered another job');
    return { frames: new Uint8Array(reply.leveled), leveling: reply.leveling };
  }

  private async submit(job: Job): Promise<Reply> {
    while (this.running >= this.size) await new Promise<void>((r) => this.waiting.push(r));
    this.running++;
    const worker = this.idle.pop() ?? spawn();
    try {
      const out = await this.run(worker, job);
      this.idle.push(worker);
      return out;
    } catch (err) {
      void worker.terminate();
      throw err;
    } finally {
      this.running--;
      this.waiting.shift()?.();
    }
  }

  private run(worker: Worker, job: Job): Promise<Reply> {
    const id = job.id;
    return new Promise<Reply>((resolve, reject) => {
      const done = () => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
      };
      const onMessage = (reply: Reply) => {
        if (reply.id !== id) return;
        done();
        if ('failed' in reply) reject(new Error(`MP3 worker failed: ${reply.failed}`));
        else resolve(reply);
      };
      const onError = (err: Error) => {
        done();
        reject(err);
      };
      const onExit = (code: number) => {
        done();
        reject(new Error(`MP3 encoder thread exited (${code})`));
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
      worker.postMessage(job);
    });
  }

  /** Ends the warm threads (tests, benches). */
  async close(): Promise<void> {
    const all = this.idle.splice(0);
    await Promise.all(all.map((w) => w.terminate()));
  }
}

let shared: Mp3EncoderPool | undefined;

/** One pool per process, sized to the cores. */
export function sharedMp3Pool(size: number): Mp3EncoderPool {
  if (!shared || shared.size !== size) shared = new Mp3EncoderPool(size);
  return shared;
}
