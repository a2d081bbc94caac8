// Streaming encoders: mono 16-bit PCM chunks in, one audio file out, written as it is produced so a 2-hour
// narration never sits in memory. MP3 (LAME, CBR) and Ogg Vorbis come from wasm-media-encoders (in-process WASM,
// works in Lambda); WAV is a header plus the samples, its sizes patched at the end.
// The duration reported is read back from the bytes written (frame count, last granule, data size), so it is what
// players and ffprobe show, not an estimate from the input.
import { open, rm, type FileHandle } from 'node:fs/promises';
import type { WasmMediaEncoder } from 'wasm-media-encoders';
import { CONTENT_TYPE, type AudioFormat } from '../core/formats';
import { Mp3FrameCounter, OggPageReader, mp3Summary, wavDurationS, type StreamReader } from './duration';
import { WAV_HEADER_BYTES, wavHeader } from './wav';

export interface EncodedFile {
  bytes: number;
  durationS: number;
  contentType: string;
}

/** Samples handed to the WASM encoder per call: bounds its heap and output buffer (~1.5 s at 22.05 kHz). */
const BLOCK_SAMPLES = 32_768;
/** Output is gathered up to this size before a write, to keep syscalls few. */
const WRITE_BYTES = 256 * 1024;

// Rates LAME writes without resampling; other input rates are resampled by LAME itself to the next one down.
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000] as const;
type Mp3Rate = (typeof MP3_RATES)[number];

/**
 * Encodes mono 16-bit PCM at `sampleRate` into `outPath` (created or truncated). Consumes `pcmChunks` one at a
 * time; on failure the partial file is removed.
 */
export async function encodeToFile(
  fmt: AudioFormat,
  sampleRate: number,
  pcmChunks: AsyncIterable<Int16Array>,
  outPath: string,
): Promise<EncodedFile> {
  if (!Number.isInteger(sampleRate) || sampleRate < 1000 || sampleRate > 192_000) {
    throw new RangeError(`unsupported sample rate ${sampleRate}`);
  }
  const fh = await open(outPath, 'w');
  try {
    const out = new Output(fh);
    let durationS: number;
    if (fmt === 'wav') durationS = await writeWav(out, fh, sampleRate, pcmChunks);
    else if (fmt === 'mp3') durationS = await writeMp3(out, sampleRate, pcmChunks);
    else if (fmt === 'ogg') durationS = await writeOgg(out, sampleRate, pcmChunks);
    else throw new Error(`unknown audio format ${String(fmt)}`);
    await fh.close();
    return { bytes: out.bytes, durationS, contentType: CONTENT_TYPE[fmt] };
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(outPath, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Buffered sequential writer that lets an observer see every byte written. */
class Output {
  bytes = 0;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  constructor(
    private readonly fh: FileHandle,
    public observe?: (b: Uint8Array) => void,
  ) {}

  /** `data` may be a view the encoder reuses: it is copied. */
  async write(data: Uint8Array): Promise<void> {
    if (data.length === 0) return;
    this.observe?.(data);
    this.pending.push(Buffer.from(data));
    this.pendingBytes += data.length;
    this.bytes += data.length;
    if (this.pendingBytes >= WRITE_BYTES) await this.flush();
  }

  async flush(): Promise<void> {
    if (this.pendingBytes === 0) return;
    const buf = Buffer.concat(this.pending, this.pendingBytes);
    this.pending = [];
    this.pendingBytes = 0;
    await this.fh.write(buf);
  }
}

async function writeWav(
  out: Output,
  fh: FileHandle,
  sampleRate: number,
  pcmChunks: AsyncIterable<Int16Array>,
): Promise<number> {
  await out.write(wavHeader(sampleRate, 0));
  for await (const pcm of pcmChunks) {
    // WAV is little-endian, like every host Node runs on in Lambda (x86_64, arm64).
    await out.write(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  }
  await out.flush();
  const dataBytes = out.bytes - WAV_HEADER_BYTES;
  const header = wavHeader(sampleRate, dataBytes);
  await fh.write(header, 0, header.length, 0);
  return wavDurationS(header, out.bytes);
}

/** LAME settings for mono speech at `sampleRate` (shared by the streaming writer and the segment encoder). */
function mp3Config(sampleRate: number) {
  const outputSampleRate = [...MP3_RATES].reverse().find((r) => r <= sampleRate) ?? 8000;
  return {
    channels: 1 as const,
    sampleRate,
    // CBR: every frame the same size, so players and ffprobe agree on the duration without a Xing header, and
    // separately encoded segments concatenate into one stream.
    // 48 kbps mono is transparent enough for speech at 16-24 kHz; lower rates use MPEG-2.5 (max 160, fine).
    bitrate: outputSampleRate >= 16000 ? (48 as const) : (32 as const),
    ...(outputSampleRate !== sampleRate ? { outputSampleRate: outputSampleRate as Mp3Rate } : {}),
  };
}

async function writeMp3(
  out: Output,
  sampleRate: number,
  pcmChunks: AsyncIterable<Int16Array>,
): Promise<number> {
  const enc = await encoder('audio/mpeg');
  enc.configure(mp3Config(sampleRate));
  return (await encodePcm(enc, out, pcmChunks, new Mp3FrameCounter())).durationS;
}

/** One chunk of speech as MP3 frames (no tag), playable alone and joinable to its neighbours. */
export interface Mp3Segment {
  bytes: Uint8Array;
  frames: number;
  durationS: number;
}

/** Encodes `samples` in this thread into a standalone segment (see audio/mp3-pool.ts for the threads). */
export async function encodeMp3Segment(samples: Int16Array, sampleRate: number): Promise<Mp3Segment> {
  const enc = await encoder('audio/mpeg');
  enc.configure(mp3Config(sampleRate));
  const parts: Uint8Array[] = [];
  for (const block of floatBlocks(samples)) parts.push(enc.encode([block]).slice());
  parts.push(enc.finalize().slice());
  const bytes = new Uint8Array(Buffer.concat(parts));
  const { frames, durationS } = mp3Summary(bytes);
  return { bytes, frames, durationS };
}

/**
 * Samples LAME's output lags its input by (encoder delay + decoder delay: 576 + 529), so speech that starts a
 * segment is heard this long after the segment's start.
 */
export const MP3_DELAY_SAMPLES = 1105;

async function writeOgg(
  out: Output,
  sampleRate: number,
  pcmChunks: AsyncIterable<Int16Array>,
): Promise<number> {
  const enc = await encoder('audio/ogg');
  // One logical stream for the whole narration (chained streams confuse players about the duration).
  // Quality 3 ≈ 45 kbps for mono speech at 22.05 kHz.
  enc.configure({ channels: 1, sampleRate, vbrQuality: 3 });
  const s = await encodePcm(enc, out, pcmChunks, new OggPageReader());
  if (s.serials.length !== 1 || s.sampleRate !== sampleRate)
    throw new Error('Ogg encoder wrote an unexpected stream');
  return s.durationS;
}

/** Encodes every chunk into `out`; `reader` reads the bytes as they are written and gives its summary at the end. */
async function encodePcm<S>(
  enc: WasmMediaEncoder<'audio/mpeg'> | WasmMediaEncoder<'audio/ogg'>,
  out: Output,
  pcmChunks: AsyncIterable<Int16Array>,
  reader: StreamReader<S>,
): Promise<S> {
  out.observe = (b) => reader.push(b);
  const block = new Float32Array(BLOCK_SAMPLES);
  for await (const pcm of pcmChunks) {
    for (const floats of floatBlocks(pcm, block)) {
      await out.write(enc.encode([floats]));
      // Encoding is synchronous CPU work (~5-10 ms a block): give the event loop a turn so engine output
      // (espeak's stdout pipe, Polly's HTTP/2 stream) keeps flowing and synthesis overlaps with encoding.
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  await out.write(enc.finalize());
  await out.flush();
  return reader.end();
}

/** `pcm` as the encoder's input: floats in blocks of at most BLOCK_SAMPLES, each a view of the one `block`. */
function* floatBlocks(pcm: Int16Array, block = new Float32Array(BLOCK_SAMPLES)): Generator<Float32Array> {
  for (let start = 0; start < pcm.length; start += BLOCK_SAMPLES) {
    const n = Math.min(BLOCK_SAMPLES, pcm.length - start);
    for (let i = 0; i < n; i++) block[i] = pcm[start + i]! / 32768;
    yield block.subarray(0, n);
  }
}

// A fresh encoder per file (an encoder is stateful); creating one compiles the inlined WASM in ~10-30 ms.
async function encoder<M extends 'audio/mpeg' | 'audio/ogg'>(mime: M): Promise<WasmMediaEncoder<M>> {
  const lib = await import('wasm-media-encoders');
  const enc = mime === 'audio/mpeg' ? await lib.createMp3Encoder() : await lib.createOggEncoder();
  return enc as WasmMediaEncoder<M>;
}
