// POST /convert/pdf: the route's spec, next to its handler (convert-pdf.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';
import { UPLOAD_ID_PATTERN, fmtField, lexiconsField, retentionField, voiceField } from '../requests';

/**
 * The largest body that reaches the function in AWS: a synchronous Lambda invoke carries at most 6 MiB, and API
 * Gateway puts a binary body into the event base64-encoded (4/3 larger) next to headers and request context (16 KiB
 * kept for them). About 4.5 MB; larger PDFs go through POST /convert/pdf/upload.
 */
export const MAX_DIRECT_BODY_BYTES = Math.floor(((6 * 1024 * 1024 - 16 * 1024) * 3) / 4);

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
  access: {
    // growth: public /stats counters; accounts: webhook endpoints (a finished conversion's event) and the
    // caller's lexicons, read only
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX, LEXICON_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['priority', 'standard', 'webhooks'],
    speech: true,
  },
} satisfies RouteSpec;

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
