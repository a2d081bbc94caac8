// GET /v1/jobs/{id}: the route's spec, next to its handler (jobs.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { JOB_RESULT_PREFIX } from '../bucket';
import { JOB_ITEM_PREFIX } from '../adapters/item-prefixes';
import { JobView } from '../api/webhooks-doc';
import { jobIdParam, pollingOk } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

export const getJobRoute = {
  id: 'GetJob',
  method: 'GET',
  path: '/v1/jobs/{id}',
  handler: 'lambdas/documents/handlers/jobs.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {
    tables: { keys: 'r', accounts: 'r' },
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
    // Presigning the download URL: the URL only works if this role may read the object; an expired job's result
    // is deleted when asked for.
    bucket: 'r+delete',
    bucketPrefixes: [JOB_RESULT_PREFIX],
    settings: ['JOB_DOWNLOAD_TTL_S'],
  },
  docs: {
    summary: 'An async render job',
    tags: ['webhooks'],
    bearer: 'required',
    description:
      'The job of a `POST /v1/render` with `options.async` (Scale). Visible to every key of the account that ' +
      'created it; anyone else gets 404. `done`: `download_url` (presigned, signed afresh at each GET, valid 1 h); ' +
      '`failed`: `reason` (+ `problems`). `deliveries` lists every webhook attempt. Past `expires_at` ' +
      '(options.expires_in, default a day): 410 and the document is deleted; a day later 404.',
    params: [jobIdParam('job')],
    responses: {
      200: pollingOk('The job', JobView),
      401: {
        description: 'No, unknown or revoked API key (`WWW-Authenticate: Bearer`)',
        schema: ErrorDetail,
      },
      404: {
        description: 'No such job for this account (or expired more than a day ago)',
        schema: ErrorDetail,
      },
      410: {
        description: 'The job expired (options.expires_in, default a day): its document was deleted',
        schema: ErrorDetail,
      },
    },
  },
} satisfies RouteSpec;
