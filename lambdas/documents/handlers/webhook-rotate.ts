// POST /v1/webhook/rotate-secret — a new signing secret for the account's endpoint: 200 {..., secret} (shown this
// once). The previous secret keeps signing, as a second v1= in Docs-Signature, for WEBHOOK_SECRET_OVERLAP_S (a day)
// so receivers can switch without losing events. Scale only (403); 404 without an endpoint; no key → 401.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { Unauthenticated } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { awsDeps, type DocumentsDeps } from '../deps';
import { ownerOf } from '../use-cases/jobs';
import { planOf } from '../core/plans';
import { assertWebhooksAllowed, publicEndpoint, rotateSecret } from '../use-cases/webhooks';

export const makeHandler = (
  deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'config' | 'now'>,
) =>
  apiHandler(async (req) => {
    const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
    if (caller.kind !== 'key')
      throw new Unauthenticated(
        'Send `Authorization: Bearer <Scale key>`: webhooks belong to a Scale account.',
      );
    assertWebhooksAllowed(planOf(caller));
    const endpoint = await rotateSecret(
      { webhooks: deps.webhooks, policy: deps.webhookPolicy, now: deps.now },
      ownerOf(caller.key),
      caller.key.keyPrefix,
      deps.config.WEBHOOK_SECRET_OVERLAP_S,
    );
    return json(200, publicEndpoint(endpoint, { withSecret: true }, deps.now()), {
      'cache-control': 'no-store',
    });
  });

export const handler = makeHandler(awsDeps());
