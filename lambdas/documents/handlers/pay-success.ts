// GET /pay/success?session_id=cs_… — where Stripe sends the buyer after paying. 200 {plan, status, paid_access,
// key_prefix, api_key, message}: `api_key` is the plaintext key in the first answer only (atomic pick-up within
// KEY_PICKUP_HOURS), null afterwards. If the webhook has not arrived yet, Stripe is asked and the purchase fulfilled
// here. Missing/malformed session_id → 400; unknown, or not a documents purchase → 404; not completed or payment
// pending → 409.
import { paySuccessRoute } from '../../shared/billing/handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';

export const makeHandler = (deps: DocumentsDeps) => paySuccessRoute(DOCUMENTS_PAY, deps);

export const handler = makeHandler(awsDeps());
