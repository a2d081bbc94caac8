// The one place a plaintext API key exists at rest: between the webhook that issues it and the buyer's first
// GET /pay/success. It is sealed with AES-256-GCM under a key derived (HKDF-SHA256, random salt) from the Checkout
// Session id, which only the buyer (redirected to success_url with it) and Stripe know, and stored under a hash of
// that id. So the `accounts` table alone — a backup, an export, a read-only role — neither reveals the key nor
// lets anyone pick it up. The sealed copy is removed on the first pick-up and is useless after KEY_PICKUP_HOURS
// (checked on read; DynamoDB TTL then deletes the item). Trade-off: whoever holds the session id within the window
// (the buyer's browser history, Stripe) can pick the key up once; KMS would add nothing against that holder, and
// a key shown once and lost is replaced by rotation (docs/billing.md).
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';

const INFO = 'narration api key pick-up v1';

/** The stored name of a Checkout Session: its id is a pick-up credential, so only a hash is kept. */
export function sessionRef(sessionId: string): string {
  return createHash('sha256').update(`checkout-session:${sessionId}`).digest('hex');
}

function keyFor(sessionId: string, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', sessionId, salt, INFO, 32));
}

/** `v1.<salt>.<iv>.<ciphertext>.<tag>` (base64url), bound to the session by the key and the associated data. */
export function sealKey(apiKey: string, sessionId: string): string {
  const salt = randomBytes(16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(sessionId, salt), iv);
  cipher.setAAD(Buffer.from(sessionRef(sessionId)));
  const ct = Buffer.concat([cipher.update(apiKey, 'utf8'), cipher.final()]);
  return ['v1', salt, iv, ct, cipher.getAuthTag()]
    .map((p) => (typeof p === 'string' ? p : p.toString('base64url')))
    .join('.');
}

/** The key sealed by sealKey; throws if the session id is not the one it was sealed with or the data changed. */
export function openKey(sealed: string, sessionId: string): string {
  const [v, salt, iv, ct, tag] = sealed.split('.');
  if (v !== 'v1' || !salt || !iv || !ct || !tag) throw new Error('unrecognised sealed key format');
  const decipher = createDecipheriv(
    'aes-256-gcm',
    keyFor(sessionId, Buffer.from(salt, 'base64url')),
    Buffer.from(iv, 'base64url'),
  );
  decipher.setAAD(Buffer.from(sessionRef(sessionId)));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}
