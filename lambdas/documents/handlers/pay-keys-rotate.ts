// POST /pay/keys/rotate — replaces the Bearer key: 200 {api_key, key_prefix, revoked_key_prefix, plan, status,
// message}. The new key carries the account's plan and state; the old key stops working at once (401). A lapsed key
// may rotate too. Unknown/revoked key → 401; a key not issued by a purchase → 409; concurrent rotations → one 409.
import { payKeysRotateRoute } from '../../shared/billing/handlers';
import { DOCUMENTS_PAY } from '../billing';
import { awsDeps, type DocumentsDeps } from '../deps';

export const makeHandler = (deps: DocumentsDeps) => payKeysRotateRoute(DOCUMENTS_PAY, deps);

export const handler = makeHandler(awsDeps());
