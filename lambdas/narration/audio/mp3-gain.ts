// Lossless gain on MPEG layer III frames, as mp3gain does it: every granule's `global_gain` (an 8-bit field of the
// side information) scales the granule's decoded samples by 2^(1/4) per step, i.e. 1.505 dB, with no decoding and
// no re-encoding. Steps may differ granule by granule (a limiter in 1.5 dB steps): the decoder's overlap-add
// cross-fades a change over two granules. Frames with a CRC get it recomputed (it covers the side information).
import { parseMp3FrameHeader, type Mp3FrameHeader } from './duration';

/** dB per global_gain step: 20·log10(2^(1/4)). */
export const MP3_GAIN_STEP_DB = 5 * Math.log10(2);

/** Granules in one frame of this header (MPEG-1: 2, MPEG-2/2.5: 1). */
export const granulesPerFrame = (h: Mp3FrameHeader) => (h.version === 1 ? 2 : 1);
/** Samples per granule (per channel). */
export const GRANULE_SAMPLES = 576;

/** Bit offsets of global_gain in the side information, in granule order, each listing its channels. */
function gainBits(h: Mp3FrameHeader): number[][] {
  if (h.version === 1) {
    const base = h.channels === 1 ? 9 + 5 + 4 : 9 + 3 + 8;
    const per = 59;
    return [0, 1].map((gr) =>
      Array.from({ length: h.channels }, (_, ch) => base + (gr * h.channels + ch) * per + 21),
    );
  }
  const base = h.channels === 1 ? 8 + 1 : 8 + 2;
  return [Array.from({ length: h.channels }, (_, ch) => base + ch * 63 + 21)];
}

/** part2_3_length (12 bits) precedes global_gain by 21 bits: zero means the granule holds no data (silence). */
function readBits(b: Uint8Array, at: number, bit: number, n: number): number {
  let v = 0;
  for (let i = 0; i < n; i++) {
    const k = bit + i;
    v = (v << 1) | ((b[at + (k >> 3)]! >> (7 - (k & 7))) & 1);
  }
  return v;
}

function writeBits(b: Uint8Array, at: number, bit: number, n: number, value: number): void {
  for (let i = 0; i < n; i++) {
    const k = bit + i;
    const mask = 1 << (7 - (k & 7));
    const on = (value >> (n - 1 - i)) & 1;
    const idx = at + (k >> 3);
    b[idx] = on ? b[idx]! | mask : b[idx]! & ~mask;
  }
}

function sideInfoBytes(h: Mp3FrameHeader): number {
  return h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
}

/** CRC-16 (0x8005, initial 0xffff) over the header's last two bytes and the side information (ISO 11172-3). */
function frameCrc(b: Uint8Array, at: number, side: number): number {
  let crc = 0xffff;
  const feed = (byte: number) => {
    for (let i = 7; i >= 0; i--) {
      const bit = ((byte >> i) & 1) ^ ((crc >> 15) & 1);
      crc = (crc << 1) & 0xffff;
      if (bit) crc ^= 0x8005;
    }
  };
  feed(b[at + 2]!);
  feed(b[at + 3]!);
  for (let i = 0; i < side; i++) feed(b[at + 6 + i]!);
  return crc;
}

/** The frame at `at`'s main_data_begin: how many bytes of earlier frames' data its own data starts in. */
export function mainDataBegin(b: Uint8Array, at: number): number {
  const h = parseMp3FrameHeader(b, at);
  if (!h) return 0;
  return readBits(b, at + 4 + (h.protected ? 2 : 0), 0, h.version === 1 ? 9 : 8);
}

/** Bytes of the frame at `at` after its header, CRC and side information (its part of the bit reservoir). */
export function mainDataBytes(b: Uint8Array, at: number): number {
  const h = parseMp3FrameHeader(b, at);
  return h ? h.frameBytes - 4 - (h.protected ? 2 : 0) - sideInfoBytes(h) : 0;
}

export interface Mp3GainResult {
  /** Granules (per channel) in the frames, in time order. */
  granules: number;
  /** Granules whose gain hit 0 or 255 (the change was not exact there). */
  clipped: number;
}

/**
 * Changes `frames` (consecutive layer III frames, no tags) in place: granule g's global_gain by `steps(g)` steps
 * (or a constant). Granules holding no data are left as they are.
 */
export function applyMp3Gain(
  frames: Uint8Array,
  steps: number | ((granule: number) => number),
): Mp3GainResult {
  const stepOf = typeof steps === 'number' ? () => steps : steps;
  let at = 0;
  let granule = 0;
  let clipped = 0;
  while (at + 4 <= frames.length) {
    const h = parseMp3FrameHeader(frames, at);
    if (!h || h.layer !== 3) throw new Error(`not a layer III frame at byte ${at}`);
    const side = at + 4 + (h.protected ? 2 : 0);
    for (const channels of gainBits(h)) {
      const s = stepOf(granule++);
      if (s === 0) continue;
      for (const bit of channels) {
        if (readBits(frames, side, bit - 21, 12) === 0) continue; // no data: silence stays silence
        const g = readBits(frames, side, bit, 8);
        const next = Math.min(255, Math.max(0, g + s));
        if (next !== g + s) clipped++;
        writeBits(frames, side, bit, 8, next);
      }
    }
    if (h.protected) {
      const crc = frameCrc(frames, at, sideInfoBytes(h));
      frames[at + 4] = crc >> 8;
      frames[at + 5] = crc & 0xff;
    }
    at += h.frameBytes;
  }
  return { granules: granule, clipped };
}

/** Granules (per channel) in `frames`. */
export function countGranules(frames: Uint8Array): number {
  let at = 0;
  let n = 0;
  while (at + 4 <= frames.length) {
    const h = parseMp3FrameHeader(frames, at);
    if (!h) break;
    n += granulesPerFrame(h);
    at += h.frameBytes;
  }
  return n;
}
