// POST /v1/batches/upload: the route's spec, next to its handler (batch-upload.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { BATCHES_PREFIX } from '../bucket';
import { common } from '../api/doc-parts';
import { BatchUploadSlot } from '../api/batches-doc';

export const batchUploadRoute = {
  id: 'BatchUpload',
  method: 'POST',
  path: '/v1/batches/upload',
  handler: 'lambdas/documents/handlers/batch-upload.ts',
  memoryMb: 256,
  timeoutS: 10,
  maxBodyBytes: 4 * 1024,
  access: {
    tables: { keys: 'r' },
    // The presigned POST is run by S3 with this function's role: PutObject under batches/uploads/ only.
    bucket: 'put',
    bucketPrefixes: [`${BATCHES_PREFIX.prefix}uploads/`],
  },
  docs: {
    summary: 'Upload slot for a zip of CFDI',
    tags: ['batches'],
    bearer: 'optional',
    // Examples with a key: a month of CFDI is a paid plan's (without one, the free plan's 10 files).
    sampleKey: true,
    description:
      'For a month of stamped CFDI 4.0 (SAT descarga masiva, a PAC portal): answers an `upload_id` and a presigned ' +
      'S3 POST. Send `upload.fields` unchanged, then the zip as `file` (multipart/form-data, e.g. `curl -F key=... ' +
      '… -F file=@cfdi.zip <url>`; browsers may POST it cross-origin). S3 accepts one application/zip of up to ' +
      '`max_bytes` (`max_files` files) for 15 minutes: 100 MiB and 5,000 files with a Scale key, 100 MiB and 1,000 ' +
      'with Pro or Lifetime, 2 MiB and 10 without a key (the free plan; the batch then belongs to your address). ' +
      'Then `POST /v1/batches {"upload_id": ...}`, with the same key or none. Nothing is charged here.',
    responses: {
      201: { description: 'The upload slot', schema: BatchUploadSlot },
      401: common[401],
      402: common[402],
      503: common[503],
    },
  },
} satisfies RouteSpec;
