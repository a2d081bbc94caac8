// POST /convert/pdf: the route's spec, next to its handler (convert-pdf.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES, UPLOAD_PREFIX } from '../bucket';
import { CONVERSION_ACCESS } from '../conversion-access';
import { UPLOAD_ID_PATTERN, fmtField, lexiconsField, retentionField, voiceField } from '../requests';
import { dryRun, convertResponses } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

/**
 * The largest body that reaches the function in AWS: a synchronous Lambda invoke carries at most 6 MiB, and API
 * Gateway puts a binary body into the event base64-encoded (4/3 larger) next to headers and request context (16 KiB
 * kept for them). About 4.5 MB; larger PDFs go through POST /convert/pdf/upload.
 */
export const MAX_DIRECT_BODY_BYTES = Math.floor(((6 * 1024 * 1024 - 16 * 1024) * 3) / 4);

/** The fields every form of the request carries besides the file or upload_id (multipart: text fields). */
export const ConvertPdfFields = z.object({
  voice: voiceField,
  fmt: fmtField,
  /** Lexicons to apply, first wins (else the account's default). Paid keys. A form field may list them "a,b". */
  lexicons: lexiconsField,
  /** Days the audio is kept: paid keys 1..AUDIO_TTL_DAYS; the free tier's is fixed. */
  retention_days: retentionField,
});

// The JSON / form-urlencoded body converting an uploaded PDF (validated by the handler; /api documents it).
export const ConvertPdfUploadReq = ConvertPdfFields.extend({
  upload_id: z.string().regex(UPLOAD_ID_PATTERN, {
    message:
      'upload_id should be the id returned by POST /convert/pdf/upload (upl_ followed by 22 characters)',
  }),
});

export const convertPdfRoute = {
  id: 'ConvertPdf',
  method: 'POST',
  path: '/convert/pdf',
  handler: 'lambdas/narration/handlers/convert-pdf.ts',
  // pdf.js in a fenced worker thread (768 MiB growth budget) + inline narration of short texts; a 20 MB upload
  // read from S3 (upload_id).
  memoryMb: 2048,
  timeoutS: 29,
  // The same limit locally as in the cloud (docs/architecture.md): a body that would not reach the function in AWS
  // is refused here too, with a 413 naming the way to send more.
  maxBodyBytes: MAX_DIRECT_BODY_BYTES,
  tooLarge: {
    status: 413,
    detail:
      `Request body is larger than ${MAX_DIRECT_BODY_BYTES} bytes (about 4.5 MB), the most one request to ` +
      'POST /convert/pdf can carry. For PDFs up to 20 MB: POST /convert/pdf/upload for an upload_id and a ' +
      'presigned upload form, send the file there, then POST /convert/pdf with {"upload_id": "<id>"} ' +
      '(and voice/fmt/lexicons/retention_days as usual).',
  },
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  // The conversion's access; uploads/ too: the uploaded PDF is read, then deleted.
  access: { ...CONVERSION_ACCESS, bucketPrefixes: [...CONVERSION_PREFIXES, UPLOAD_PREFIX.prefix] },
  docs: {
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
      schema: z.union([
        ConvertPdfFields.extend({
          file: z.string().meta({ format: 'binary', description: 'The PDF, at most 20 MB' }),
        }),
        ConvertPdfUploadReq,
      ]),
      contentTypes: ['multipart/form-data', 'application/json', 'application/x-www-form-urlencoded'],
      // The fields next to the file you choose (multipart); JSON/form: upload_id from POST /convert/pdf/upload.
      example: { voice: 'es-MX-Mia', fmt: 'mp3' },
    },
    responses: {
      ...convertResponses(''),
      403: { description: "upload_id: another caller's (other API key or IP address)", schema: ErrorDetail },
      404: { description: 'upload_id: unknown (never issued, or older than a day)', schema: ErrorDetail },
      409: {
        description: 'upload_id: already converted (the body names its audio_id), or nothing uploaded yet',
        schema: ErrorDetail.extend({ audio_id: z.string().optional() }),
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
} satisfies RouteSpec;
