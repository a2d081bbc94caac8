// Secrets kept out of a stored async render request. The request of an async render waits in S3 (jobs/<id>.json,
// up to 2 MiB: too large for an SQS message) until the render worker reads it. Its `options.password` (the PDF's
// encryption password) must not sit there in clear: the stored request carries it sealed (AES-256-GCM under a
// fresh random key per job), and the key lives only on the job's DynamoDB record (`requestSecret`). Neither store
// alone reveals the password; the stored request is deleted once the job settles (and by the jobs/ lifecycle rule
// otherwise), after which the key on the record (kept until its TTL, a day) opens nothing. No KMS call and no extra
// permission: the worker already reads both. A request stored before this change (a bare request body) still opens.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

const FORMAT = 'sealed-request-1';

interface Envelope {
  format: typeof FORMAT;
  /** The request body without its secrets. */
  request: unknown;
  /** base64url(iv 12 bytes | tag 16 bytes | AES-256-GCM ciphertext) of JSON {password}. */
  sealed?: string;
}

type Options = Record<string, unknown>;

function optionsOf(body: unknown): Options | undefined {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return undefined;
  const options = (body as { options?: unknown }).options;
  return options !== null && typeof options === 'object' && !Array.isArray(options)
    ? (options as Options)
    : undefined;
}

/**
 * What to store for an accepted request: the JSON text (the request without `options.password`, the password
 * sealed) and the key to keep on the job record (only when there was something to seal). `secret`: the key an
 * existing job already holds (an idempotent retry storing its request again), instead of a fresh one.
 */
export function sealRequest(body: unknown, secret?: string): { stored: string; secret?: string } {
  const options = optionsOf(body);
  if (options?.password === undefined) return { stored: JSON.stringify({ format: FORMAT, request: body }) };
  const { password, ...rest } = options;
  const key = secret ? Buffer.from(secret, 'base64url') : randomBytes(32);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const ct = Buffer.concat([cipher.update(JSON.stringify({ password }), 'utf8'), cipher.final()]);
  const envelope: Envelope = {
    format: FORMAT,
    request: { ...(body as object), options: rest },
    sealed: Buffer.concat([iv, cipher.getAuthTag(), ct]).toString('base64url'),
  };
  return { stored: JSON.stringify(envelope), secret: key.toString('base64url') };
}

/** The request as the caller sent it, from what sealRequest stored and the record's key. Throws if it cannot. */
export function openRequest(stored: string, secret: string | undefined): unknown {
  const parsed = JSON.parse(stored) as unknown;
  const envelope = parsed as Partial<Envelope> | null;
  if (envelope === null || typeof envelope !== 'object' || envelope.format !== FORMAT) return parsed; // older jobs
  if (envelope.sealed === undefined) return envelope.request;
  if (!secret) throw new Error('The stored render request is sealed and the job has no key to open it');
  const raw = Buffer.from(envelope.sealed, 'base64url');
  const decipher = createDecipheriv('aes-256-gcm', Buffer.from(secret, 'base64url'), raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(12, 28));
  const { password } = JSON.parse(
    Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8'),
  ) as { password: unknown };
  const request = envelope.request as { options?: Options };
  return { ...request, options: { ...request.options, password } };
}
