// "Nothing narrated twice": the fingerprint of a conversion request. Two requests with the same fingerprint would
// produce the same audio, so the second one is answered with the first one's (use-cases/reuse-earlier.ts). Pure.
//
// What goes in: who asks (the audio's owner: an account, or the hashed client address), the text after the
// normalisation below, the voice (the Polly voice) and the voice's engine asked for (neural, generative, long-form:
// another voice altogether), the format, the speech engine deployed (polly / espeak), the loudness target (another
// level, or "off", is other audio), the SSML flag and the lexicon entries applied (their content: an edited lexicon
// is a new version, so a new fingerprint), the title and chapter headings (part of the answer and the timings) and
// the retention asked for. Nothing else changes the audio. v2: v1 keys were made before loudness existed, so audio
// made under them (at the engine's level) answers no request now.
import { createHash } from 'node:crypto';
import type { SpeechOptions } from './speech';

/**
 * The text as compared: Unicode NFC (the same letters typed composed or decomposed sound the same) without trailing
 * whitespace. Nothing that moves the text's offsets is changed, so the reused timings still point into the text.
 */
export function normalizeForReuse(text: string): string {
  return text.normalize('NFC').trimEnd();
}

export interface ReuseKeyInput {
  owner: string;
  text: string;
  voice: string;
  fmt: string;
  engine: string;
  /** The voice's Polly engine this narration uses (core/voices.ts withEngine), e.g. `neural`. */
  voiceEngine: string;
  /** The loudness target, LUFS, or 'off' (the caller passes the default when the request names none). */
  loudness: number | 'off';
  speech?: SpeechOptions | undefined;
  title?: string | undefined;
  headings?: { text: string; offset: number }[] | undefined;
  retentionDays: number;
}

/** A hex SHA-256 over the fields above (in a fixed order, so the key is stable across deployments). */
export function reuseKey(input: ReuseKeyInput): string {
  const parts = [
    'v2',
    input.owner,
    input.engine,
    input.voice,
    input.voiceEngine,
    input.fmt,
    String(input.loudness),
    String(input.retentionDays),
    input.speech?.textType ?? 'text',
    JSON.stringify(input.speech?.lexicon ?? []),
    input.title ?? '',
    JSON.stringify((input.headings ?? []).map((h) => [h.text, h.offset])),
    normalizeForReuse(input.text),
  ];
  return createHash('sha256').update(parts.join('\u0000')).digest('hex');
}

/**
 * May an earlier audio still answer a new request? While it has at least half of its retention left: a request
 * made late in an audio's life gets a fresh one (that lives its full retention) rather than one about to expire.
 */
export function stillReusable(record: { expiresAt: number; createdAt: string }, now: Date): boolean {
  const lifeS = record.expiresAt - Date.parse(record.createdAt) / 1000;
  return record.expiresAt - now.getTime() / 1000 >= lifeS / 2;
}
