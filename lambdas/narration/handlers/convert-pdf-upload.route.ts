// POST /convert/pdf/upload: the route's spec, next to its handler (convert-pdf-upload.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { UPLOAD_PREFIX } from '../bucket';

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
} satisfies RouteSpec;
