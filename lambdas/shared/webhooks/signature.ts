// Webhook signatures (Stripe's scheme), one implementation for every service. Every callback carries
//   <Service>-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=<...>]
// (documents: Docs-Signature, narration: Voz-Signature; the header names are each service's WebhookBrand),
// where the key is the endpoint's whole signing secret string (`whsec_…`). While a rotated secret is still valid
// (GET /v1/webhook shows until when) a second v1= signed with the previous secret is appended: a receiver that
// checks any of the v1 values against its one secret keeps working across a rotation.
//
// This file is self-contained (node:crypto only) so customers can copy verifySignature() as it is; the API
// descriptions of both services (lambdas/shared/webhooks/api-docs.ts) print it.
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Receivers should reject signatures older (or newer) than this: 5 minutes, as Stripe's libraries do. */
export const DEFAULT_TOLERANCE_S = 300;

/** The hex HMAC-SHA256 of `<t>.<body>` under `secret`. */
export function computeSignature(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret)
    .update(`${timestamp}.`, 'utf8')
    .update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
    .digest('hex');
}

/** The Docs-Signature value for `body` at `timestamp`, one v1 per secret (current first). */
export function signatureHeader(
  secrets: readonly string[],
  timestamp: number,
  body: string | Buffer,
): string {
  return [`t=${timestamp}`, ...secrets.map((s) => `v1=${computeSignature(s, timestamp, body)}`)].join(',');
}

/**
 * Verifies a signature header against the raw request body (the exact bytes received, before any JSON
 * parsing) and the endpoint's signing secret. True when the timestamp is within `toleranceS` of now and one of the
 * v1 signatures matches; false otherwise (malformed header included). Comparison is constant-time.
 *
 *   app.post('/hooks/docs', express.raw({ type: 'application/json' }), (req, res) => {
 *     if (!verifySignature(process.env.DOCS_WEBHOOK_SECRET, req.get('Docs-Signature'), req.body)) return res.sendStatus(400);
 *     const event = JSON.parse(req.body.toString('utf8'));   // dedupe on event.id (also in Docs-Event-Id)
 *     res.sendStatus(200);
 *   });
 */
export function verifySignature(
  secret: string,
  header: string | undefined | null,
  body: string | Buffer,
  toleranceS: number = DEFAULT_TOLERANCE_S,
  nowS: number = Math.floor(Date.now() / 1000),
): boolean {
  if (!secret || !header) return false;
  let timestamp: number | undefined;
  const signatures: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) signatures.push(value.toLowerCase());
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowS - timestamp) > toleranceS) return false;
  const expected = Buffer.from(computeSignature(secret, timestamp, body), 'hex');
  let ok = false;
  // Every candidate is compared (no early exit), each in constant time.
  for (const sig of signatures) if (timingSafeEqual(expected, Buffer.from(sig, 'hex'))) ok = true;
  return ok;
}
