// POST /v1/batches — starts a batch of CFDI (use-cases/batches.ts): {"upload_id"} of an uploaded zip or
// {"xml": [...]}; 202 with the batch. With an API key its account owns the batch and is charged for it; without
// one, the free plan: a small batch (BATCH_LIMITS) owned by the caller's address and charged to its monthly count.
// A key's batch prints its account's brand (PUT /v1/brand) on its facturas, as POST /v1/render does: read here,
// kept with the batch (a brand changed later does not change a batch under way).
import { ownerOf } from '../../shared/auth/owner';
import { resolveCaller, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency } from '../../shared/idempotency/idempotency';
import { json } from '../../shared/http/response';
import { awsDeps, batchDeps, type DocumentsDeps } from '../deps';
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
    | 'keys'
    | 'batches'
    | 'jobFiles'
    | 'batchFiles'
    | 'assembleQueue'
    | 'quotas'
    | 'now'
    | 'idempotency'
    | 'brands'
  >,
) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const brand = caller.kind === 'key' ? await deps.brands.get(ownerOf(caller.key)) : undefined;
      const out = await startBatch(batchDeps(deps), {
        owner: batchOwner(caller),
        plan: planOf(caller),
        quotaSubject: quotaSubject(caller),
        body: req.body(),
        marca: brand?.marca,
      });
      return json(out.statusCode, out.body, { ...out.headers, 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
