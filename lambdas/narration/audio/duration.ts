// Exact durations read from encoded audio, as players and ffprobe see it. Pure parsers, no I/O; the MP3 and Ogg
// readers are incremental (push bytes as they are written, then end()) so a 2-hour file never sits in memory.
//   MP3: frames × samples per frame ÷ rate (MPEG-1 layer III: 1152, MPEG-2/2.5 "LSF" layer III: 576), skipping
//        ID3v2/ID3v1 tags and a Xing/Info/VBRI first frame (it carries no audio).
//   Ogg: granule position of the stream's last page ÷ rate from the Vorbis identification header.
//   WAV: data bytes ÷ (rate × channels × bytes per sample).
import { parseWavHeader } from './wav';

// ---------------------------------------------------------------------------------------------------------- MP3

export interface Mp3FrameHeader {
  /** 1, 2 or 2.5 */
  version: 1 | 2 | 2.5;
  layer: 1 | 2 | 3;
  bitrateKbps: number;
  sampleRate: number;
  channels: 1 | 2;
  /** CRC-16 after the header. */
  protected: boolean;
  frameBytes: number;
  samplesPerFrame: number;
}

// Bitrates (kbps) by [MPEG-1 ? 0 : 1][layer - 1][index].
const BITRATES: readonly (readonly (readonly number[])[])[] = [
  [
    [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
  ],
  [
    [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
  ],
];
const SAMPLE_RATES: Record<1 | 2 | 2.5, readonly number[]> = {
  1: [44100, 48000, 32000],
  2: [22050, 24000, 16000],
  2.5: [11025, 12000, 8000],
};

/** Parses a 4-byte MPEG audio frame header at `at`; undefined when the bytes are not one (free format included). */
export function parseMp3FrameHeader(b: Uint8Array, at = 0): Mp3FrameHeader | undefined {
  if (at + 4 > b.length) return undefined;
  const b1 = b[at + 1]!;
  const b2 = b[at + 2]!;
  if (b[at] !== 0xff || (b1 & 0xe0) !== 0xe0) return undefined;
  const versionBits = (b1 >> 3) & 3;
  const layerBits = (b1 >> 1) & 3;
  const bitrateIndex = b2 >> 4;
  const rateIndex = (b2 >> 2) & 3;
  if (versionBits === 1 || layerBits === 0 || bitrateIndex === 0 || bitrateIndex === 15 || rateIndex === 3) {
    return undefined;
  }
  const version = versionBits === 3 ? 1 : versionBits === 2 ? 2 : 2.5;
  const layer = (4 - layerBits) as 1 | 2 | 3;
  const bitrateKbps = BITRATES[version === 1 ? 0 : 1]![layer - 1]![bitrateIndex]!;
  const sampleRate = SAMPLE_RATES[version][rateIndex]!;
  const padding = (b2 >> 1) & 1;
  const bps = bitrateKbps * 1000;
  let frameBytes: number;
  let samplesPerFrame: number;
  if (layer === 1) {
    frameBytes = (Math.floor((12 * bps) / sampleRate) + padding) * 4;
    samplesPerFrame = 384;
  } else if (layer === 2 || version === 1) {
    frameBytes = Math.floor((144 * bps) / sampleRate) + padding;
    samplesPerFrame = 1152;
  } else {
    frameBytes = Math.floor((72 * bps) / sampleRate) + padding;
    samplesPerFrame = 576;
  }
  return {
    version,
    layer,
    bitrateKbps,
    sampleRate,
    channels: b[at + 3]! >> 6 === 3 ? 1 : 2,
    protected: (b1 & 1) === 0,
    frameBytes,
    samplesPerFrame,
  };
}

/** True when the frame at `at` is a Xing/Info (LAME) or VBRI (Fraunhofer) tag frame rather than audio. */
export function isMp3TagFrame(b: Uint8Array, at: number, h: Mp3FrameHeader): boolean {
  const sideInfo = h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
  const xing = at + 4 + (h.protected ? 2 : 0) + sideInfo;
  const word = (i: number) => String.fromCharCode(...b.subarray(i, i + 4));
  return (h.layer === 3 && (word(xing) === 'Xing' || word(xing) === 'Info')) || word(at + 36) === 'VBRI';
}

export interface Mp3Summary {
  /** Audio frames (tag frames excluded). */
  frames: number;
  samples: number;
  /** Rate of the first audio frame (0 when none). */
  sampleRate: number;
  durationS: number;
  /** Bytes skipped as tags or junk. */
  skippedBytes: number;
}

/** Counts MP3 frames across pushed byte ranges; `onFrame` sees each audio frame's bytes (tags and junk never). */
export class Mp3FrameCounter {
  constructor(private readonly onFrame?: (frame: Uint8Array, header: Mp3FrameHeader) => void) {}

  private buf = new Uint8Array(0);
  private frames = 0;
  private samples = 0;
  private sampleRate = 0;
  private seconds = 0;
  private skipped = 0;
  /** Bytes of an ID3v2 tag still to skip. */
  private skip = 0;
  private atStart = true;
  private locked = false;
  private sawAudio = false;
  private finished = false;

  push(bytes: Uint8Array): void {
    if (this.finished) throw new Error('Mp3FrameCounter: push after end');
    if (this.skip > 0) {
      const n = Math.min(this.skip, bytes.length);
      this.skip -= n;
      this.skipped += n;
      bytes = bytes.subarray(n);
    }
    if (bytes.length === 0) return;
    const joined = new Uint8Array(this.buf.length + bytes.length);
    joined.set(this.buf);
    joined.set(bytes, this.buf.length);
    this.buf = joined;
    this.scan(false);
  }

  end(): Mp3Summary {
    if (!this.finished) {
      this.scan(true);
      this.finished = true;
      this.skipped += this.buf.length;
      this.buf = new Uint8Array(0);
    }
    return {
      frames: this.frames,
      samples: this.samples,
      sampleRate: this.sampleRate,
      durationS: this.seconds,
      skippedBytes: this.skipped,
    };
  }

  private scan(final: boolean): void {
    const b = this.buf;
    let at = 0;
    for (;;) {
      if (this.skip > 0) {
        const n = Math.min(this.skip, b.length - at);
        this.skip -= n;
        this.skipped += n;
        at += n;
        if (this.skip > 0) break;
      }
      if (b.length - at < 10 && !final) break;
      if (b.length - at < 4) break;
      if (this.atStart && b[at] === 0x49 && b[at + 1] === 0x44 && b[at + 2] === 0x33) {
        // ID3v2: "ID3", version, flags, 4-byte syncsafe size (+10 for a footer).
        const size =
          ((b[at + 6]! & 0x7f) << 21) |
          ((b[at + 7]! & 0x7f) << 14) |
          ((b[at + 8]! & 0x7f) << 7) |
          (b[at + 9]! & 0x7f);
        this.skip = 10 + size + (b[at + 5]! & 0x10 ? 10 : 0);
        continue;
      }
      this.atStart = false;
      const h = parseMp3FrameHeader(b, at);
      if (!h) {
        this.locked = false;
        at++;
        this.skipped++;
        continue;
      }
      const next = at + h.frameBytes;
      if (!this.locked) {
        // Not yet in step with the frame sequence: accept a header only if the next one lines up too.
        if (next + 4 > b.length && !(final && next <= b.length)) {
          if (final) {
            at++;
            this.skipped++;
            continue;
          }
          break;
        }
        if (next + 4 <= b.length && !parseMp3FrameHeader(b, next) && !(final && next === b.length)) {
          at++;
          this.skipped++;
          continue;
        }
        this.locked = true;
      }
      if (next > b.length) {
        if (final) this.locked = false; // a truncated last frame: players drop it
        break;
      }
      if (!this.sawAudio && isMp3TagFrame(b, at, h)) {
        this.skipped += h.frameBytes;
      } else {
        this.sawAudio = true;
        this.onFrame?.(b.subarray(at, next), h);
        this.frames++;
        this.samples += h.samplesPerFrame;
        this.seconds += h.samplesPerFrame / h.sampleRate;
        if (this.sampleRate === 0) this.sampleRate = h.sampleRate;
      }
      at = next;
    }
    this.buf = b.slice(at);
  }
}

/** A streaming reader of a file's bytes (the MP3 and Ogg ones here): pushed as they come, summed up at the end. */
export interface StreamReader<S> {
  push(bytes: Uint8Array): void;
  end(): S;
}

/** A whole file read at once by a streaming reader. */
function readWhole<S>(reader: StreamReader<S>, bytes: Uint8Array): S {
  reader.push(bytes);
  return reader.end();
}

export const mp3Summary = (bytes: Uint8Array): Mp3Summary => readWhole(new Mp3FrameCounter(), bytes);
export const mp3DurationS = (bytes: Uint8Array): number => mp3Summary(bytes).durationS;

// ---------------------------------------------------------------------------------------------------------- Ogg

export interface OggSummary {
  pages: number;
  /** Serial numbers of the logical streams seen; more than one means a chained (concatenated) file. */
  serials: number[];
  /** Vorbis rate from the identification header (0 when not Vorbis). */
  sampleRate: number;
  /** Granule position of the last page of the first stream that ends a packet (-1 when none). */
  lastGranule: number;
  durationS: number;
}

/** Walks Ogg pages across pushed byte ranges. */
export class OggPageReader {
  private buf = new Uint8Array(0);
  private pages = 0;
  private serials: number[] = [];
  private sampleRate = 0;
  private lastGranule = -1;

  push(bytes: Uint8Array): void {
    const joined = new Uint8Array(this.buf.length + bytes.length);
    joined.set(this.buf);
    joined.set(bytes, this.buf.length);
    this.buf = joined;
    this.scan();
  }

  end(): OggSummary {
    const durationS = this.sampleRate > 0 && this.lastGranule >= 0 ? this.lastGranule / this.sampleRate : 0;
    return {
      pages: this.pages,
      serials: [...this.serials],
      sampleRate: this.sampleRate,
      lastGranule: this.lastGranule,
      durationS,
    };
  }

  private scan(): void {
    const b = this.buf;
    const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
    let at = 0;
    while (at + 27 <= b.length) {
      if (!(
        b[at] === 0x4f &&
        b[at + 1] === 0x67 &&
        b[at + 2] === 0x67 &&
        b[at + 3] === 0x53 &&
        b[at + 4] === 0
      )) {
        at++; // resync on the "OggS" capture pattern
        continue;
      }
      const segments = b[at + 26]!;
      if (at + 27 + segments > b.length) break;
      let body = 0;
      for (let i = 0; i < segments; i++) body += b[at + 27 + i]!;
      const dataAt = at + 27 + segments;
      if (dataAt + body > b.length) break;
      const granule = Number(v.getBigInt64(at + 6, true));
      const serial = v.getUint32(at + 14, true);
      if (!this.serials.includes(serial)) this.serials.push(serial);
      if (serial === this.serials[0]) {
        if (
          this.pages === 0 &&
          body >= 16 &&
          b[dataAt] === 1 &&
          String.fromCharCode(...b.subarray(dataAt + 1, dataAt + 7)) === 'vorbis'
        ) {
          this.sampleRate = v.getUint32(dataAt + 12, true);
        }
        if (granule !== -1) this.lastGranule = granule;
      }
      this.pages++;
      at = dataAt + body;
    }
    this.buf = b.slice(at);
  }
}

export const oggSummary = (bytes: Uint8Array): OggSummary => readWhole(new OggPageReader(), bytes);
export const oggDurationS = (bytes: Uint8Array): number => oggSummary(bytes).durationS;

// ---------------------------------------------------------------------------------------------------------- WAV

/**
 * Duration of a WAV file from its header. When `fileBytes` is given, the data is taken to run to the end of the
 * file if the header's size is a placeholder or larger than what is there (a streamed header never patched).
 */
export function wavDurationS(header: Uint8Array, fileBytes?: number): number {
  const w = parseWavHeader(header);
  let data = w.dataBytes;
  if (fileBytes !== undefined && (data === 0 || w.dataOffset + data > fileBytes))
    data = fileBytes - w.dataOffset;
  const frameBytes = w.channels * (w.bitsPerSample / 8);
  return Math.floor(data / frameBytes) / w.sampleRate;
}
