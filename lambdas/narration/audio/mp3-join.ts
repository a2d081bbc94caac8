// Joining MP3 that an engine encoded itself (Polly's own MP3 at 24 kHz) without decoding it: keep only the audio
// frames of each answer (no ID3 tags, no Xing/Info frame: a tag in the middle of a file is heard as a glitch or
// miscounted), add pauses as digital-silence frames of the same format, and, when the joined frames are not all one
// size (another bitrate, a VBR answer), put a Xing frame first so players and ffprobe read the exact frame count
// instead of guessing the duration from the first frame's bitrate.
// Every frame an engine starts a stream with has main_data_begin = 0 (nothing before it to borrow bits from), so
// answers concatenate at frame boundaries; the silence frames borrow nothing either.
import { Mp3FrameCounter, parseMp3FrameHeader, type Mp3FrameHeader } from './duration';
import type { Mp3Segment } from './encode';

export interface Mp3Frames extends Mp3Segment {
  sampleRate: number;
  /** The first audio frame's 4 header bytes: the format silence and a Xing frame are made in. */
  header: Uint8Array;
  /** Bitrate (kbps) of every frame, when they differ; one entry when every frame has the same. */
  bitrates: number[];
}

/** The audio frames of an MP3 answer, in order, without tags or junk. Throws when there are none. */
export function mp3AudioFrames(bytes: Uint8Array): Mp3Frames {
  const kept: Uint8Array[] = [];
  const bitrates = new Set<number>();
  let first: Uint8Array | undefined;
  const counter = new Mp3FrameCounter((frame, h) => {
    first ??= frame.slice(0, 4);
    bitrates.add(h.bitrateKbps);
    kept.push(frame);
  });
  counter.push(bytes);
  const { frames, durationS, sampleRate } = counter.end();
  if (!first || frames === 0) throw new Error('the MP3 answer holds no audio frame');
  return {
    bytes: new Uint8Array(Buffer.concat(kept)),
    frames,
    durationS,
    sampleRate,
    header: first,
    bitrates: [...bitrates],
  };
}

/** `header` without CRC and padding: the header of a frame we build (no CRC to compute, a fixed size). */
function plainHeader(header: Uint8Array): { bytes: Uint8Array; h: Mp3FrameHeader } {
  const bytes = Uint8Array.from(header.subarray(0, 4));
  bytes[1]! |= 0x01; // protection bit set: no CRC follows
  bytes[2]! &= ~0x02; // no padding byte
  const h = parseMp3FrameHeader(bytes);
  if (!h || h.layer !== 3) throw new Error('not an MPEG layer III frame header');
  return { bytes, h };
}

/** Side information bytes of a layer III frame (after the header). */
function sideInfoBytes(h: Mp3FrameHeader): number {
  return h.version === 1 ? (h.channels === 1 ? 17 : 32) : h.channels === 1 ? 9 : 17;
}

/**
 * About `seconds` of digital silence in the format of `header` (rounded to whole frames): frames whose side
 * information is all zero (no main data, no borrowed bits) decode to exact zeros.
 */
export function silentMp3Frames(header: Uint8Array, seconds: number): Mp3Segment {
  const { bytes: head, h } = plainHeader(header);
  const frames = Math.max(0, Math.round((seconds * h.sampleRate) / h.samplesPerFrame));
  const out = new Uint8Array(frames * h.frameBytes);
  for (let i = 0; i < frames; i++) out.set(head, i * h.frameBytes);
  return { bytes: out, frames, durationS: (frames * h.samplesPerFrame) / h.sampleRate };
}

/**
 * A Xing frame (frame count and byte count) in the format of `header`, to put before `frames` audio frames that
 * take `audioBytes`; it is silent and players skip it.
 */
export function xingFrame(header: Uint8Array, frames: number, audioBytes: number): Uint8Array {
  const { bytes: head, h } = plainHeader(header);
  const out = new Uint8Array(h.frameBytes);
  const tagAt = 4 + sideInfoBytes(h);
  if (tagAt + 16 > out.length) throw new Error('the frame is too small for a Xing tag');
  out.set(head);
  const view = new DataView(out.buffer);
  out.set([0x58, 0x69, 0x6e, 0x67], tagAt); // "Xing"
  view.setUint32(tagAt + 4, 0x3); // fields present: frames, bytes
  view.setUint32(tagAt + 8, frames);
  view.setUint32(tagAt + 12, audioBytes + out.length);
  return out;
}
