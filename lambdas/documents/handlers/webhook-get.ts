// GET /v1/webhook — the account's webhook endpoint: 200 {url, events, created_at, updated_at, secret_hint,
// previous_secret_expires_at}; never the secret itself. 404 when none is registered; no key → 401.
import { apiHandler } from '../../shared/http/api-handler';
import { NotFound } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { ownerOf } from '../use-cases/jobs';
import { publicEndpoint, requireKeyHolder } from '../use-cases/webhooks';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'now'>) =>
  apiHandler(async (req) => {
    const key = await requireKeyHolder(req.headers, deps.keys, 'webhooks belong to a Scale account.');
    const endpoint = await deps.webhooks.get(ownerOf(key));
    if (!endpoint)
      throw new NotFound(
        'No webhook endpoint is registered for this account. Register one with PUT /v1/webhook.',
      );
    return json(200, publicEndpoint(endpoint, {}, deps.now()), { 'cache-control': 'no-store' });
  });

export const handler = makeHandler(awsDeps());
