// Webhook signatures of both services (Stripe's scheme; the services' lambdas/shared/webhooks/signature.ts):
//   Voz-Signature (narration) / Docs-Signature (documents): t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>[,v1=…]
// keyed with the endpoint's whole secret string (`whsec_…`). During a secret rotation a second v1 (the previous
// secret) is appended: any v1 matching is enough. Web Crypto only, so it runs in Node ≥ 18, browsers and workers.

export const NARRATION_SIGNATURE_HEADER = 'Voz-Signature';
export const DOCUMENTS_SIGNATURE_HEADER = 'Docs-Signature';
/** Signatures older (or newer) than this are refused: 5 minutes, as the services document. */
export const DEFAULT_TOLERANCE_S = 300;

export interface VerifyOptions {
  toleranceS?: number;
  /** "Now" in unix seconds (tests). */
  nowS?: number;
}

const enc = new TextEncoder();
const toBytes = (b: string | Uint8Array | ArrayBuffer) =>
  typeof b === 'string' ? enc.encode(b) : b instanceof Uint8Array ? b : new Uint8Array(b);

async function hmacHex(secret: string, timestamp: number, body: Uint8Array): Promise<string> {
  const key = await globalThis.crypto.subtle.importKey(
    'raw',
    enc.encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign'],
  );
  const prefix = enc.encode(`${timestamp}.`);
  const msg = new Uint8Array(prefix.length + body.length);
  msg.set(prefix);
  msg.set(body, prefix.length);
  const sig = new Uint8Array(await globalThis.crypto.subtle.sign('HMAC', key, msg));
  return Array.from(sig, (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Constant-time comparison of two equal-length hex strings. */
function sameHex(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/**
 * True when `header` (the Voz-Signature or Docs-Signature value) signs `rawBody` — the exact bytes received, before
 * any JSON parsing — under `secret`, within the tolerance.
 */
export async function verifySignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array | ArrayBuffer,
  options: VerifyOptions = {},
): Promise<boolean> {
  if (!secret || !header) return false;
  let timestamp: number | undefined;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-f]{64}$/i.test(value)) candidates.push(value.toLowerCase());
  }
  if (timestamp === undefined || candidates.length === 0) return false;
  const now = options.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - timestamp) > (options.toleranceS ?? DEFAULT_TOLERANCE_S)) return false;
  const expected = await hmacHex(secret, timestamp, toBytes(rawBody));
  let ok = false;
  for (const c of candidates) if (sameHex(expected, c)) ok = true;
  return ok;
}

/** A webhook event as both services send it (`type`: audio.completed, document.rendered, …). */
export interface WebhookEvent<T = Record<string, unknown>> {
  id: string;
  type: string;
  created?: number | string;
  data: T;
  [k: string]: unknown;
}

export class WebhookSignatureError extends Error {}

/** Verifies the signature and parses the event; throws WebhookSignatureError when it does not verify. */
export async function constructEvent<T = Record<string, unknown>>(
  secret: string,
  header: string | null | undefined,
  rawBody: string | Uint8Array | ArrayBuffer,
  options: VerifyOptions = {},
): Promise<WebhookEvent<T>> {
  if (!(await verifySignature(secret, header, rawBody, options)))
    throw new WebhookSignatureError('webhook signature does not verify');
  return JSON.parse(new TextDecoder().decode(toBytes(rawBody))) as WebhookEvent<T>;
}
