// Response shapes for the API description (GET /api). Requests come from ../requests.ts, the same schemas the
// handlers validate with.
import { z } from 'zod';

export const Voice = z.object({
  id: z.string().meta({ example: 'es-MX-Mia' }),
  name: z.string().meta({ example: 'Mia (Mexico)' }),
  lang: z.enum(['es-MX', 'es-ES']),
  gender: z.enum(['female', 'male']),
  engines: z
    .array(z.enum(['neural', 'generative', 'long-form']))
    .meta({ description: 'Polly engines of this voice (request field `engine`), the default first' }),
  default_engine: z.enum(['neural', 'generative', 'long-form']),
});

/** Present only when there is something to say (lexicons applied, markup the engine ignores). */
const speechExtras = {
  lexicons: z
    .array(z.string())
    .optional()
    .meta({ description: 'Lexicons applied, in precedence order (named in the request, else the default)' }),
  warnings: z.array(z.string()).optional().meta({
    description: 'What the engine will not do, e.g. <emphasis> on neural voices (the words are read plainly)',
  }),
};

export const ConversionResult = z.object({
  audio_id: z.string(),
  audio_url: z.string().meta({ description: 'Relative path /audio/<audio_id>.<fmt>' }),
  duration_s: z.number().meta({ description: 'Exact duration of the audio file, in seconds (3 decimals)' }),
  voice: z.string(),
  chars: z.int().meta({
    description:
      "Characters of the caller's text (code points); SSML: of its text content, tags and attributes not counted (as Polly bills)",
  }),
  title: z.string().optional().meta({ description: 'URL conversions: the article title' }),
  reused: z.literal(true).optional().meta({
    description:
      'An identical earlier request of the same caller answered this one: its audio, nothing narrated or charged (docs/reuse.md)',
  }),
  ...speechExtras,
  chapters: z
    .array(z.object({ title: z.string(), offset: z.int(), start_s: z.number() }))
    .optional()
    .meta({
      description: 'Headings found in the text, with their offset (code points) and real start in the audio',
    }),
});

const TimedSpan = z.object({
  start_s: z.number(),
  end_s: z.number(),
  start: z.int().meta({ description: "UTF-16 offset into the caller's text" }),
  end: z.int().meta({ description: 'Exclusive' }),
});

export const Timings = z.object({
  audio_id: z.string(),
  status: z.literal('done'),
  duration_s: z.number(),
  sentences: z.array(TimedSpan),
  words: z.array(TimedSpan).meta({ description: 'Empty when the engine gives no word marks' }),
  chapters: z.array(z.object({ title: z.string(), offset: z.int(), start_s: z.number() })),
});

export const QueuedConversion = ConversionResult.extend({
  duration_s: z.null().meta({ description: 'null until the audio exists' }),
  estimated_duration_s: z.int(),
  status: z.enum(['queued', 'processing']),
  progress: z.number().min(0).max(1),
});

export const AudioPending = z.object({
  audio_id: z.string(),
  audio_url: z.string(),
  status: z.enum(['queued', 'processing']),
  progress: z.number().min(0).max(1),
  voice: z.string(),
  chars: z.int(),
  title: z.string().optional().meta({ description: 'URL conversions: the article title' }),
});

export const AudioReady = ConversionResult.extend({
  status: z.literal('done'),
  progress: z.literal(1),
  url: z.string().meta({ description: 'Presigned download URL' }),
  expires_in_s: z.int(),
});

export const Preview = z.object({
  dry_run: z.literal(true),
  voice: z.string(),
  fmt: z.enum(['mp3', 'wav', 'ogg']),
  chars: z.int(),
  title: z.string().optional(),
  estimated_duration_s: z.int(),
  delivery: z.enum(['sync', 'queued']),
  chapters: z.array(z.object({ title: z.string(), offset: z.int(), start_s: z.int() })),
  text: z.string().meta({ description: 'The text that would be read (after PDF/article clean-up)' }),
  spoken_text: z.string().meta({
    description:
      'After the Spanish reading rules (dates, money, abbreviations…), then the lexicons (aliases); SSML: its words, pauses as spaces',
  }),
  ...speechExtras,
});

const LexiconEntryOut = z.object({
  grapheme: z.string(),
  alias: z.string().optional(),
  phoneme: z.string().optional(),
  match_case: z.boolean().optional(),
});

export const Lexicon = z.object({
  name: z.string(),
  language: z.enum(['es-MX', 'es-ES', '*']),
  default: z.boolean(),
  entries: z.array(LexiconEntryOut),
  updated_at: z.string().meta({ description: 'ISO 8601' }),
});

export const LexiconList = z.object({
  lexicons: z.array(
    z.object({
      name: z.string(),
      language: z.enum(['es-MX', 'es-ES', '*']),
      default: z.boolean(),
      entries: z.int().meta({ description: 'Number of entries' }),
      bytes: z.int().meta({ description: 'Size of the entries as JSON (limit 40,000)' }),
      updated_at: z.string(),
    }),
  ),
  limits: z
    .record(z.string(), z.int())
    .meta({ description: 'The limits that apply (lexicons, entries, sizes)' }),
});

export const UploadSlot = z.object({
  upload_id: z.string().meta({ example: 'upl_q3Jv0mXk2c1m9yVbQeLr7A' }),
  upload: z.object({
    method: z.literal('POST'),
    url: z.string().meta({ description: 'The S3 bucket URL to POST the form to' }),
    fields: z.record(z.string(), z.string()).meta({
      description: 'Form fields to send unchanged, before the file (key, Content-Type, Policy, X-Amz-*)',
    }),
    file_field: z.literal('file').meta({ description: 'The form field carrying the PDF, sent last' }),
  }),
  max_bytes: z.int().meta({ description: 'Largest file S3 accepts for this slot (20 MiB)' }),
  content_type: z.literal('application/pdf'),
  upload_expires_at: z.string().meta({ description: 'The form works until then (15 minutes)' }),
  convert_by: z.string().meta({ description: 'The upload_id converts until then (1 hour); later: 410' }),
  convert: z.object({
    method: z.literal('POST'),
    path: z.literal('/convert/pdf'),
    body: z.object({ upload_id: z.string() }),
  }),
});

export const ValidationError = z.object({
  detail: z.array(
    z.object({
      loc: z.array(z.union([z.string(), z.int()])),
      msg: z.string(),
      type: z.string(),
    }),
  ),
});

export { ErrorDetail } from '../../shared/http/openapi';
