// GET /v1/batches/{id}: the route's spec, next to its handler (batch-get.ts); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { JOB_ITEM_PREFIX } from '../adapters/item-prefixes';
import { BatchView } from '../api/batches-doc';
import { jobIdParam, pollingOk } from '../api/doc-parts';
import { ErrorDetail } from '../api/schemas';

export const getBatchRoute = {
  id: 'GetBatch',
  method: 'GET',
  path: '/v1/batches/{id}',
  handler: 'lambdas/documents/handlers/batch-get.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: {
    tables: { keys: 'r', accounts: 'r' },
    itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
    // Presigning the zip's download URL (the URL only works if this role may read it).
    bucket: 'r',
    settings: ['JOB_DOWNLOAD_TTL_S'],
  },
  docs: {
    summary: 'A batch of CFDI',
    tags: ['batches'],
    bearer: 'optional',
    // Examples with a key: a month of CFDI is a paid plan's (without one, the free plan's 10 files).
    sampleKey: true,
    description:
      'Progress of a batch (done, failed, refused of total; `eta_s`), and when done the zip (`download_url`, ' +
      'presigned, signed afresh at each GET, valid 1 h). Visible to every key of the account that started it (a ' +
      'free-plan batch, started without a key: to the address that started it); anyone else gets 404. Kept a day (then GET /v1/jobs/{id} answers 410).',
    params: [jobIdParam('batch')],
    responses: {
      200: pollingOk('The batch', BatchView),
      401: {
        description: 'Unknown or revoked API key (`WWW-Authenticate: Bearer`)',
        schema: ErrorDetail,
      },
      404: { description: 'No such batch for this caller', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
