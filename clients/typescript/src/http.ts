// The transport both service clients share: base URL, API key, Accept-Language, JSON/bytes, retries and the
// automatic Idempotency-Key. Only `fetch` (Node ≥ 18, browsers, Deno, Bun): no other runtime dependency.
//
// Retries: a connection failure, 502/503/504, a 429 whose Retry-After is short enough, and a 409
// `idempotency_key_in_use` are retried (up to maxRetries, waiting Retry-After or an exponential backoff). The
// creating POSTs (convert, upload slot, render, demo) carry one Idempotency-Key generated per call and repeated on
// every retry, so a retried request whose first answer was lost is answered once, never run (or charged) twice.
import { ConnectionError, VozError, WaitTimeoutError, errorFromResponse, parseRetryAfter } from './errors';

export interface ClientOptions {
  /** API key (Authorization: Bearer). Default: none (free tier). The CLI reads VOZ_API_KEY. */
  apiKey?: string;
  /** Base URL of the service, e.g. https://api.example.com (no trailing slash needed). */
  baseUrl?: string;
  /** Language of the APIs' error messages (Accept-Language), e.g. "es". */
  language?: string;
  /** Retries of a failed request (default 2). */
  maxRetries?: number;
  /** A Retry-After longer than this (seconds) is not waited for: the error is thrown. Default 30. */
  maxRetryWaitS?: number;
  /** Per request (default 120 s). */
  timeoutMs?: number;
  /** A fetch implementation (default globalThis.fetch). */
  fetch?: typeof fetch;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
}

/** How long to wait for a job (narration, render, batch): WaitTimeoutError after timeoutMs (default 10 minutes). */
export interface PollOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
}

/** One answer of a polled resource: finished (`done`), or still `waiting` in the status named. */
export type PollStep<T> = { done: T } | { waiting: string };

export interface RequestOptions {
  query?: Record<string, string | number | boolean | undefined>;
  json?: unknown;
  body?: RequestInit['body'];
  headers?: Record<string, string>;
  /** Send an Idempotency-Key (generated unless given) on every attempt. */
  idempotent?: boolean;
  idempotencyKey?: string;
  redirect?: RequestInit['redirect'];
  /** Statuses returned rather than thrown, besides 2xx. */
  allow?: number[];
  signal?: AbortSignal;
  /** Send the API key (default true; false for presigned URLs). */
  auth?: boolean;
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    });
  });

export { sleep };

/** Bytes as a Blob of `type` (a Blob passes through). */
export const toBlob = (b: Uint8Array | ArrayBuffer | Blob, type: string): Blob =>
  b instanceof Blob
    ? b
    : new Blob([(b instanceof Uint8Array ? b : new Uint8Array(b)) as Uint8Array<ArrayBuffer>], { type });

/** A random Idempotency-Key (UUID v4). */
export function newIdempotencyKey(): string {
  return globalThis.crypto.randomUUID();
}

export class Transport {
  readonly baseUrl: string;
  private readonly opts: Required<Pick<ClientOptions, 'maxRetries' | 'maxRetryWaitS' | 'timeoutMs'>> &
    ClientOptions;

  constructor(defaultBaseUrl: string, options: ClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? defaultBaseUrl).replace(/\/+$/, '');
    this.opts = { maxRetries: 2, maxRetryWaitS: 30, timeoutMs: 120_000, ...options };
  }

  /** An absolute URL for a path of this service (absolute URLs pass through). */
  url(path: string, query?: RequestOptions['query']): string {
    const u = new URL(/^https?:\/\//.test(path) ? path : this.baseUrl + path);
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  /** Sends the request (retrying as above); answers the Response of a 2xx/allowed status, else throws VozError. */
  async request(method: string, path: string, ro: RequestOptions = {}): Promise<Response> {
    const doFetch = this.opts.fetch ?? globalThis.fetch;
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...this.opts.headers,
      ...ro.headers,
    };
    if (this.opts.apiKey && ro.auth !== false) headers.authorization = `Bearer ${this.opts.apiKey}`;
    if (this.opts.language) headers['accept-language'] = this.opts.language;
    let body = ro.body;
    if (ro.json !== undefined) {
      headers['content-type'] = 'application/json';
      body = JSON.stringify(ro.json);
    }
    if (ro.idempotent || ro.idempotencyKey)
      headers['idempotency-key'] = ro.idempotencyKey ?? newIdempotencyKey();
    // A POST without a key may have run when its answer was lost: retried only when the server refused it.
    const safeToResend = method !== 'POST' || 'idempotency-key' in headers;
    const url = this.url(path, ro.query);

    for (let attempt = 0; ; attempt++) {
      const last = attempt >= this.opts.maxRetries;
      const timeout = AbortSignal.timeout(this.opts.timeoutMs);
      const signal = ro.signal ? AbortSignal.any([ro.signal, timeout]) : timeout;
      let res: Response;
      try {
        res = await doFetch(url, { method, headers, body, redirect: ro.redirect ?? 'follow', signal });
      } catch (cause) {
        if (ro.signal?.aborted) throw cause;
        if (!last && safeToResend) {
          await sleep(this.backoffMs(attempt), ro.signal);
          continue;
        }
        throw new ConnectionError(`${method} ${url}: no answer (${(cause as Error).message})`, { cause });
      }
      if ((res.status >= 200 && res.status < 300) || ro.allow?.includes(res.status)) return res;
      const text = await res.text();
      let parsed: unknown;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = text;
      }
      const err = errorFromResponse(res.status, parsed, res.headers);
      const waitS = this.retryWaitS(err, attempt);
      if (!last && waitS !== undefined) {
        await sleep(waitS * 1000, ro.signal);
        continue;
      }
      throw err;
    }
  }

  /** JSON of a request's answer. */
  async json<T>(method: string, path: string, ro: RequestOptions = {}): Promise<T> {
    const res = await this.request(method, path, ro);
    return (res.status === 204 ? undefined : await res.json()) as T;
  }

  /** Sends a file to a presigned S3 POST (its fields first, unchanged; no API key goes there). */
  async sendPresigned(
    upload: { url: string; fields: Record<string, string>; file_field: string },
    file: Blob,
    filename: string,
  ): Promise<void> {
    const form = new FormData();
    for (const [k, v] of Object.entries(upload.fields)) form.set(k, v);
    form.set(upload.file_field, file, filename);
    await this.request('POST', upload.url, { body: form, auth: false, headers: { accept: '*/*' } });
  }

  /**
   * GETs `path` until `step` says it is done: between answers it waits the API's Retry-After (1 s when absent),
   * and gives up with WaitTimeoutError at the deadline. `allow`: statuses `step` reads besides 2xx.
   */
  async poll<T>(
    path: string,
    opts: PollOptions & { allow?: number[] },
    step: (res: Response, body: unknown) => PollStep<T>,
  ): Promise<T> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    for (;;) {
      const res = await this.request('GET', path, { allow: opts.allow, signal: opts.signal });
      const body: unknown = await res.json();
      const s = step(res, body);
      if ('done' in s) return s.done;
      const left = deadline - Date.now();
      if (left <= 0)
        throw new WaitTimeoutError(`${path}: still ${s.waiting}`, { code: 'wait_timeout', body });
      await sleep(Math.min((Number(res.headers.get('retry-after')) || 1) * 1000, left), opts.signal);
    }
  }

  private backoffMs(attempt: number): number {
    return Math.min(8000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2);
  }

  /** Seconds to wait before retrying `err`, or undefined when it is not retried. */
  private retryWaitS(err: VozError, attempt: number): number | undefined {
    const retryable =
      [502, 503, 504].includes(err.status) ||
      err.status === 429 ||
      (err.status === 409 && err.code === 'idempotency_key_in_use');
    if (!retryable) return undefined;
    const wait = err.retryAfterS ?? this.backoffMs(attempt) / 1000;
    return wait <= this.opts.maxRetryWaitS ? wait : undefined;
  }
}

export { parseRetryAfter };
