// GET /pay/success?session_id=cs_… — where Stripe sends the buyer after paying. 200 {plan, status, paid_access,
// key_prefix, api_key, message}: `api_key` is the plaintext key in the first answer only (atomic pick-up within
// KEY_PICKUP_HOURS), null afterwards with a message on replacing a lost key. If the webhook has not arrived yet,
// Stripe is asked and the purchase fulfilled here. Missing/malformed session_id → 422; unknown → 404; checkout
// not completed or payment pending → 409.
import { paySuccessRoute } from '../../shared/billing/handlers';
import { NARRATION_PAY } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: NarrationDeps) => paySuccessRoute(NARRATION_PAY, deps);

export const handler = makeHandler(awsDeps());
