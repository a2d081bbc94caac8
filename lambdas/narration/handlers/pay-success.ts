// GET /pay/success?session_id=cs_… — where Stripe sends the buyer after paying. 200 {plan, status, paid_access,
// key_prefix, api_key, message}: `api_key` is the plaintext key in the first answer only (atomic pick-up within
// KEY_PICKUP_HOURS), null afterwards with a message on replacing a lost key. If the webhook has not arrived yet,
// Stripe is asked and the purchase fulfilled here. Missing/malformed session_id → 422; unknown → 404; checkout
// not completed or payment pending → 409.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/http/validation';
import { SuccessQuery } from '../../shared/billing/requests';
import { pickUpKey } from '../../shared/billing/service';
import { NO_STORE } from '../../shared/billing/web';
import { awsDeps, type NarrationDeps } from '../deps';
import { billingDeps } from '../../shared/billing/deps';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(async (req) => {
    const { session_id } = validate(SuccessQuery, req.query, ['query']);
    const view = await pickUpKey(billingDeps(deps), session_id, await deps.payments());
    return json(200, view, NO_STORE);
  });

export const handler = makeHandler(awsDeps());
