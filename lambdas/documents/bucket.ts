// The documents bucket's key layout, defined once (like lib/tables.ts): the stack's lifecycle rules (through the
// manifest, lambdas/documents/routes.ts) expire these prefixes, and the S3 adapters store under them.
import type { BucketSpec } from '../shared/manifest';

/** Results too large for a Lambda response, fetched once right after the redirect: a day is plenty. */
export const RESULTS_PREFIX = { prefix: 'results/', days: 1 } as const;
/** Finished async renders: under results/, so they expire with it (and with their job record). */
export const JOB_RESULT_PREFIX = `${RESULTS_PREFIX.prefix}jobs/`;
/** Sample PDFs, re-rendered on a miss; expiring them keeps stale template versions from piling up. */
export const SAMPLES_PREFIX = { prefix: 'samples/', days: 30 } as const;
/** Render requests of queued async jobs (too large for an SQS message); read once by the render worker. */
export const JOB_REQUESTS_PREFIX = { prefix: 'jobs/', days: 2 } as const;
/**
 * CFDI batches (POST /v1/batches): the uploaded zips (`batches/uploads/`), each batch's parts, per-part outcomes
 * and PDFs (`batches/<job id>/`). The result zip is a job result (results/jobs/). Two days: a batch is done in
 * minutes, and its upload converts within an hour.
 */
export const BATCHES_PREFIX = { prefix: 'batches/', days: 2 } as const;

export const documentsBucket: BucketSpec = {
  id: 'DocumentsBucket',
  envVar: 'DOCUMENTS_BUCKET',
  accessLogPrefix: 'documents-bucket/',
  expire: [
    { id: 'expire-results', ...RESULTS_PREFIX },
    { id: 'expire-samples', ...SAMPLES_PREFIX },
    { id: 'expire-job-requests', ...JOB_REQUESTS_PREFIX },
    { id: 'expire-batches', ...BATCHES_PREFIX },
  ],
  // Large results are served by redirecting to a presigned URL; browser clients (fetch) follow that redirect
  // cross-origin. Objects stay private: CORS only lets pages read what a presigned URL already grants.
  // uploads: the playground sends a batch's zip straight to S3 with its presigned POST (POST /v1/batches/upload).
  cors: { exposedHeaders: ['Content-Length', 'Content-Type', 'Content-Disposition', 'ETag'], uploads: true },
};
