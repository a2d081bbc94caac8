// DELETE /v1/webhook — removes the account's webhook endpoint (and its secret): 204. Events of jobs finishing later
// are not sent; deliveries already queued are recorded as skipped. 404 when none is registered; no key → 401.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { awsDeps, type DocumentsDeps } from '../deps';
import { ownerOf } from '../use-cases/jobs';
import { requireKeyHolder } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks'>) =>
  apiHandler(async (req) => {
    const key = await requireKeyHolder(req.headers, deps.keys, 'webhooks belong to a Scale account.');
    if (!(await deps.webhooks.remove(ownerOf(key))))
      throw new NotFound('No webhook endpoint is registered for this account.');
    return { statusCode: 204, headers: { 'cache-control': 'no-store' }, body: '' };
  });

export const handler = makeHandler(awsDeps());
