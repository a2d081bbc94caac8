// POST /v1/batches — starts a batch of CFDI (use-cases/batches.ts): {"upload_id"} of an uploaded zip or
// {"xml": [...]}; 202 with the batch. An API key is required (its account owns the batch and is charged for it).
import { Unauthenticated } from '../../shared/errors';
import { resolveCaller, type Caller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency } from '../../shared/idempotency/idempotency';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { planOf, quotaSubject } from '../core/plans';
import { startBatch } from '../use-cases/batches';
import { startBatchRoute as route } from './batches.route';

/** Batches belong to an account's key: 401 (with the way to get one) without it. */
export function requireBatchKey(caller: Caller): Extract<Caller, { kind: 'key' }> {
  if (caller.kind === 'key') return caller;
  throw new Unauthenticated(
    'A batch needs an API key (`Authorization: Bearer <key>`): its documents are charged to your plan and its ' +
      'result belongs to your account. GET /pricing shows the plans.',
  );
}

export const makeHandler = (
  deps: Pick<
    DocumentsDeps,
    'keys' | 'batches' | 'jobFiles' | 'batchFiles' | 'batchQueue' | 'quotas' | 'now' | 'idempotency'
  >,
) =>
  apiHandler(
    async (req) => {
      const caller = requireBatchKey(await resolveCaller(req.headers, req.clientIp, deps.keys));
      const out = await startBatch(
        { ...deps, jobs: deps.batches },
        { key: caller.key, plan: planOf(caller), quotaSubject: quotaSubject(caller), body: req.body() },
      );
      return json(out.statusCode, out.body, { ...out.headers, 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
