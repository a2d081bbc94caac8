// Idempotency-Key (Stripe's semantics) for the POSTs that create something or charge, once for both services.
// A route opts in with `idempotent: true` in its spec; its handler passes `idempotency(route, deps)` to apiHandler,
// which runs the route function inside it (`withIdempotency`):
//
//   no header                         → the request runs as always
//   first use of a key                → runs; a final answer (2xx, or a 4xx that depends only on the request) is kept
//                                       24 h and the key's record says so; other answers (401/402/403/409/429, 5xx,
//                                       a thrown error) release the key so a retry runs again
//   same key, same request, finished  → the kept answer, replayed: same status, body and key headers (content-type,
//                                       location, content-disposition, cache-control, retry-after) plus
//                                       `Idempotent-Replayed: true`; nothing runs, nothing is charged
//   same key, different request       → 422 `idempotency_key_reused` (method, path, query and body are compared)
//   same key while the first is still running → 409 `idempotency_key_in_use` with Retry-After: the caller retries
//                                       and then gets the replay. (We answer at once rather than holding a Lambda
//                                       waiting for another one.)
//
// Exact under concurrency: the key is taken with one DynamoDB conditional put (IdempotencyStore.begin), so of 50
// parallel requests exactly one runs. Keys are scoped per caller — the API key sent (its hash), or the client IP for
// anonymous callers — so two callers can never see each other's answers. A running request holds its key on a short
// lease (LEASE_S) that it renews while it runs, so a key whose request died without an answer (a crash, a Lambda
// timeout) is taken over by the retry within seconds; routes that create something derive its id from the key
// (idempotentId), so the retry continues the same conversion instead of starting (and charging) another.
import { createHash } from 'node:crypto';
import { gunzipSync, gzipSync } from 'node:zlib';
import { ipSubject } from '../auth/resolve-caller';
import { bearerToken } from '../auth/keys';
import { Conflict, InvalidInput } from '../errors';
import type { AroundRoute } from '../http/api-handler';
import type { ApiRequest } from '../http/request';
import type { ApiResult } from '../http/response';
import { logger } from '../logger';
import type { RouteSpec } from '../manifest';

export const IDEMPOTENCY_HEADER = 'idempotency-key';
export const REPLAYED_HEADER = 'idempotent-replayed';
/** How long a finished answer is replayed (Stripe: 24 h). */
export const IDEMPOTENCY_TTL_S = 24 * 3600;
/** Kept answers are stored gzipped in one DynamoDB item (400 KB max): above this they are not replayable. */
export const MAX_STORED_BYTES = 300 * 1024;
const KEY_RE = /^[\x21-\x7e]{1,255}$/;
const KEPT_HEADERS = ['content-type', 'location', 'content-disposition', 'cache-control', 'retry-after'];
/** 4xx answers that depend only on the request (so replaying them is right); others may change with state. */
const KEPT_4XX = new Set([400, 404, 405, 413, 415, 422]);

export interface StoredResponse {
  statusCode: number;
  headers: Record<string, string>;
  /** gzip of the body (base64 decoded when the answer was binary). */
  body: Uint8Array;
  isBase64Encoded: boolean;
}

export type BeginResult =
  | { state: 'started' }
  | { state: 'in_progress'; fingerprint: string }
  | { state: 'completed'; fingerprint: string; response: StoredResponse | null };

/** The port (lambdas/shared/aws/idempotency-store.ts). */
export interface IdempotencyStore {
  /**
   * Takes `key` for this request (one conditional write): 'started' when this caller now owns it (absent, expired,
   * or a lock that lapsed), otherwise what holds it.
   */
  begin(key: string, fingerprint: string, lockS: number, now: Date): Promise<BeginResult>;
  /** Keeps the answer for IDEMPOTENCY_TTL_S (null: finished but too large to replay). */
  complete(key: string, fingerprint: string, response: StoredResponse | null, now: Date): Promise<void>;
  /** Frees the key (the answer is not one to replay). */
  release(key: string, fingerprint: string): Promise<void>;
  /** Extends a running request's lock to `lockS` from `now` (its heartbeat); stores without it keep the first lock. */
  renew?(key: string, fingerprint: string, lockS: number, now: Date): Promise<void>;
}

/** A running request's lease on its key, renewed every LEASE_S / 3 while it runs (stores with renew()). */
export const LEASE_S = 6;

export interface IdempotencyOptions {
  store: () => IdempotencyStore;
  /** Seconds the key stays locked by a running request (the route's timeout + a margin). */
  lockS: number;
  now?: () => Date;
}

/** apiHandler's options for a route: Idempotency-Key honoured when its spec says `idempotent: true`. */
export function idempotency(
  route: Pick<RouteSpec, 'timeoutS' | 'idempotent'>,
  deps: { readonly idempotency: IdempotencyStore; now?(): Date },
): { idempotency?: AroundRoute } {
  if (!route.idempotent) return {};
  const opts: IdempotencyOptions = {
    store: () => deps.idempotency,
    lockS: route.timeoutS + 30,
    // Read lazily: only a request that sends a key touches the deps.
    now: () => (deps.now ? deps.now() : new Date()),
  };
  return { idempotency: (req, run) => withIdempotency(req, opts, run) };
}

/**
 * A stable id for what the request creates, derived from its Idempotency-Key and caller (undefined without a key):
 * a retry that takes over a key whose first request died finds that request's conversion under the same id.
 */
export function idempotentId(req: Pick<ApiRequest, 'headers' | 'clientIp'>): string | undefined {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined || !KEY_RE.test(raw)) return undefined;
  return createHash('sha256')
    .update(`${callerScope(req)}\n${raw}`)
    .digest('base64url')
    .slice(0, 16);
}

/** Who the key belongs to: the API key sent (hashed), else the client's address (hashed). */
export function callerScope(req: Pick<ApiRequest, 'headers' | 'clientIp'>): string {
  const token = bearerToken(req.headers['authorization']);
  if (token) return 'key#' + createHash('sha256').update(token).digest('hex').slice(0, 32);
  return ipSubject(req.clientIp);
}

/** What "the same request" means: method, path, query and body bytes (and their content type). */
export function fingerprintOf(req: ApiRequest): string {
  const h = createHash('sha256');
  const query = Object.entries(req.query).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  h.update(`${req.method} ${req.path}\n${JSON.stringify(query)}\n${req.headers['content-type'] ?? ''}\n`);
  h.update(req.rawBody());
  return h.digest('hex');
}

function storable(result: ApiResult): StoredResponse | null {
  const raw =
    typeof result.body === 'string'
      ? Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8')
      : Buffer.alloc(0);
  const body = gzipSync(raw);
  if (body.length > MAX_STORED_BYTES) return null;
  const headers: Record<string, string> = {};
  for (const name of KEPT_HEADERS) {
    const v = result.headers?.[name];
    if (v !== undefined) headers[name] = String(v);
  }
  return { statusCode: result.statusCode ?? 200, headers, body, isBase64Encoded: !!result.isBase64Encoded };
}

function replay(stored: StoredResponse): ApiResult {
  const raw = gunzipSync(stored.body);
  return {
    statusCode: stored.statusCode,
    headers: { ...stored.headers, [REPLAYED_HEADER]: 'true' },
    body: stored.isBase64Encoded ? raw.toString('base64') : raw.toString('utf8'),
    isBase64Encoded: stored.isBase64Encoded,
  };
}

/** Runs `fn` under the request's Idempotency-Key (if it sent one); a malformed key is invalid input. */
export async function withIdempotency(
  req: ApiRequest,
  opts: IdempotencyOptions,
  fn: () => Promise<ApiResult>,
): Promise<ApiResult> {
  const raw = req.headers[IDEMPOTENCY_HEADER];
  if (raw === undefined) return fn();
  if (!KEY_RE.test(raw))
    throw new InvalidInput([
      {
        loc: ['header', 'Idempotency-Key'],
        msg: 'Idempotency-Key must be 1 to 255 visible ASCII characters (a UUID is a good choice)',
        type: 'idempotency_key_invalid',
      },
    ]);
  const now = () => opts.now?.() ?? new Date();
  const store = opts.store();
  const key = `${callerScope(req)}#${createHash('sha256').update(raw).digest('hex').slice(0, 40)}`;
  const fingerprint = fingerprintOf(req);
  const renews = typeof store.renew === 'function';
  const lockS = renews ? Math.min(opts.lockS, LEASE_S) : opts.lockS;
  const held = await store.begin(key, fingerprint, lockS, now());
  if (held.state !== 'started') {
    if (held.fingerprint !== fingerprint)
      throw new InvalidInput([
        {
          loc: ['header', 'Idempotency-Key'],
          msg:
            'This Idempotency-Key was already used with a different request (method, path, query or body) in ' +
            'the last 24 hours. Use a new key for a new request.',
          type: 'idempotency_key_reused',
        },
      ]);
    if (held.state === 'in_progress')
      throw new Conflict(
        'A request with this Idempotency-Key is still being processed. Retry in a moment to get its answer.',
        { type: 'idempotency_key_in_use' },
        2,
      );
    if (!held.response)
      throw new Conflict(
        'The request with this Idempotency-Key already succeeded, but its answer is too large to replay. ' +
          'It was not run again; fetch the result it created, or use a new key.',
        { type: 'idempotency_replay_unavailable' },
      );
    return replay(held.response);
  }
  let result: ApiResult;
  // The heartbeat: while this request runs its lease is renewed; if the process dies, it lapses within LEASE_S.
  const heartbeat = renews
    ? setInterval(
        () =>
          void store.renew!(key, fingerprint, lockS, now()).catch((e: unknown) =>
            logger.warn('idempotency lease not renewed', { error: e as Error }),
          ),
        (lockS * 1000) / 3,
      )
    : undefined;
  heartbeat?.unref();
  try {
    result = await fn();
  } catch (err) {
    await store.release(key, fingerprint).catch(() => undefined);
    throw err;
  } finally {
    clearInterval(heartbeat);
  }
  const status = result.statusCode ?? 200;
  try {
    if ((status >= 200 && status < 300) || KEPT_4XX.has(status))
      await store.complete(key, fingerprint, storable(result), now());
    else await store.release(key, fingerprint);
  } catch (err) {
    // The work is done and answered; the key stays locked until its lock lapses (then a retry runs again).
    logger.error('idempotency record not updated', { error: err as Error });
  }
  return result;
}
