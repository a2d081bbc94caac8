// The audio side of the Polly stand-in (test/helpers/polly-stand-in.ts): sentence spans, resampling, and the canned
// speech of `speech: 'canned'` cut to a request's length as whole MP3 frames or Ogg pages.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseMp3FrameHeader } from '../../lambdas/narration/audio/duration';
import { MP3_DELAY_SAMPLES } from '../../lambdas/narration/audio/encode';
import { VOICES } from '../../lambdas/narration/core/voices';
import { createSynthesizer } from '../../lambdas/narration/speech';

/** Sentences with their UTF-16 offsets (a sentence ends at . ! ? … followed by a space, or at the end). */
export function sentencesOf(text: string): { start: number; end: number }[] {
  return [...text.matchAll(/\S[\s\S]*?(?:[.!?…]+["'»)]*(?=\s|$)|$)/g)].map((m) => ({
    start: m.index,
    end: m.index + m[0].length,
  }));
}

/** Linear-interpolation resampling (a stand-in only needs the right rate and length, not studio quality). */
export function resample(samples: Int16Array, from: number, to: number): Int16Array {
  if (from === to) return samples;
  const out = new Int16Array(Math.round((samples.length * to) / from));
  for (let i = 0; i < out.length; i++) {
    const x = (i * from) / to;
    const j = Math.floor(x);
    const a = samples[j] ?? 0;
    const b = samples[j + 1] ?? a;
    out[i] = Math.round(a + (b - a) * (x - j));
  }
  return out;
}

export interface Spoken {
  samples: Int16Array;
  rate: number;
  /** Start of each sentence, in samples at `rate`. */
  sentences: { start: number; end: number; at: number; length: number }[];
}

/** Speech long enough for the longest request Polly accepts (6,000 characters), spoken once. */
export async function makeCanned(
  chars: number,
): Promise<{ samples: Int16Array; rate: number; perChar: number }> {
  const fixture = readFileSync(join(__dirname, '../fixtures/texto-2000.txt'), 'utf8').replace(/\s+/g, ' ');
  let text = '';
  while (text.length < chars) text += `${fixture} `;
  const engine = await createSynthesizer('espeak');
  const voice = VOICES.find((v) => v.id === 'es-MX-Mia') ?? VOICES[0]!;
  const parts = await Promise.all(
    sentencesOf(text).map((s) => engine.synthesize(text.slice(s.start, s.end), voice)),
  );
  const rate = parts[0]!.sampleRate;
  const samples = new Int16Array(parts.reduce((n, p) => n + p.samples.length, 0));
  let at = 0;
  for (const p of parts) {
    samples.set(p.samples, at);
    at += p.samples.length;
  }
  return { samples, rate, perChar: samples.length / text.length };
}

/** `text` "spoken" from canned speech: its length at the canned pace, sentences placed by characters. */
export function cannedSpeech(
  c: { samples: Int16Array; rate: number; perChar: number },
  text: string,
  ssml: boolean,
): Spoken {
  const total = Math.min(c.samples.length, Math.max(1, Math.round(text.length * c.perChar)));
  const spans = ssml ? [{ start: 0, end: text.length }] : sentencesOf(text);
  const at = (i: number) => Math.round((total * i) / text.length);
  return {
    samples: c.samples.subarray(0, total),
    rate: c.rate,
    sentences: spans.map((s) => ({ ...s, at: at(s.start), length: at(s.end) - at(s.start) })),
  };
}

/**
 * The frames of a CBR MP3 file (no tag) that hold its first `samples` samples, encoder delay included: a stream
 * cut at a frame boundary is a whole stream.
 */
export function cutMp3(mp3: Buffer, samples: number): Buffer {
  const h = parseMp3FrameHeader(mp3);
  if (!h) throw new Error('canned MP3 does not start with a frame');
  const frames = Math.ceil((samples + MP3_DELAY_SAMPLES) / h.samplesPerFrame);
  return mp3.subarray(0, Math.min(mp3.length, frames * h.frameBytes));
}

/** CRC-32 of Ogg pages (polynomial 0x04c11db7, not reflected, initial 0). */
const OGG_CRC = (() => {
  const t = new Uint32Array(256);
  for (let i = 0; i < 256; i++) {
    let r = i << 24;
    for (let k = 0; k < 8; k++) r = r & 0x80000000 ? (r << 1) ^ 0x04c11db7 : r << 1;
    t[i] = r >>> 0;
  }
  return t;
})();

/**
 * The first `samples` samples of a single-stream Ogg Vorbis file: its pages up to the one that reaches `samples`,
 * whose granule position becomes `samples` (Vorbis end trimming) and which is marked end of stream.
 */
export function cutOgg(ogg: Buffer, samples: number): Buffer {
  let at = 0;
  while (at + 27 <= ogg.length) {
    const segs = ogg[at + 26]!;
    let len = 27 + segs;
    for (let i = 0; i < segs; i++) len += ogg[at + 27 + i]!;
    const granule = Number(ogg.readBigInt64LE(at + 6));
    if (granule >= samples && granule > 0) {
      const out = Buffer.from(ogg.subarray(0, at + len));
      const page = out.subarray(at);
      page.writeBigInt64LE(BigInt(samples), 6);
      page[5] = page[5]! | 0x04;
      page.writeUInt32LE(0, 22);
      let crc = 0;
      for (const b of page) crc = ((crc << 8) ^ OGG_CRC[((crc >>> 24) ^ b) & 0xff]!) >>> 0;
      page.writeUInt32LE(crc, 22);
      return out;
    }
    at += len;
  }
  return ogg;
}
