// POST /pay/keys/rotate — replaces the Bearer key (leaked, or simply due): 200 {api_key, key_prefix,
// revoked_key_prefix, plan, status, message}. The new key carries the account's plan and state; the old key stops
// working at once (401). A key whose subscription lapsed may rotate too. Unknown/revoked key → 401; a key not
// issued by a purchase → 409; two concurrent rotations of one key → one succeeds, the other 409.
import { payKeysRotateRoute } from '../../shared/billing/handlers';
import { NARRATION_PAY } from '../billing';
import { awsDeps, type NarrationDeps } from '../deps';

export const makeHandler = (deps: NarrationDeps) => payKeysRotateRoute(NARRATION_PAY, deps);

export const handler = makeHandler(awsDeps());
