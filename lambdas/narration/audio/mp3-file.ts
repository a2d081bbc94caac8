// An MP3 narration's file: its segments' frames written in order after an ID3v2 tag (audio/id3-chapters.ts), a Xing
// frame inserted when the frames are not all one bitrate, and the tag rewritten in place once the chapters' times
// are known. Streams to disk: a 100,000-character narration is never held in memory whole.
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm, stat } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import { CONTENT_TYPE } from '../core/formats';
import { Mp3FrameCounter } from './duration';
import type { EncodedFile } from './encode';
import { xingFrame } from './mp3-join';

/**
 * The MP3 segments' frames, in order, into one file; its duration is the frames' (exact). When the frames are not
 * all one bitrate (an engine's VBR answer, or its bitrate next to ours), a Xing frame with the frame count goes
 * first, so players do not estimate the duration from the first frame's bitrate.
 */
export async function writeMp3File(
  outPath: string,
  count: number,
  next: (i: number) => Promise<Uint8Array>,
  head: Uint8Array,
): Promise<EncodedFile> {
  const fh = await open(outPath, 'w');
  let bytes = 0;
  try {
    if (head.length) await fh.write(head);
    bytes += head.length;
    let durationS = 0;
    let frames = 0;
    let first: Uint8Array | undefined;
    const bitrates = new Set<number>();
    for (let i = 0; i < count; i++) {
      const b = await next(i);
      const counter = new Mp3FrameCounter((frame, h) => {
        first ??= frame.slice(0, 4);
        bitrates.add(h.bitrateKbps);
      });
      counter.push(b);
      const summary = counter.end();
      durationS += summary.durationS;
      frames += summary.frames;
      await fh.write(b);
      bytes += b.byteLength;
    }
    await fh.close();
    if (bitrates.size > 1 && first)
      bytes = await insertIntoFile(outPath, head.length, xingFrame(first, frames, bytes - head.length));
    return { bytes, durationS, contentType: CONTENT_TYPE.mp3 };
  } catch (err) {
    await fh.close().catch(() => undefined);
    await rm(outPath, { force: true }).catch(() => undefined);
    throw err;
  }
}

/** Rewrites `path` with `bytes` inserted at `at` (streamed, not read into memory); returns the new size. */
async function insertIntoFile(path: string, at: number, bytes: Uint8Array): Promise<number> {
  const tmp = `${path}.head`;
  const out = createWriteStream(tmp);
  if (at > 0) await pipeline(createReadStream(path, { start: 0, end: at - 1 }), out, { end: false });
  out.write(bytes);
  await pipeline(createReadStream(path, { start: at }), out);
  await rename(tmp, path);
  return (await stat(path)).size;
}

/** Overwrites the first `length` bytes of `path` with `head`, which must be exactly that long. */
export async function rewriteHead(path: string, head: Uint8Array, length: number): Promise<void> {
  if (head.length !== length) throw new Error(`chapter tag changed size (${length} → ${head.length} bytes)`);
  const fh = await open(path, 'r+');
  try {
    await fh.write(head, 0, head.length, 0);
  } finally {
    await fh.close();
  }
}
