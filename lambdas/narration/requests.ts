// What the narration request bodies share: the voice and format fields, the text limit, and the checks the convert
// handlers run after validation. Each body's schema is in its route spec (handlers/<name>.route.ts).
import { z } from 'zod';
import { invalid } from '../shared/errors';
import { FORMATS } from './core/formats';
import { LEXICON_LIMITS, LEXICON_NAME } from './core/lexicon';
import { LOUDNESS_RANGE } from './audio/loudness';
import {
  DEFAULT_VOICE_ID,
  ENGINES,
  VOICES,
  findVoice,
  withEngine,
  type Engine,
  type Voice,
} from './core/voices';

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

/** A lexicon's name (path parameter of /v1/lexicons/{name}, items of `lexicons`). */
export const LexiconName = z
  .string()
  .regex(LEXICON_NAME, 'A name is 1-64 letters, digits, "-" or "_", starting with a letter or digit');

/** `lexicons` on the convert endpoints: names in precedence order; a form field may list them comma-separated. */
export const lexiconsField = z.preprocess(
  (v) =>
    typeof v === 'string'
      ? v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean)
      : emptyToUndefined(v),
  z.array(LexiconName).max(LEXICON_LIMITS.perRequest).optional(),
);

/** `text_type` on /convert/text: plain text (default) or the SSML subset of core/ssml.ts. */
export const textTypeField = z.preprocess(
  (v) => lower(emptyToUndefined(v)),
  z.enum(['text', 'ssml']).default('text'),
);

/** `engine` on the convert endpoints: which of the voice's Polly engines reads it (GET /voices lists them). */
export const engineField = z.preprocess((v) => lower(emptyToUndefined(v)), z.enum(ENGINES).optional());

/**
 * `loudness` on the convert endpoints: the integrated loudness (LUFS) the narration is brought to, or "off" for
 * the engine's own level. Default −16 LUFS with a true peak ≤ −1 dBTP (EBU R128, podcast platforms' delivery spec).
 */
export const loudnessField = z.preprocess(
  (v) => lower(emptyToUndefined(v)),
  z
    .union([z.literal('off'), z.coerce.number().min(LOUDNESS_RANGE.min).max(LOUDNESS_RANGE.max)])
    .optional()
    .meta({
      description: `Integrated loudness target in LUFS (${LOUDNESS_RANGE.min}..${LOUDNESS_RANGE.max}, default -16, true peak ≤ -1 dBTP) or "off"`,
    }),
);

/** Refuses texts a voice cannot read (only spaces, punctuation or symbols) before anything is charged. */
export function assertSpeakable(text: string, loc: (string | number)[] = ['body', 'text']): void {
  if (!/[\p{L}\p{N}]/u.test(text))
    throw invalid(loc, 'Text has nothing to read aloud: it contains no letters or digits', 'value_error');
}

export function resolveVoice(id: string | undefined, engine?: Engine): Voice {
  const voice = findVoice(id ?? DEFAULT_VOICE_ID);
  if (!voice)
    throw invalid(
      ['body', 'voice'],
      `Unknown voice '${id}'. Use one of: ${VOICES.map((v) => v.id).join(', ')} (see GET /voices).`,
      'value_error',
    );
  const read = withEngine(voice, engine);
  if (!read)
    throw invalid(
      ['body', 'engine'],
      `The voice ${voice.id} has no ${engine} engine. Its engines: ${voice.engines.join(', ')} (see GET /voices).`,
      'value_error',
    );
  return read;
}
