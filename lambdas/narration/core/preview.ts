// Preview before paying (`?dry_run=true` on the convert endpoints): what would be read, how long, and where the
// chapters start — without synthesizing, charging the free tier or storing anything.
import type { AudioFormat } from './formats';
import { normalizeForSpeech } from './normalize';
import type { Voice } from './voices';

/** Spanish narration runs at roughly 15 characters per second: used only for estimates. */
export const CHARS_PER_SECOND = 15;

export function countChars(text: string): number {
  return [...text].length;
}

export interface Chapter {
  title: string;
  /** Where the chapter starts in `text`, in characters. */
  offset: number;
  /** Estimated start in the audio. */
  start_s: number;
}

export interface PreviewInput {
  text: string;
  voice: Voice;
  fmt: AudioFormat;
  syncMaxChars: number;
  title?: string;
  /** Headings found by the input's parser (article headings, PDF outline). Plain text: detected here. */
  headings?: { text: string; offset: number }[];
  /** What is spoken when not the reading rules on `text` alone (SSML, lexicons: use-cases/speech-request.ts). */
  spoken?: string;
  /** Billed characters when not the text's length (SSML). */
  chars?: number;
  /** Seconds of <break> silence (core/breaks.ts): part of the audio's length. */
  pauseS?: number;
}

const HEADING_WORDS =
  /^(cap[ií]tulo|parte|secci[oó]n|libro|tomo|pr[oó]logo|ep[ií]logo|introducci[oó]n|conclusi[oó]n)\b/i;

/** Short standalone paragraphs that read like titles: no sentence punctuation at the end, starting uppercase. */
export function detectHeadings(text: string): { text: string; offset: number }[] {
  const out: { text: string; offset: number }[] = [];
  let offset = 0;
  for (const part of text.split(/(\n[ \t]*\n)/)) {
    const line = part.trim();
    const isSeparator = /^\n[ \t]*\n$/.test(part);
    if (!isSeparator && line && !line.includes('\n')) {
      const n = countChars(line);
      const titleLike = n <= 80 && /^[\p{Lu}\d¿¡"«]/u.test(line) && !/[.,;:…]$/.test(line);
      if (HEADING_WORDS.test(line) || (titleLike && n >= 3 && text.length > 2000)) {
        out.push({ text: line, offset: offset + countChars(part.slice(0, part.indexOf(line))) });
      }
    }
    offset += countChars(part);
  }
  return out;
}

export function previewConversion(input: PreviewInput) {
  const chars = input.chars ?? countChars(input.text);
  const spoken = input.spoken ?? normalizeForSpeech(input.text, input.voice.lang);
  const spokenChars = countChars(spoken);
  // Chapter starts are estimated proportionally: normalisation lengthens text roughly evenly.
  const scale = chars ? spokenChars / chars : 1;
  const seconds = (offset: number) => Math.round((offset * scale) / CHARS_PER_SECOND);
  const chapters: Chapter[] = (input.headings ?? detectHeadings(input.text)).map((h) => ({
    title: h.text,
    offset: h.offset,
    start_s: seconds(h.offset),
  }));
  return {
    dry_run: true,
    voice: input.voice.id,
    fmt: input.fmt,
    chars,
    ...(input.title !== undefined ? { title: input.title } : {}),
    estimated_duration_s: Math.round((chars * scale) / CHARS_PER_SECOND + (input.pauseS ?? 0)),
    /** What the request would do: narrate inside the request (200) or queue (202). */
    delivery: chars <= input.syncMaxChars ? 'sync' : 'queued',
    chapters,
    text: input.text,
    spoken_text: spoken,
  };
}

/** `?dry_run=true|1|yes`. */
export function isDryRun(query: Record<string, string>): boolean {
  return /^(1|true|yes)$/i.test(query['dry_run'] ?? '');
}
