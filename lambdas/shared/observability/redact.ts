// What never reaches a log line: credentials (Authorization headers, API keys, Stripe secrets and signatures, webhook
// secrets, dashboard tokens) and callers' content (texts, HTML, template data, request bodies). Applied to every
// key/value the logger serializes (lambdas/shared/logger.ts, Powertools `jsonReplacerFn`), so an error object or a
// header map logged by mistake is cleaned too. Ids, counts, sizes and key prefixes stay: they are what an operator
// searches by.

export const REDACTED = '[REDACTED]';

/** Keys whose value is a credential, whatever it looks like (header names, config names, error fields). */
const SECRET_KEY =
  /authorization|cookie|passw(?:or)?d|secret|signature|token|credential|api[-_]?key|private[-_]?key/i;

/** Keys whose value is a caller's content: logged as its size only. (`template` is not one: it is a slug.) */
const CONTENT_KEYS = new Set([
  'text',
  'texts',
  'html',
  'custom_html',
  'customhtml',
  'body',
  'rawbody',
  'data',
  'content',
  'markdown',
  'output',
]);

/** Credentials recognisable by their shape, wherever they appear inside a string (messages, stacks). */
const SECRET_PATTERNS: [RegExp, string][] = [
  // Authorization: Bearer key_… / Basic …
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{6,}/gi, `$1 ${REDACTED}`],
  // Stripe secret and restricted keys, webhook signing secrets.
  [/\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{6,}/g, REDACTED],
  [/\bwhsec_[A-Za-z0-9+/=]{6,}/g, REDACTED],
  // The Stripe-Signature header value: t=<timestamp>,v1=<hex>[,v0=<hex>].
  [/\bt=\d+(?:,\s*v\d+=[0-9a-fA-F]+)+/g, REDACTED],
  // Our API keys (lambdas/shared/auth/keys.ts: key_ + 43 base64url characters). Short key prefixes stay readable.
  [/\bkey_[A-Za-z0-9_-]{20,}/g, REDACTED],
  // AWS access key ids.
  [/\b(?:AKIA|ASIA)[A-Z0-9]{16}\b/g, REDACTED],
];

/** Longer strings are callers' content (or close enough): only their size is logged. */
export const MAX_LOGGED_STRING = 2000;
/** Stack traces are kept (they are ours), up to this size. */
const MAX_STACK = 4000;

export function scrubString(value: string): string {
  let out = value;
  for (const [pattern, replacement] of SECRET_PATTERNS) out = out.replace(pattern, replacement);
  return out;
}

function sizeOf(value: unknown): string {
  if (typeof value === 'string') return `[redacted: ${[...value].length} chars]`;
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[redacted: ${value.byteLength} bytes]`;
  return '[redacted]';
}

/**
 * JSON.stringify replacer: drops credentials and content by key, scrubs credential-shaped substrings from every
 * string, and replaces very long strings by their size.
 */
export function redactReplacer(key: string, value: unknown): unknown {
  if (key === '' || value === null || value === undefined) return value;
  if (SECRET_KEY.test(key)) return REDACTED;
  if (CONTENT_KEYS.has(key.toLowerCase())) return typeof value === 'number' ? value : sizeOf(value);
  if (typeof value !== 'string') return value;
  if (key === 'stack') {
    const scrubbed = scrubString(value);
    return scrubbed.length > MAX_STACK ? `${scrubbed.slice(0, MAX_STACK)}…` : scrubbed;
  }
  if (value.length > MAX_LOGGED_STRING) return sizeOf(value);
  return scrubString(value);
}

/** A deep copy of `value` with redactReplacer applied (for anything printed without the logger). */
export function redact<T>(value: T): unknown {
  const json = JSON.stringify(value, redactReplacer);
  return json === undefined ? undefined : (JSON.parse(json) as unknown);
}
