// GET /v1/jobs/{id}: the route's spec, next to its handler (jobs.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { JOB_ITEM_PREFIX } from '../adapters/item-prefixes';

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
    settings: ['JOB_DOWNLOAD_TTL_S'],
  },
} satisfies RouteSpec;
