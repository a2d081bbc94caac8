// POST /v1/batches — starts a batch of CFDI (use-cases/batches.ts): {"upload_id"} of an uploaded zip or
// {"xml": [...]}; 202 with the batch. With an API key its account owns the batch and is charged for it; without
// one, the free plan: a small batch (BATCH_LIMITS) owned by the caller's address and charged to its monthly count.
import { ownerOf } from '../../shared/auth/owner';
import { resolveCaller, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency } from '../../shared/idempotency/idempotency';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { planOf, quotaSubject } from '../core/plans';
import { startBatch } from '../use-cases/batches';
import { startBatchRoute as route } from './batches.route';

/** Who owns a batch: the key's account, or on the free plan (no key) the address that started it. */
export function batchOwner(caller: Caller): string {
  return caller.kind === 'key' ? ownerOf(caller.key) : `anon:${caller.subject}`;
}

export const makeHandler = (
  deps: Pick<
    DocumentsDeps,
    'keys' | 'batches' | 'jobFiles' | 'batchFiles' | 'batchQueue' | 'quotas' | 'now' | 'idempotency'
  >,
) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const out = await startBatch(
        { ...deps, jobs: deps.batches },
        {
          owner: batchOwner(caller),
          plan: planOf(caller),
          quotaSubject: quotaSubject(caller),
          body: req.body(),
        },
      );
      return json(out.statusCode, out.body, { ...out.headers, 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
