// What every answer of both APIs must look like, whatever was sent (the fuzz property). Returns the problems found
// (empty = the answer honours the contract):
// - status 2xx, 3xx or 4xx; never 5xx (a 503 only where a test injects a fault on purpose);
// - 3xx carries Location; a JSON content type carries JSON; HEAD answers carry no body;
// - 4xx is JSON `{"detail": ...}`: narration 422 lists items `{loc, msg, type}` (FastAPI / pydantic shape),
//   documents 400 lists items (which may add `ctx`) or gives one message, every other 4xx has a message string;
// - no error body leaks a stack trace or a source path.
import type { RawRequest, RawResponse } from './http';

export type Service = 'narration' | 'documents';

const ITEM_KEYS = new Set(['loc', 'msg', 'type', 'ctx', 'input']);
const STACK_FRAME = /\bat [^\n]*\(?[^\s()]+\.(?:ts|js|mjs|cjs):\d+:\d+\)?/;
const SOURCE_PATH = /(?:\/lambdas\/|\/node_modules\/|\/work\/|\/var\/task\/)/;

function checkItems(detail: unknown, where: string): string[] {
  if (!Array.isArray(detail) || detail.length === 0)
    return [`${where}: detail should be a non-empty list of {loc, msg, type}, got ${preview(detail)}`];
  const problems: string[] = [];
  detail.forEach((item: unknown, i) => {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.push(`${where}: detail[${i}] is not an object`);
      return;
    }
    const it = item as Record<string, unknown>;
    const loc = it.loc;
    if (
      !Array.isArray(loc) ||
      loc.length === 0 ||
      !loc.every((p) => typeof p === 'string' || (typeof p === 'number' && Number.isInteger(p)))
    )
      problems.push(`${where}: detail[${i}].loc should be a non-empty list of strings/integers`);
    if (typeof it.msg !== 'string' || it.msg.length === 0)
      problems.push(`${where}: detail[${i}].msg should be a message`);
    if (typeof it.type !== 'string' || !/^[a-z][a-z0-9_.]*$/.test(it.type))
      problems.push(`${where}: detail[${i}].type should be a snake_case error type, got ${preview(it.type)}`);
    const extra = Object.keys(it).filter((k) => !ITEM_KEYS.has(k));
    if (extra.length) problems.push(`${where}: detail[${i}] has unexpected keys ${extra.join(', ')}`);
    if (it.ctx !== undefined && (it.ctx === null || typeof it.ctx !== 'object'))
      problems.push(`${where}: detail[${i}].ctx should be an object`);
  });
  return problems;
}

export function preview(v: unknown, max = 160): string {
  let s: string;
  try {
    s = typeof v === 'string' ? JSON.stringify(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = String(v);
  }
  return s.length > max ? `${s.slice(0, max)}…(${s.length} chars)` : s;
}

function header(res: RawResponse, name: string): string {
  const v = res.headers[name];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

export interface CheckOptions {
  /** A test injected a dependency fault: 503 with Retry-After is a correct answer. */
  allow503?: boolean;
}

export function checkAnswer(
  service: Service,
  req: RawRequest,
  res: RawResponse,
  opts: CheckOptions = {},
): string[] {
  const problems: string[] = [];
  const status = res.status;
  const type = header(res, 'content-type').toLowerCase();
  const text = res.body.toString('utf8');

  if (status >= 500) {
    if (!(opts.allow503 && status === 503))
      problems.push(`status ${status} (server error): ${preview(text)}`);
  } else if (status < 200) problems.push(`status ${status}`);

  if (req.method === 'HEAD') {
    // HEAD answers have headers only (Node drops any body): nothing more to check.
    if (res.body.length > 0) problems.push('a HEAD answer carries a body');
    return problems;
  }

  if ([301, 302, 303, 307, 308].includes(status) && !header(res, 'location'))
    problems.push(`redirect ${status} without Location`);

  let parsed: unknown;
  let isJson = false;
  if (/^application\/(?:[\w.+-]*\+)?json\b/.test(type) && res.body.length > 0) {
    try {
      parsed = JSON.parse(text);
      isJson = true;
    } catch {
      problems.push(`content-type ${type} but the body is not JSON: ${preview(text)}`);
    }
  }

  if (status >= 400) {
    if (!isJson) problems.push(`error ${status} is not JSON (content-type '${type}'): ${preview(text)}`);
    else if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed) || !('detail' in parsed))
      problems.push(`error ${status} body is not {"detail": ...}: ${preview(parsed)}`);
    else {
      const detail = (parsed as { detail: unknown }).detail;
      if (service === 'narration' && status === 422) problems.push(...checkItems(detail, '422'));
      else if (service === 'documents' && status === 400) {
        // Documents' invalid requests: every problem as items, or one message (house convention).
        if (typeof detail !== 'string' || detail.trim() === '') problems.push(...checkItems(detail, '400'));
      } else if (service === 'documents' && status === 422) {
        // The documents contract has no 422: invalid requests, oversize bodies included, are 400.
        problems.push(`documents answered 422 (its contract says 400): ${preview(detail)}`);
      } else if (typeof detail !== 'string' || detail.trim() === '')
        problems.push(`error ${status} detail should be a message string, got ${preview(detail)}`);
    }
    if (STACK_FRAME.test(text) || SOURCE_PATH.test(text))
      problems.push(`error body leaks a stack trace or a source path: ${preview(text, 400)}`);
  }
  return problems;
}

const BASELINE_PROTO = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Nothing a request did may leak onto Object.prototype (the handlers run in this process). */
export function prototypeProblems(): string[] {
  const added = Object.getOwnPropertyNames(Object.prototype).filter((k) => !BASELINE_PROTO.has(k));
  const enumerable = Object.keys(Object.prototype);
  const odd = [...new Set([...added, ...enumerable])];
  return odd.length ? [`Object.prototype was polluted with ${odd.join(', ')}`] : [];
}
