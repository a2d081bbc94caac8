// Response shapes for the API description (GET /api). Requests come from ../requests.ts, the same schemas the
// handlers validate with.
import { z } from 'zod';

export const Voice = z.object({
  id: z.string().meta({ example: 'es-MX-Mia' }),
  name: z.string().meta({ example: 'Mia (Mexico)' }),
  lang: z.enum(['es-MX', 'es-ES']),
  gender: z.enum(['female', 'male']),
});

export const ConversionResult = z.object({
  audio_id: z.string(),
  audio_url: z.string().meta({ description: 'Relative path /audio/<audio_id>.<fmt>' }),
  duration_s: z.number().meta({ description: 'Exact duration of the audio file, in seconds (3 decimals)' }),
  voice: z.string(),
  chars: z.int().meta({ description: "Characters of the caller's text (code points)" }),
  title: z.string().optional().meta({ description: 'URL conversions: the article title' }),
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
  spoken_text: z
    .string()
    .meta({ description: 'After the Spanish reading rules (dates, money, abbreviations…)' }),
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
