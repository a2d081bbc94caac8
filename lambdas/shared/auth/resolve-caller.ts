// Who is calling: an anonymous client (free tier, limited per IP) or the holder of an active paid key.
// Unknown, malformed or revoked keys get 401; a key whose subscription lapsed (state copied onto the key by the
// Stripe webhook, docs/billing.md) gets 402 pointing to the billing portal.
import { createHash } from 'node:crypto';
import { PaymentRequired, Unauthenticated } from '../errors';
import { lapsedKeyDetail, hasPaidAccess } from './paid-access';
import { bearerToken, hashKey, type ApiKeyRecord, type KeyStore } from './keys';

export type Caller =
  { kind: 'anonymous'; subject: string } | { kind: 'key'; subject: string; key: ApiKeyRecord };

/** Free-tier subject: a hash of the address, so quota counters don't store raw IPs. */
export function ipSubject(ip: string): string {
  return 'ip#' + createHash('sha256').update(ip).digest('hex').slice(0, 32);
}

export async function resolveCaller(
  headers: Record<string, string>,
  clientIp: string,
  keys: KeyStore,
): Promise<Caller> {
  const key = await resolveKeyHolder(headers, keys);
  if (!key) return { kind: 'anonymous', subject: ipSubject(clientIp) };
  // Keys issued by billing carry their account's state (kept current by the Stripe webhook): no extra read here.
  if (key.billingStatus !== undefined && !hasPaidAccess(key.billingStatus))
    throw new PaymentRequired(lapsedKeyDetail(key.plan, key.billingStatus), {
      plan: key.plan,
      status: key.billingStatus,
    });
  return { kind: 'key', subject: 'key#' + key.keyHash.slice(0, 32), key };
}

/**
 * The active key record behind `Authorization: Bearer`: undefined without the header; 401 when malformed, unknown
 * or revoked. Its billing state is not judged here: the billing routes (/pay/status, /pay/portal, key rotation)
 * serve holders of a lapsed key too, who must still reach the portal and see why they lost paid access.
 */
export async function resolveKeyHolder(
  headers: Record<string, string>,
  keys: KeyStore,
): Promise<ApiKeyRecord | undefined> {
  const token = bearerToken(headers['authorization']);
  if (token === undefined) return undefined;
  if (token === null)
    throw new Unauthenticated(
      'Malformed Authorization header. Send `Authorization: Bearer <API key>`, or no header for the free tier.',
    );
  const key = await keys.findByHash(hashKey(token));
  if (!key)
    throw new Unauthenticated(
      'Unknown API key. Check for typos, or send no Authorization header to use the free tier.',
    );
  if (key.status !== 'active')
    throw new Unauthenticated(
      'This API key was revoked (replaced by POST /pay/keys/rotate, or withdrawn by support). Use the key that replaced it, or contact support.',
    );
  return key;
}
