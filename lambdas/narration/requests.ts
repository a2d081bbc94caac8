// What the narration request bodies share: the voice and format fields, the text limit, and the checks the convert
// handlers run after validation. Each body's schema is in its route spec (handlers/<name>.route.ts).
import { z } from 'zod';
import { invalid } from '../shared/http/errors';
import { FORMATS } from './core/formats';
import { DEFAULT_VOICE_ID, VOICES, findVoice, type Voice } from './core/voices';

export const MAX_TEXT_CHARS = 100_000;

/** The contract's "at most 20 MB" PDF, read generously as MiB (what file managers show as "20 MB"). */
export const MAX_PDF_BYTES = 20 * 1024 * 1024;
export const MAX_PDF_LABEL = '20 MB';

/** An upload slot's id (POST /convert/pdf/upload): upl_ + 128 random bits, base64url. */
export const UPLOAD_ID_PATTERN = /^upl_[A-Za-z0-9_-]{22}$/;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** Shared by the three convert endpoints. */
export const voiceField = z.preprocess(emptyToUndefined, z.string().max(64).optional());
/** Days the conversion is kept (plan limits: use-cases/data-control.ts retentionDays). */
export const retentionField = z.preprocess(
  emptyToUndefined,
  z.coerce.number().int().min(1).max(365).optional(),
);
export const fmtField = z.preprocess((v) => lower(emptyToUndefined(v)), z.enum(FORMATS).default('mp3'));

/** Refuses texts a voice cannot read (only spaces, punctuation or symbols) before anything is charged. */
export function assertSpeakable(text: string, loc: (string | number)[] = ['body', 'text']): void {
  if (!/[\p{L}\p{N}]/u.test(text))
    throw invalid(loc, 'Text has nothing to read aloud: it contains no letters or digits', 'value_error');
}

export function resolveVoice(id: string | undefined): Voice {
  const voice = findVoice(id ?? DEFAULT_VOICE_ID);
  if (!voice)
    throw invalid(
      ['body', 'voice'],
      `Unknown voice '${id}'. Use one of: ${VOICES.map((v) => v.id).join(', ')} (see GET /voices).`,
      'value_error',
    );
  return voice;
}
