// Request bodies of the narration endpoints: the zod schemas the handlers validate with and GET /api documents.
// Kept apart from the handlers so the API description does not pull every handler's code into its bundle.
import { z } from 'zod';
import { invalid } from '../shared/http/errors';
import { chars } from '../shared/http/validation';
import { FORMATS } from './core/formats';
import { DEFAULT_VOICE_ID, VOICES, findVoice, type Voice } from './core/voices';

export const MAX_TEXT_CHARS = 100_000;

const emptyToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);
const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : v);

/** Shared by the three convert endpoints. */
export const voiceField = z.preprocess(emptyToUndefined, z.string().max(64).optional());
export const fmtField = z.preprocess((v) => lower(emptyToUndefined(v)), z.enum(FORMATS).default('mp3'));

export const ConvertTextReq = z.object({
  text: chars(1, MAX_TEXT_CHARS),
  voice: voiceField,
  fmt: fmtField,
});

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

/** Longer than any real article address; bounds what we parse and log. */
export const MAX_URL_CHARS = 2048;

export const ConvertUrlReq = z.object({
  url: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), chars(1, MAX_URL_CHARS)),
  voice: voiceField,
  fmt: fmtField,
});

export const DEMO_MAX_CHARS = 500;

const lowerOrUndefined = (v: unknown) =>
  v === '' || v === null ? undefined : typeof v === 'string' ? v.trim().toLowerCase() : v;

export const DemoTryReq = z.object({
  text: chars(1, DEMO_MAX_CHARS),
  voice: voiceField,
  fmt: z.preprocess(lowerOrUndefined, z.string().optional()),
});
