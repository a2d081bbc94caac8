// POST /pay/portal?email= — a Stripe customer-portal session (cancel, change card, invoices): 200 {url}.
// Requires the account's API key as Bearer, and the e-mail must be the account's: a portal link controls a
// subscription and shows billing details, so knowing an e-mail must not be enough — and every request without
// a key gets the same 401 whatever the e-mail, so the endpoint reveals nothing about which e-mails are customers.
// Customers without their key use Stripe's own portal login (STRIPE_PORTAL_LOGIN_URL, named in the 401).
// 422 bad/missing e-mail; 503 Stripe not configured; 403 e-mail not the key's account; 409 key without account.
import { resolveKeyHolder } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { HttpError, UnauthorizedError } from '../../shared/http/errors';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/http/validation';
import { normalizeEmail } from '../../shared/billing/account';
import { PortalQuery } from '../../shared/billing/requests';
import { lostKeyHelp } from '../../shared/billing/service';
import { requireGateway } from '../../shared/billing/stripe';
import { NO_STORE, returnUrl } from '../../shared/billing/web';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: Pick<NarrationDeps, 'config' | 'keys' | 'accounts' | 'payments'>) =>
  apiHandler(async (req) => {
    const { email } = validate(PortalQuery, req.query, ['query']);
    const gateway = requireGateway(await deps.payments());
    const key = await resolveKeyHolder(req.headers, deps.keys);
    if (!key)
      throw new UnauthorizedError(
        'Send your API key as `Authorization: Bearer <key>` to open the billing portal of its account. ' +
          lostKeyHelp(deps.config),
      );
    const account = key.accountId ? await deps.accounts.get(key.accountId) : undefined;
    if (!account || account.accountId.startsWith('guest_'))
      throw new HttpError(
        409,
        'This key has no billing account with the payment provider (it was issued by an administrator). Contact support.',
      );
    if (!account.email || normalizeEmail(email) !== normalizeEmail(account.email))
      throw new HttpError(
        403,
        "This e-mail is not the one of this key's account. Use the e-mail you paid with.",
      );
    const portal = await gateway.createPortal(account.accountId, returnUrl(req, deps.config));
    return json(200, { url: portal.url }, NO_STORE);
  });

export const handler = makeHandler(awsDeps());
