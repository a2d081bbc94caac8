// PUT /v1/webhook — registers (201) or changes (200) the account's webhook endpoint: JSON {url, events?}. Scale
// plan only (403 naming the plan; no key → 401). The URL must be https:// on port 443 and resolve only to public
// addresses (the SSRF checks of lambdas/shared/net/safe-fetch.ts; 400 {"detail":[{loc:["body","url"],...}]}).
// The signing secret (whsec_…) is in the 201 answer only — store it; a later PUT keeps it (rotate with
// POST /v1/webhook/rotate-secret).
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { Unauthenticated } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { awsDeps, type DocumentsDeps } from '../deps';
import { ownerOf } from '../use-cases/jobs';
import { planOf } from '../core/plans';
import {
  assertWebhooksAllowed,
  publicEndpoint,
  registerEndpoint,
  WebhookPutRequest,
} from '../use-cases/webhooks';
import { webhookPutRoute as route } from './webhook-put.route';

export const makeHandler = (deps: Pick<DocumentsDeps, 'keys' | 'webhooks' | 'webhookPolicy' | 'now'>) =>
  apiHandler(
    async (req) => {
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      if (caller.kind !== 'key')
        throw new Unauthenticated(
          'Send `Authorization: Bearer <Scale key>`: webhooks belong to a Scale account.',
        );
      assertWebhooksAllowed(planOf(caller));
      const body = validate(WebhookPutRequest, req.body());
      const { created, endpoint } = await registerEndpoint(
        { webhooks: deps.webhooks, policy: deps.webhookPolicy, now: deps.now },
        ownerOf(caller.key),
        caller.key.keyPrefix,
        body,
      );
      return json(created ? 201 : 200, publicEndpoint(endpoint, { withSecret: created }, deps.now()), {
        'cache-control': 'no-store',
      });
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: 400 },
  );

export const handler = makeHandler(awsDeps());
