// POST /convert/text: the route's spec, next to its handler (convert-text.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import {
  MAX_TEXT_CHARS,
  engineField,
  fmtField,
  loudnessField,
  lexiconsField,
  retentionField,
  textTypeField,
  voiceField,
} from '../requests';
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_ACCESS } from '../conversion-access';
import { dryRun, convertResponses } from '../api/doc-parts';

const MiB = 1024 * 1024;
// The request body (validated by the handler; /api documents it).
export const ConvertTextReq = z.object({
  text: chars(1, MAX_TEXT_CHARS),
  voice: voiceField,
  fmt: fmtField,
  /** "ssml": `text` is the SSML subset of core/ssml.ts. */
  text_type: textTypeField,
  /** Lexicons to apply, first wins (else the account's default). Paid keys. */
  lexicons: lexiconsField,
  /** Days the audio is kept: paid keys 1..AUDIO_TTL_DAYS; the free tier's is fixed. */
  retention_days: retentionField,
  /** The voice's Polly engine (GET /voices lists each voice's): neural by default. */
  engine: engineField,
  /** Integrated loudness target (LUFS) or "off"; default -16 LUFS, true peak ≤ -1 dBTP. */
  loudness: loudnessField,
});

export const convertTextRoute = {
  id: 'ConvertText',
  method: 'POST',
  path: '/convert/text',
  handler: 'lambdas/narration/handlers/convert-text.ts',
  // Short texts are synthesized inline: memory buys CPU for the encoder.
  memoryMb: 1024,
  timeoutS: 29,
  // 100,000 characters escaped as JSON \u sequences or %XX form fields stay under 2 MiB.
  maxBodyBytes: 2 * MiB,
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: CONVERSION_ACCESS,
  docs: {
    summary: 'Narrate text',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Text of 1–100,000 characters (JSON or form fields). Spanish reading rules (dates, money, ordinals, ' +
      "abbreviations, phone numbers, RFC/CURP…) are applied for the voice's country, then the caller's " +
      'pronunciation lexicons (`lexicons`, else the account default; paid keys). Default voice es-MX-Mia, ' +
      'default format mp3. `text_type: "ssml"`: `text` is SSML, this subset: `<speak>` (root), `<p>`, `<s>`, ' +
      '`<break time="2s"/>` (≤ 10 s, or strength; all pauses together ≤ 60 s on the free tier, ≤ 1,800 s on paid ' +
      'plans, else 422; they count in `estimated_duration_s`: a narration lasts at most its text plus those), `<say-as interpret-as="characters|digits|date|telephone">` ' +
      '(date: format dmy|mdy|ymd), `<sub alias="…">`, `<emphasis level>` (dropped with a warning where the ' +
      'engine lacks it: Polly neural voices), `<lang xml:lang="en-US">`. Parsed as strict XML without any DTD: a ' +
      'DOCTYPE, an undefined entity, an unknown element or attribute, or a misplaced element is a 422 naming the ' +
      "line and column. `chars` counts the text content (as Polly bills). `engine`: one of the voice's Polly " +
      'engines (GET /voices: neural, generative, long-form), default its first. `loudness`: the audio is ' +
      "brought to -16 LUFS integrated with a true peak ≤ -1 dBTP (EBU R128; podcast platforms' spec), or to " +
      'another target in LUFS, or left at the engine\'s level with "off". MP3 narrations carry the text\'s ' +
      'headings as ID3v2 chapters (CHAP/CTOC).',
    params: [
      dryRun,
      {
        name: 'Prefer',
        in: 'header',
        description:
          '`respond-async` (RFC 7240): a text longer than 3,000 characters is answered 202 as soon as it is queued ' +
          '(with `Preference-Applied: respond-async`) instead of after the wait window, so a player can start on ' +
          'its segments (GET /audio/{audio_id}/stream.m3u8) while the rest is made. Shorter texts are narrated in ' +
          'the request either way.',
        schema: { type: 'string', examples: ['respond-async'] },
      },
    ],
    body: {
      schema: ConvertTextReq,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      example: {
        text: 'Hola. El Sr. Pérez llega a la Col. Roma el 15/03/2025 a las 10:30 h con $1,250.50 para el pago.',
        voice: 'es-MX-Mia',
        fmt: 'mp3',
      },
    },
    responses: convertResponses(''),
  },
} satisfies RouteSpec;
