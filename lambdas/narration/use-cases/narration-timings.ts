// A narration's timings: where each sentence, word and chapter starts in the file (narrate() collects the starts
// chunk by chunk; these turn them into the spans the API returns, in the caller's text).
import type { Id3Chapter } from '../audio/id3-chapters';
import { countChars } from '../core/preview';
import { spokenToSource, type PlannedChunk } from '../core/reading';
import type { SpeechMark, TimedSpan, Timings } from '../ports';

export function round3(s: number): number {
  return Math.round(s * 1000) / 1000;
}

/** Chapter k of the file: from its start to the next one's (the last ends with the audio). */
export function chapterAt(
  title: string,
  times: { start_s: number }[],
  k: number,
  durationS: number,
): Id3Chapter {
  const start = times[k]?.start_s ?? 0;
  const end = times[k + 1]?.start_s ?? durationS;
  return { title, startMs: start * 1000, endMs: Math.max(start, end) * 1000 };
}

export function partAt(chunk: PlannedChunk, offset: number) {
  return chunk.parts.find((p) => offset >= p.at && offset < p.at + p.length);
}

/** Part starts from the engine's sentence marks (a part without one keeps the estimate between its neighbours). */
export function startsFromMarks(chunk: PlannedChunk, marks: SpeechMark[]): number[] {
  const sentenceMarks = marks.filter((m) => m.type === 'sentence' || m.type === 'word');
  return chunk.parts.map((p, k) => {
    if (k === 0) return 0;
    const m = sentenceMarks.find((x) => x.start >= p.at && x.start < p.at + p.length);
    return m ? m.time_s : Number.NaN;
  });
}

const mappers = new WeakMap<object, (a: number, b: number) => [number, number]>();

export function sourceMapper(text: string, s: { start: number; end: number; spoken: string }) {
  let f = mappers.get(s);
  if (!f) {
    const inner = spokenToSource(text.slice(s.start, s.end), s.spoken);
    f = (a, b) => {
      const [x, y] = inner(a, b);
      return [s.start + x, s.start + y];
    };
    mappers.set(s, f);
  }
  return f;
}

export function buildTimings(
  text: string,
  sentences: { start: number; end: number }[],
  starts: number[],
  words: TimedSpan[],
  durationS: number,
  headings: { text: string; offset: number }[],
): Timings {
  // A sentence ends where the next one starts (its pause included): the highlight never goes dark mid-audio.
  const fixed = fillGaps(starts, durationS);
  const timed: TimedSpan[] = sentences.map((s, i) => ({
    start_s: fixed[i]!,
    end_s: i + 1 < sentences.length ? fixed[i + 1]! : round3(durationS),
    start: s.start,
    end: s.end,
  }));
  words.forEach((w, i) => (w.end_s = words[i + 1]?.start_s ?? round3(durationS)));
  for (let i = 0; i < words.length; i++) {
    const s = timed.find((t) => t.start_s <= words[i]!.start_s && words[i]!.start_s < t.end_s);
    if (s && words[i]!.end_s > s.end_s) words[i]!.end_s = s.end_s;
  }
  // Chapters: the heading's offset (code points) → the sentence that contains it → its start.
  const chapters = headings.map((h) => {
    const u16 = utf16Offset(text, h.offset);
    const s = timed.find((t) => t.end > u16) ?? timed[timed.length - 1];
    return { title: h.text, offset: h.offset, start_s: s ? s.start_s : 0 };
  });
  return { sentences: timed, words, chapters };
}

function fillGaps(starts: number[], durationS: number): number[] {
  const out = [...starts];
  for (let i = 0; i < out.length; i++) {
    if (!Number.isNaN(out[i])) continue;
    out[i] = i === 0 ? 0 : out[i - 1]!;
  }
  for (let i = 1; i < out.length; i++) out[i] = Math.min(Math.max(out[i]!, out[i - 1]!), durationS);
  return out;
}

export function utf16Offset(text: string, codePoints: number): number {
  if (countChars(text) === text.length) return codePoints;
  let cp = 0;
  let i = 0;
  while (i < text.length && cp < codePoints) {
    i += (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
    cp++;
  }
  return i;
}
