// What GET /api says about each route of the manifest (keyed by route id). A test fails when a manifest route has
// no entry here, so the description cannot fall behind the routes.
import { ConvertTextReq } from '../handlers/convert-text.route';
import { ConvertUrlReq } from '../handlers/convert-url.route';
import { DemoTryReq } from '../handlers/demo-try.route';
import { ConvertPdfFields, ConvertPdfUploadReq, MAX_DIRECT_BODY_BYTES } from '../handlers/convert-pdf.route';
import { PutLexiconReq } from '../handlers/lexicons.route';
import {
  Lexicon,
  LexiconList,
  AudioPending,
  AudioReady,
  ConversionResult,
  ErrorDetail,
  Preview,
  QueuedConversion,
  Timings,
  UploadSlot,
  ValidationError,
  Voice,
} from './schemas';
import { z as zod } from 'zod';
import { HOOKS_ROUTE_DOCS } from './webhooks-doc';
import { META_ROUTE_DOCS, type ParamDoc, type ResponseDoc, type RouteDoc } from '../../shared/http/openapi';
import { AbEventReq } from '../handlers/ab-event.route';
import { WaitlistReq } from '../handlers/waitlist.route';
import { catalogueSchemas, PortalResponse } from '../../shared/billing/requests';
import { NARRATION_BILLING } from '../billing';

const { CheckoutResponse, SuccessResponse, RotateResponse } = catalogueSchemas(NARRATION_BILLING);

// The route-doc types are the shared builder's (lambdas/shared/http/openapi.ts); re-exported for this service's code.
export type { ParamDoc, ResponseDoc, RouteDoc };

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

const lexiconName: ParamDoc = {
  name: 'name',
  in: 'path',
  description: 'Lexicon name: 1-64 letters, digits, "-" or "_"',
  schema: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$' },
};

const convertResponses = (extra: string): Record<number, ResponseDoc> => ({
  200: {
    description:
      'Audio ready, with its exact duration_s (and `chapters` with their real start times when the text has ' +
      'headings). Texts up to 3,000 characters are narrated in the request; longer ones go to the queue and the ' +
      'request waits for them up to 25 s (split across parallel synthesis, most texts are ready in time).' +
      ` With ?dry_run=true: the preview.${extra}`,
    schema: zod.union([ConversionResult, Preview]),
    headers: RATE_HEADERS,
  },
  202: {
    description:
      'Not ready within the 25 s wait window: queued or processing. Fetch the audio_url (Location header): ' +
      'an audio request is held until the audio exists; JSON clients poll GET /audio/{audio_id}.',
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
      "abbreviations, phone numbers, RFC/CURP…) are applied for the voice's country, then the caller's " +
      'pronunciation lexicons (`lexicons`, else the account default; paid keys). Default voice es-MX-Mia, ' +
      'default format mp3. `text_type: "ssml"`: `text` is SSML, this subset: `<speak>` (root), `<p>`, `<s>`, ' +
      '`<break time="2s"/>` (≤ 10 s, or strength), `<say-as interpret-as="characters|digits|date|telephone">` ' +
      '(date: format dmy|mdy|ymd), `<sub alias="…">`, `<emphasis level>` (dropped with a warning where the ' +
      'engine lacks it: Polly neural voices), `<lang xml:lang="en-US">`. Parsed as strict XML without any DTD: a ' +
      'DOCTYPE, an undefined entity, an unknown element or attribute, or a misplaced element is a 422 naming the ' +
      'line and column. `chars` counts the text content (as Polly bills).',
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
  ConvertPdf: {
    summary: 'Narrate a PDF',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Either multipart/form-data with `file` (a PDF of at most 20 MB), optional `voice`, `fmt`, `lexicons` ' +
      '(names, comma-separated in a form field) and `retention_days`; or, for PDFs ' +
      `too large for one request (a body over ${MAX_DIRECT_BODY_BYTES} bytes, about 4.5 MB, is answered 413 ` +
      'naming this path: API Gateway and Lambda cap what one request carries in AWS), JSON or form fields ' +
      '`{"upload_id", "voice"?, "fmt"?, "lexicons"?, "retention_days"?}` after POST /convert/pdf/upload and ' +
      'sending the file to S3 with its form. `lexicons` and `retention_days` work as on /convert/text (paid keys; ' +
      'the dry run shows `spoken_text` with the lexicons applied). ' +
      'An upload_id converts once (409 after), only for the caller that asked for it (same API key or, free tier, ' +
      'same IP address; else 403), within an hour (410 after); unknown ids 404, nothing uploaded yet 409. ' +
      'Running headers, footers and page numbers are dropped, hyphenated line breaks joined, columns read in ' +
      'order. Refused with 422 and the reason (at `body.file` or `body.upload_id`): not a PDF, password-protected, ' +
      'no extractable text (scanned: run OCR first), damaged beyond repair, over 20 MB, or over 100,000 ' +
      'characters of text (split the document). Only PDFs that yield text are charged, once per conversion; ' +
      '?dry_run=true does not use up an upload_id.',
    params: [dryRun],
    body: {
      schema: zod.union([
        ConvertPdfFields.extend({
          file: zod.string().meta({ format: 'binary', description: 'The PDF, at most 20 MB' }),
        }),
        ConvertPdfUploadReq,
      ]),
      contentTypes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
    },
    responses: {
      ...convertResponses(''),
      403: { description: "upload_id: another caller's (other API key or IP address)", schema: ErrorDetail },
      404: { description: 'upload_id: unknown (never issued, or older than a day)', schema: ErrorDetail },
      409: {
        description: 'upload_id: already converted (the body names its audio_id), or nothing uploaded yet',
        schema: ErrorDetail.extend({ audio_id: zod.string().optional() }),
      },
      410: {
        description:
          'upload_id: expired (converts within an hour), or its 15-minute form expired with nothing uploaded; ask for a new one',
        schema: ErrorDetail,
      },
      413: {
        description: 'Request body too large for one request: the detail names POST /convert/pdf/upload',
        schema: ErrorDetail,
      },
      415: {
        description: 'Unsupported Content-Type: send multipart/form-data, or JSON/form fields with upload_id',
        schema: ErrorDetail,
      },
    },
  },
  ConvertPdfUpload: {
    summary: 'Upload slot for a large PDF',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'For PDFs up to 20 MB that are too large for one request to POST /convert/pdf. Answers an `upload_id` and a ' +
      'presigned S3 POST: send `upload.fields` unchanged and then the file as `file` (multipart/form-data, ' +
      'e.g. `curl -F key=... -F Policy=... … -F file=@doc.pdf <url>`; browsers may POST it cross-origin). S3 ' +
      'accepts exactly one application/pdf of 1 byte to 20 MiB under that id for 15 minutes. Then POST ' +
      '/convert/pdf with `{"upload_id": ...}` (plus voice/fmt) from the same caller within an hour. No body; ' +
      'nothing is charged here (the conversion is). Without an API key at most 30 slots per hour per IP address. ' +
      'Idempotency-Key: a retry with the same key (and the same, empty, body) within 24 h gets the same slot back ' +
      '(`Idempotent-Replayed: true`), not a second one.',
    responses: {
      201: { description: 'The upload slot', schema: UploadSlot, headers: RATE_HEADERS },
      401: common[401],
      409: {
        description: 'Idempotency-Key: a request with this key is still running (retry to get its answer)',
        schema: ErrorDetail,
      },
      422: {
        description: 'Idempotency-Key malformed, or already used with a different request',
        schema: ValidationError,
      },
      429: { ...common[429], description: 'Too many upload slots for this IP address this hour' },
      503: common[503],
    },
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
      'Send `Accept: application/json` to get the result (with duration_s and the URL) instead of the redirect. ' +
      'Pending: an audio request (no JSON Accept: players, downloads, curl) is held until the audio is ready ' +
      '(then 302) for up to 25 s, then answered 307 to the same URL with a `wait` counter and `Retry-After`, so ' +
      'a client that follows redirects keeps waiting and never receives a JSON body at an audio URL. JSON clients ' +
      'get 202 with the progress at once.',
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
      307: {
        description: 'Pending after the 25 s hold (audio requests only): ask the same URL again',
        headers: { Location: '/audio/<id>.<fmt>?wait=<n>', 'Retry-After': 'Seconds before asking again' },
      },
      404: {
        description: 'Unknown, deleted, or expired and purged (audio is kept 30 days or its retention_days)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed; the body says why. Submit again.', schema: ErrorDetail },
      410: {
        description:
          'Past its retention (retention_days; demos 1 day): its files are deleted. Answered until the record is purged (about two days), then 404.',
        schema: ErrorDetail,
      },
      422: common[422],
    },
  },
  GetTimings: {
    summary: 'Follow the text: sentence and word timings',
    tags: ['narration'],
    description:
      'Where the audio says what. `sentences` (every conversion): `start_s`/`end_s` in the audio and ' +
      '`start`/`end`, UTF-16 offsets (end exclusive) into the text you sent — not the words it was read as: a ' +
      'date read as "quince de marzo" still points at "15/03". A sentence ends where the next begins. `words`: ' +
      'the same per word where the engine gives word marks (Amazon Polly), else empty. `chapters`: headings with ' +
      'their offset (code points) and real start. Sentence starts are exact at the start of every synthesis ' +
      'chunk and found from the pauses inside it. SSML input has no sentence timings. `?format=vtt` answers the ' +
      'sentences as WebVTT cues (for a `<track>`).',
    params: [
      { name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' },
      { name: 'format', in: 'query', required: false, description: '`json` (default) or `vtt`' },
    ],
    responses: {
      200: { description: 'Timings (JSON), or WebVTT with ?format=vtt (text/vtt)', schema: Timings },
      202: {
        description: 'Still queued or processing',
        schema: zod.object({ audio_id: zod.string(), status: zod.string(), progress: zod.number() }),
        headers: { 'Retry-After': 'Seconds before asking again' },
      },
      404: { description: 'Unknown, expired, or converted before timings existed', schema: ErrorDetail },
      409: { description: 'The conversion failed', schema: ErrorDetail },
      422: common[422],
    },
  },
  AudioStream: {
    summary: 'Listen while it is made (HLS playlist)',
    tags: ['narration'],
    description:
      'An HLS (version 3) EVENT playlist of the audio in MP3 segments: while a long conversion runs it lists the ' +
      'segments ready so far, in order, each with its `#EXTINF` duration; players reload it (about every ' +
      '`#EXT-X-TARGETDURATION` seconds) and find `#EXT-X-ENDLIST` once the audio is complete. Segment URIs are ' +
      'relative (`seg/<n>.mp3`). The target duration is the longest segment seen so far (4 before the first ' +
      'lands), so it may grow while the job runs. A short MP3 made in one go is listed as its single file ' +
      '(`../<id>.mp3`). Safari plays it natively; elsewhere use the embeddable player (`/embed.js`), which plays ' +
      'the segments in order.',
    params: [{ name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' }],
    responses: {
      200: {
        description: 'The playlist (`Cache-Control: no-store` while pending)',
        contentType: 'application/vnd.apple.mpegurl',
        schema: zod.string(),
      },
      404: {
        description: 'Unknown or expired, or an OGG/WAV audio made in one go (no MP3 segments)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed; the body says why. Submit again.', schema: ErrorDetail },
      422: common[422],
    },
  },
  AudioSegment: {
    summary: 'One segment of the playlist',
    tags: ['narration'],
    description:
      '302 to a presigned URL (valid 5 minutes) of MP3 segment n (from 0) of a long conversion, as listed in ' +
      "`stream.m3u8`. Segments are CBR MP3 at the audio's sample rate; played in order they make the whole audio.",
    params: [
      { name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' },
      { name: 'segment', in: 'path', required: true, description: '`<n>.mp3`, n from 0' },
    ],
    responses: {
      302: { description: 'Redirect to the segment file', headers: { Location: 'Presigned URL' } },
      404: {
        description: 'Unknown audio, or no such segment (yet: the detail says so; reload the playlist)',
        schema: ErrorDetail,
      },
      409: { description: 'The conversion failed', schema: ErrorDetail },
      422: { description: 'Malformed audio_id or segment name', schema: ValidationError },
    },
  },
  Waitlist: {
    summary: 'Join the waitlist',
    tags: ['growth'],
    description:
      'One entry per e-mail (trimmed, lower-cased). A `source` of the form `ab:<experiment>:<variant>[:<visitor>]` ' +
      'also counts as a conversion of that experiment. Per IP: 10 sign-ups per hour, 50 per day.',
    body: { schema: WaitlistReq, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: {
      200: {
        description: '`{"status":"registered","position":N}` or `{"status":"already_registered"}`',
        schema: zod.object({
          status: zod.enum(['registered', 'already_registered']),
          position: zod.int().optional(),
        }),
      },
      422: common[422],
      429: common[429],
    },
  },
  WaitlistCount: {
    summary: 'Waitlist size',
    tags: ['growth'],
    responses: { 200: { description: 'Exact count', schema: zod.object({ count: zod.int() }) } },
  },
  AbAssign: {
    summary: 'A/B variant for a visitor',
    tags: ['growth'],
    description:
      'Deterministic: the same experiment and visitor always get the same variant (SHA-256 of both, weights from ' +
      'configuration). Without `visitor` one is generated. `ref` is what to pass to /pay/checkout or as waitlist source.',
    params: [{ name: 'visitor', in: 'query', description: 'Your stable visitor id' }],
    responses: {
      200: { description: '`{experiment, visitor, variant, ref}`' },
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
    },
  },
  AbEvent: {
    summary: 'Record an A/B exposure or conversion',
    tags: ['growth'],
    description:
      'Public and rate-limited per IP (600 per hour, 5,000 per day). One exposure and one conversion per visitor; ' +
      'the variant is computed server-side (a differing claimed variant is a 422).',
    body: { schema: AbEventReq, contentTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    responses: {
      200: { description: '`{status: "recorded"|"duplicate", experiment, variant, type}`' },
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
      429: common[429],
    },
  },
  AbResults: {
    summary: 'A/B results (dashboard)',
    tags: ['growth'],
    description:
      'Send the dashboard token as `Authorization: Bearer <token>` or `X-Dashboard-Token: <token>` (constant-time ' +
      'comparison). Per variant: exposures, conversions, rate, uplift vs control, and a two-sided two-proportion ' +
      'z-test p-value (`method` names it). See docs/growth.md for the exact body.',
    responses: {
      200: { description: 'Results per variant' },
      401: { description: 'Missing or wrong dashboard token', schema: ErrorDetail },
      404: { description: 'Unknown experiment', schema: ErrorDetail },
      422: common[422],
      503: { description: 'No dashboard token is configured', schema: ErrorDetail },
    },
  },
  DashboardSummary: {
    summary: 'Dashboard summary (dashboard token)',
    tags: ['growth'],
    description:
      'What the /panel page shows besides the A/B results: the configured `experiments` (read each with ' +
      'GET /ab/results/{experiment}), the waitlist (`count`, `interest`, sign-ups per `source` — A/B refs grouped ' +
      'per variant), the public statistics, and recent failures: queued jobs that ended failed (total, per UTC ' +
      'day for 7 days) and the depth of each DLQ (`messages: null` with an `error` when it cannot be read). Same ' +
      'token as /ab/results (`Authorization: Bearer <token>` or `X-Dashboard-Token`). Never cached.',
    responses: {
      200: { description: 'Summary (docs/growth.md, "Dashboard")' },
      401: { description: 'Missing or wrong dashboard token', schema: ErrorDetail },
      503: { description: 'No dashboard token is configured', schema: ErrorDetail },
    },
  },
  Stats: {
    summary: 'Public statistics',
    tags: ['growth'],
    description:
      'Counters, not scans: conversions, characters and seconds narrated, waitlist size. Cached 60 s.',
    responses: { 200: { description: 'Statistics (docs/growth.md)' } },
  },
  PayCheckout: {
    summary: 'Buy a plan (Stripe Checkout)',
    tags: ['billing'],
    description:
      '`plan` is `pro` ($7/month subscription) or `lifetime` ($49 once); anything else is a 422. Optional `email` ' +
      '(prefilled) and `ref` (attribution, e.g. `ab:<experiment>:<variant>`). Browsers get a 302 to Stripe; clients ' +
      'sending `Accept: application/json` get 200 with the URL. 503 naming the variable when Stripe is not configured.',
    params: [
      { name: 'email', in: 'query', description: 'Prefilled e-mail (≤ 200)' },
      { name: 'ref', in: 'query', description: 'Attribution reference (≤ 120)' },
    ],
    responses: {
      200: { description: 'Checkout URL (JSON clients)', schema: CheckoutResponse },
      302: { description: 'Redirect to Stripe Checkout', headers: { Location: 'Checkout page' } },
      422: common[422],
      503: common[503],
    },
  },
  PaySuccess: {
    summary: 'Pick up the API key after paying',
    tags: ['billing'],
    description:
      'The first call (within 24 h) returns the plaintext `api_key` once; later calls return the plan with ' +
      '`api_key: null` and how to get a new key (POST /pay/keys/rotate with the key, or support).',
    params: [
      { name: 'session_id', in: 'query', required: true, description: 'cs_… from the Checkout redirect' },
    ],
    responses: {
      200: { description: 'Plan, status and (once) the key', schema: SuccessResponse },
      404: { description: 'Unknown session', schema: ErrorDetail },
      422: common[422],
      503: common[503],
    },
  },
  PayStatus: {
    summary: 'Plan, status and usage',
    tags: ['billing'],
    bearer: 'optional',
    description:
      "With a Bearer key: the account's plan, status and paid access. Without: this IP's free-tier usage, limits " +
      'and reset times (docs/billing.md has the bodies).',
    responses: { 200: { description: 'Status' }, 401: common[401] },
  },
  PayPortal: {
    summary: 'Stripe customer portal',
    tags: ['billing'],
    bearer: 'required',
    description:
      "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key every " +
      'e-mail gets the same 401, so the endpoint never reveals who is a customer. Lost the key? Use the Stripe ' +
      'portal login link or ask support.',
    params: [{ name: 'email', in: 'query', required: true, description: "The account's e-mail" }],
    responses: {
      200: { description: 'Portal session URL', schema: PortalResponse },
      401: common[401],
      422: common[422],
      503: common[503],
    },
  },
  PayWebhook: {
    summary: 'Stripe webhook',
    tags: ['billing'],
    description:
      'Verifies `Stripe-Signature` on the raw body with the signing secret (400 on a bad signature). Handles ' +
      'checkout.session.completed (account + new key), customer.subscription.updated/deleted (deleted revokes paid ' +
      'access: keys then get 402 pointing to the portal). Idempotent per event id; older events never overwrite newer state.',
    responses: {
      200: { description: '`{"received": true}` (also for replays and ignored event types)' },
      400: { description: 'Missing or bad signature', schema: ErrorDetail },
      503: common[503],
    },
  },
  PayKeysRotate: {
    summary: 'Replace an API key',
    tags: ['billing'],
    bearer: 'required',
    description: 'Issues a new key for the same account and revokes the one sent; the new key is shown once.',
    responses: { 200: { description: 'The new key', schema: RotateResponse }, 401: common[401] },
  },
  Embed: {
    summary: 'Embeddable player script',
    tags: ['meta'],
    description:
      'Dependency-free player: `<script src=".../embed.js" data-audio-id="ID" async></script>` plays an audio; ' +
      '`data-narrate="page"` (optional data-voice, data-fmt) narrates the page on click through POST /convert/url ' +
      'and GET /audio/{id}. Weak ETag (304 on If-None-Match), Cache-Control public, max-age=3600, ' +
      'stale-while-revalidate=86400; brotli/gzip per Accept-Encoding. See docs/embed.md.',
    responses: {
      200: { description: 'The player script', contentType: 'application/javascript' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
  SitePage: {
    summary: 'Web site (Spanish): try, pricing, waitlist',
    tags: ['meta'],
    description:
      'The HTML page for people (es-MX). Strict Content-Security-Policy (own scripts and styles only), HSTS, ' +
      'no framing; weak ETag (304 on If-None-Match); brotli/gzip per Accept-Encoding.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
  SiteThanks: {
    summary: 'Web page after paying (Spanish): shows the API key once',
    tags: ['meta'],
    description:
      "Stripe Checkout's success_url (`/gracias?session_id=cs_…`). Its script calls GET /pay/success with the " +
      'session id and shows the key once, with a copy button; GET /pay/success itself stays JSON. Same headers as /.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
  SitePanel: {
    summary: 'Dashboard page (Spanish, read-only)',
    tags: ['meta'],
    description:
      'A/B results, waitlist, statistics and recent failures for the team. The page itself is public; it asks for ' +
      'the dashboard token, keeps it in sessionStorage and sends it as `Authorization: Bearer` to ' +
      'GET /dashboard/summary and GET /ab/results/{experiment} (never in a URL). Same headers as `/`.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
  SiteFile: {
    summary: 'A file of the web site (script, style sheet, image)',
    tags: ['meta'],
    description: 'The files the pages load, by name; unknown names → 404 `{"detail": ...}`.',
    responses: {
      200: { description: 'The file' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
      404: { description: 'No such file' },
    },
  },
  LexiconList: {
    summary: 'List pronunciation lexicons',
    tags: ['lexicons'],
    bearer: 'required',
    description:
      "The account's lexicons (without entries) and the limits: 100 lexicons, 1,000 entries and 40,000 bytes " +
      '(entries as JSON) each, 300,000 bytes in all; graphemes ≤ 100 characters, aliases ≤ 200, phonemes ≤ 100; ' +
      'at most 5 named per conversion. Paid keys only (no key → 401).',
    responses: { 200: { description: 'Lexicons', schema: LexiconList }, 401: common[401] },
  },
  LexiconGet: {
    summary: 'Read a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    params: [lexiconName],
    responses: {
      200: { description: 'The lexicon with its entries', schema: Lexicon },
      401: common[401],
      404: { description: 'No lexicon by that name in this account', schema: ErrorDetail },
      422: common[422],
    },
  },
  LexiconPut: {
    summary: 'Create or replace a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    description:
      'Entries `grapheme` → `alias` (what to say instead) and/or `phoneme` (IPA; Polly reads it through ' +
      '`<phoneme alphabet="ipa">`, the local engine says the alias or the word). Matching is whole-word and exact ' +
      'in case unless `match_case: false`; the longest grapheme wins, and across lexicons the first named. ' +
      'Applied after the reading rules, on every conversion naming it in `lexicons` (text, PDF, URL and their ' +
      'dry runs) and, with `default: true`, on every conversion of the account naming none (one default: setting ' +
      'it moves it). `language`: es-MX, es-ES or * (both). Over a limit → 422 naming the field.',
    params: [lexiconName],
    body: { schema: PutLexiconReq, contentTypes: ['application/json'] },
    responses: {
      200: { description: 'Replaced', schema: Lexicon },
      201: { description: 'Created', schema: Lexicon },
      401: common[401],
      422: common[422],
    },
  },
  LexiconDelete: {
    summary: 'Delete a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    params: [lexiconName],
    responses: {
      204: { description: 'Deleted' },
      401: common[401],
      404: { description: 'No lexicon by that name in this account', schema: ErrorDetail },
      422: common[422],
    },
  },
  ...HOOKS_ROUTE_DOCS,
  ...META_ROUTE_DOCS,
};
