// POST /pay/keys/rotate — replaces the Bearer key (leaked, or simply due): 200 {api_key, key_prefix,
// revoked_key_prefix, plan, status, message}. The new key carries the account's plan and state; the old key stops
// working at once (401). A key whose subscription lapsed may rotate too. Unknown/revoked key → 401; a key not
// issued by a purchase → 409; two concurrent rotations of one key → one succeeds, the other 409.
import { resolveKeyHolder } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { UnauthorizedError } from '../../shared/http/errors';
import { json } from '../../shared/http/response';
import { billingDeps } from '../../shared/billing/deps';
import { rotateKey } from '../../shared/billing/service';
import { NO_STORE } from '../../shared/billing/web';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const key = await resolveKeyHolder(req.headers, deps.keys);
      if (!key) throw new UnauthorizedError('Send the API key to replace as `Authorization: Bearer <key>`.');
      const { apiKey, record } = await rotateKey(billingDeps(deps), key);
      return json(
        200,
        {
          api_key: apiKey,
          key_prefix: record.keyPrefix,
          revoked_key_prefix: key.keyPrefix,
          plan: record.plan,
          status: record.billingStatus ?? 'active',
          message: 'Store this API key now: it is shown only this once. The previous key no longer works.',
        },
        NO_STORE,
      );
    },
    { maxBodyBytes: 1024 },
  );

export const handler = makeHandler(awsDeps());
