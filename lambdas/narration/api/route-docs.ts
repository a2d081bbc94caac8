// What GET /api says about each route of the manifest (keyed by route id). A test fails when a manifest route has
// no entry here, so the description cannot fall behind the routes.
import type { z } from 'zod';
import { ConvertTextReq, ConvertUrlReq, DemoTryReq } from '../requests';
import {
  AudioPending,
  AudioReady,
  ConversionResult,
  ErrorDetail,
  Preview,
  QueuedConversion,
  ValidationError,
  Voice,
} from './schemas';
import { z as zod } from 'zod';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ParamDoc {
  name: string;
  in: 'query' | 'path' | 'header';
  required?: boolean;
  description: string;
  schema?: Record<string, unknown>;
}

export interface RouteDoc {
  summary: string;
  description?: string;
  tags: string[];
  params?: ParamDoc[];
  body?: { schema: z.ZodType; contentTypes: string[] };
  responses: Record<number, ResponseDoc>;
  /** Optional Bearer key (free tier without it). */
  bearer?: 'optional' | 'required';
}

const RATE_HEADERS = {
  'RateLimit-Limit': 'Requests allowed in the binding window',
  'RateLimit-Remaining': 'Requests left in it',
  'RateLimit-Reset': 'Seconds until it resets',
  'RateLimit-Policy': 'Every window, e.g. `5;w=3600, 20;w=86400`',
};

export const common = {
  422: {
    description: 'Validation failed (also malformed JSON and oversize bodies)',
    schema: ValidationError,
  },
  401: { description: 'Unknown, revoked or malformed API key', schema: ErrorDetail },
  415: { description: 'Unsupported Content-Type: send JSON or form fields', schema: ErrorDetail },
  429: {
    description: 'Free-tier limit reached (fixed UTC windows)',
    schema: ErrorDetail,
    headers: { 'Retry-After': 'Seconds until the window resets', ...RATE_HEADERS },
  },
  503: {
    description: 'A backing service is unavailable; retry (not counted against limits)',
    schema: ErrorDetail,
  },
} satisfies Record<number, ResponseDoc>;

const dryRun: ParamDoc = {
  name: 'dry_run',
  in: 'query',
  description:
    'true: preview without synthesizing or charging — the text that would be read, chapters, estimated duration.',
  schema: { type: 'boolean' },
};

const convertResponses = (extra: string): Record<number, ResponseDoc> => ({
  200: {
    description: `Audio ready (texts up to 3,000 characters). With ?dry_run=true: the preview.${extra}`,
    schema: zod.union([ConversionResult, Preview]),
    headers: RATE_HEADERS,
  },
  202: {
    description: 'Longer texts: queued. Poll GET /audio/{audio_id} (Location header).',
    schema: QueuedConversion,
    headers: { Location: 'The audio_url', 'Retry-After': 'Suggested polling interval', ...RATE_HEADERS },
  },
  ...common,
});

export const ROUTE_DOCS: Record<string, RouteDoc> = {
  Voices: {
    summary: 'List voices',
    tags: ['narration'],
    description: 'Spanish voices for Mexico (es-MX) and Spain (es-ES). Every plan may use every voice.',
    responses: { 200: { description: 'Voices', schema: zod.array(Voice) } },
  },
  ConvertText: {
    summary: 'Narrate text',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Text of 1–100,000 characters (JSON or form fields). Spanish reading rules (dates, money, ordinals, ' +
      "abbreviations, phone numbers, RFC/CURP…) are applied for the voice's country. Default voice es-MX-Mia, " +
      'default format mp3.',
    params: [dryRun],
    body: { schema: ConvertTextReq, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: convertResponses(''),
  },
  ConvertUrl: {
    summary: 'Narrate a web article',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Fetches the page (http/https only; private, loopback and link-local addresses are refused at connect ' +
      'time, redirects re-checked, 5 MiB and 10 s caps), extracts the article and narrates it. Articles over ' +
      '100,000 characters are cut at a paragraph and end with a spoken note (`truncated: true`).',
    params: [dryRun],
    body: { schema: ConvertUrlReq, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: convertResponses(' Includes `title`.'),
  },
  DemoTry: {
    summary: 'Anonymous demo',
    tags: ['narration'],
    description:
      'Up to 500 characters, MP3 only, its own per-IP limit (10 per hour, 30 per day, fixed UTC windows) separate ' +
      'from the conversion allowance; demo audio expires after 1 day.',
    body: { schema: DemoTryReq, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: {
      200: { description: 'Audio ready', schema: ConversionResult, headers: RATE_HEADERS },
      ...common,
    },
  },
  GetAudio: {
    summary: 'Fetch audio',
    tags: ['narration'],
    description:
      'Also reachable as /audio/<id>.mp3 (the audio_url). Ready: 302 to a presigned URL valid 5 minutes. ' +
      'Send `Accept: application/json` to get the result (with duration_s and the URL) instead of the redirect.',
    params: [
      {
        name: 'audio_id',
        in: 'path',
        required: true,
        description: 'audio_id, optionally with .mp3/.wav/.ogg',
      },
    ],
    responses: {
      200: { description: 'With Accept: application/json, when ready', schema: AudioReady },
      202: {
        description: 'Still queued or processing',
        schema: AudioPending,
        headers: { 'Retry-After': 'Seconds before polling again' },
      },
      302: { description: 'Ready: redirect to the audio file', headers: { Location: 'Presigned URL' } },
      404: { description: 'Unknown or expired (audio is kept 30 days, demos 1 day)', schema: ErrorDetail },
      409: { description: 'The conversion failed; the body says why. Submit again.', schema: ErrorDetail },
      422: common[422],
    },
  },
  Api: {
    summary: 'This description',
    tags: ['meta'],
    description:
      'OpenAPI 3.1 as JSON for `?format=json` or `Accept: application/json`; a readable HTML page otherwise.',
    params: [
      {
        name: 'format',
        in: 'query',
        description: '`json` for the OpenAPI document',
        schema: { enum: ['json', 'html'] },
      },
    ],
    responses: { 200: { description: 'OpenAPI document or HTML page' } },
  },
  NotFound: {
    summary: 'Anything else',
    tags: ['meta'],
    description:
      '404 `{"detail": "Not Found"}`; 405 with `Allow` for a known path and another method; 204 for CORS preflights.',
    responses: { 404: { description: 'Not Found', schema: ErrorDetail } },
  },
};
