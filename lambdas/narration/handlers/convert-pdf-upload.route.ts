// POST /convert/pdf/upload: the route's spec, next to its handler (convert-pdf-upload.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { UPLOAD_PREFIX } from '../bucket';
import { ErrorDetail, UploadSlot, ValidationError } from '../api/schemas';
import { RATE_HEADERS, common } from '../api/doc-parts';

export const convertPdfUploadRoute = {
  id: 'ConvertPdfUpload',
  method: 'POST',
  path: '/convert/pdf/upload',
  handler: 'lambdas/narration/handlers/convert-pdf-upload.ts',
  memoryMb: 256,
  timeoutS: 10,
  // No body is read (the file goes to S3).
  maxBodyBytes: 4 * 1024,
  // Idempotency-Key: a retried request gets the same slot back (lambdas/shared/idempotency; quotas table).
  idempotent: true,
  access: {
    // audio: only the upload slots (`upload#<id>` items); quotas: anonymous callers' slots per hour and the
    // Idempotency-Key records (`idem#` items).
    tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
    itemPrefixes: { audio: ['upload#'] },
    // The presigned POST is run by S3 with this function's role: PutObject under uploads/ and nothing else.
    bucket: 'put',
    bucketPrefixes: [UPLOAD_PREFIX.prefix],
  },
  docs: {
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
} satisfies RouteSpec;
