// POST /convert/pdf: the route's spec, next to its handler (convert-pdf.ts reads its limits here); routes.ts lists it.
import { z, z as zod } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { UPLOAD_ID_PATTERN, fmtField, voiceField } from '../requests';
import { dryRun, convertResponses } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

/**
 * The largest body that reaches the function in AWS: a synchronous Lambda invoke carries at most 6 MiB, and API
 * Gateway puts a binary body into the event base64-encoded (4/3 larger) next to headers and request context (16 KiB
 * kept for them). About 4.5 MB; larger PDFs go through POST /convert/pdf/upload.
 */
export const MAX_DIRECT_BODY_BYTES = Math.floor(((6 * 1024 * 1024 - 16 * 1024) * 3) / 4);
// The JSON / form-urlencoded body converting an uploaded PDF (validated by the handler; /api documents it).
export const ConvertPdfUploadReq = z.object({
  upload_id: z.string().regex(UPLOAD_ID_PATTERN, {
    message:
      'upload_id should be the id returned by POST /convert/pdf/upload (upl_ followed by 22 characters)',
  }),
  voice: voiceField,
  fmt: fmtField,
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
      '(and voice/fmt as usual).',
  },
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    // growth: public /stats counters; accounts: webhook endpoints only (a finished conversion's event)
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['priority', 'standard', 'webhooks'],
    speech: true,
  },
  docs: {
    summary: 'Narrate a PDF',
    tags: ['narration'],
    bearer: 'optional',
    description:
      'Either multipart/form-data with `file` (a PDF of at most 20 MB), optional `voice` and `fmt`; or, for PDFs ' +
      `too large for one request (a body over ${MAX_DIRECT_BODY_BYTES} bytes, about 4.5 MB, is answered 413 ` +
      'naming this path: API Gateway and Lambda cap what one request carries in AWS), JSON or form fields ' +
      '`{"upload_id", "voice"?, "fmt"?}` after POST /convert/pdf/upload and sending the file to S3 with its form. ' +
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
        zod.object({
          file: zod.string().meta({ format: 'binary', description: 'The PDF, at most 20 MB' }),
          voice: voiceField,
          fmt: fmtField,
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
} satisfies RouteSpec;
