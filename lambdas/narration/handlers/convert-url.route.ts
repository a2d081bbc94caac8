// POST /convert/url: the route's spec, next to its handler (convert-url.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import { fmtField, lexiconsField, retentionField, voiceField, engineField, loudnessField } from '../requests';
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_ACCESS } from '../conversion-access';
import { dryRun, convertResponses } from '../api/doc-parts';
// The request body (validated by the handler; /api documents it).
/** Longer than any real article address; bounds what we parse and log. */
export const MAX_URL_CHARS = 2048;

export const ConvertUrlReq = z.object({
  url: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), chars(1, MAX_URL_CHARS)),
  voice: voiceField,
  fmt: fmtField,
  /** Lexicons to apply, first wins (else the account's default). Paid keys. */
  lexicons: lexiconsField,
  /** Days the audio is kept: paid keys 1..AUDIO_TTL_DAYS; the free tier's is fixed. */
  retention_days: retentionField,
  /** The voice's Polly engine (GET /voices lists each voice's): neural by default. */
  engine: engineField,
  /** Integrated loudness target (LUFS) or "off"; default -16 LUFS, true peak ≤ -1 dBTP. */
  loudness: loudnessField,
});

export const convertUrlRoute = {
  id: 'ConvertUrl',
  method: 'POST',
  path: '/convert/url',
  handler: 'lambdas/narration/handlers/convert-url.ts',
  // Fetch + readability + (short articles) inline synthesis.
  memoryMb: 1024,
  timeoutS: 29,
  // A JSON body of a 2,048-character URL with every character escaped stays far below this.
  maxBodyBytes: 16 * 1024,
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: CONVERSION_ACCESS,
  docs: {
    summary: 'Narrate a web article',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Fetches the page (http/https only; private, loopback and link-local addresses are refused at connect ' +
      'time, redirects re-checked, 5 MiB and 10 s caps), extracts the article and narrates it. Articles over ' +
      '100,000 characters are cut at a paragraph and end with a spoken note (`truncated: true`).',
    params: [dryRun],
    body: {
      schema: ConvertUrlReq,
      contentTypes: ['application/json', 'application/x-www-form-urlencoded'],
      example: { url: 'https://es.wikipedia.org/wiki/Ciudad_de_M%C3%A9xico', voice: 'es-MX-Andres' },
    },
    responses: convertResponses(' Includes `title`.'),
  },
} satisfies RouteSpec;
