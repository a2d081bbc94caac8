// Who is calling: an anonymous client (free tier, limited per IP) or the holder of an active paid key.
import { createHash } from 'node:crypto';
import { UnauthorizedError } from '../http/errors';
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
  const token = bearerToken(headers['authorization']);
  if (token === undefined) return { kind: 'anonymous', subject: ipSubject(clientIp) };
  if (token === null)
    throw new UnauthorizedError(
      'Malformed Authorization header. Send `Authorization: Bearer <API key>`, or no header for the free tier.',
    );
  const key = await keys.findByHash(hashKey(token));
  if (!key)
    throw new UnauthorizedError(
      'Unknown API key. Check for typos, or send no Authorization header to use the free tier.',
    );
  if (key.status !== 'active')
    throw new UnauthorizedError(
      'This API key was revoked. Create a new one from your account, or contact support.',
    );
  return { kind: 'key', subject: 'key#' + key.keyHash.slice(0, 32), key };
}
