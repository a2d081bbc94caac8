// Documents that never reach the caller are not counted: a request the route's deadline already answered (503,
// "please retry") whose render finishes later, and a large document whose storing fails. apiHandler passes middy's
// abort signal (aborted at the early timeout) as ApiRequest.signal.
import type { Context } from 'aws-lambda';
import type { DocumentsDeps } from '../../lambdas/documents/deps';
import { makeHandler as makeRenderHandler } from '../../lambdas/documents/handlers/render';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { config } from '../../lambdas/documents/config';
import {
  slotsFor,
  type QuotaDecision,
  type QuotaStore,
  type WindowRule,
} from '../../lambdas/shared/quota/windows';
import { apiEvent } from '../helpers/api-event';
import { until } from '../helpers/until';

const event = (body: unknown) =>
  apiEvent('POST', '/v1/render', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

/** The Lambda has `ms` left: middy answers 503 500 ms before that. */
const contextWith = (ms: number) =>
  ({ functionName: 'f', awsRequestId: 'r', getRemainingTimeInMillis: () => ms }) as unknown as Context;

function deps(renderMs: number, commitMs = 0) {
  const charged: QuotaDecision[] = [];
  const refunded: QuotaDecision[] = [];
  // Deltas written to the GET /stats document counter (written while rendering, taken back when not delivered).
  const counted: number[] = [];
  let finished!: () => void;
  const renderDone = new Promise<void>((r) => (finished = r));
  const quotas: QuotaStore = {
    consume: async (subject, rules, now = new Date(), opts = {}) => {
      const slots = slotsFor(subject, rules, now);
      const all = slots.map((s) => ({ ...s, remaining: s.limit - 1 }));
      const d = {
        allowed: true,
        charged: slots,
        binding: all[0]!,
        all,
        slots,
        ...(opts.hold ? { hold: opts.hold.id } : {}),
      };
      charged.push(d);
      return d;
    },
    refund: async (d) => void refunded.push(d),
    commit: async () => void (await new Promise((r) => setTimeout(r, commitMs))),
    peek: async () => [],
  };
  const slow = async () => {
    await new Promise((r) => setTimeout(r, renderMs));
    finished();
    return Buffer.from('%PDF-1.7 fake');
  };
  const d = {
    config: config(),
    quotas,
    keys: { findByHash: async () => undefined },
    growth: {
      add: async (_k: string, deltas: { documents: number }) => void counted.push(deltas.documents),
      putIfAbsent: async () => true,
      getMany: async () => new Map(),
    },
    results: { publish: async () => 'http://127.0.0.1/never' },
    renderer: async () => ({ renderPdf: slow, renderPng: slow }),
    now: () => new Date(),
  } as unknown as DocumentsDeps;
  const net = () => counted.reduce((a, b) => a + b, 0);
  return { d, charged, refunded, net, renderDone };
}

const factura = TEMPLATES.find((t) => t.meta.slug === 'factura')!;
const body = { template: 'factura', format: 'pdf', data: factura.sample };

test('POST /v1/render answered 503 by the deadline: the render finishing later is refunded and not counted', async () => {
  const { d, charged, refunded, net, renderDone } = deps(800);
  const res = (await makeRenderHandler(d)(event(body), contextWith(700))) as {
    statusCode: number;
    headers: Record<string, string>;
  };
  expect(res.statusCode).toBe(503);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(charged).toHaveLength(1);
  await renderDone;
  await new Promise((r) => setTimeout(r, 50));
  // The render's charge is given back; the cut counts once against the free caller's budget of cut requests.
  const cut = (dd: QuotaDecision) => dd.binding.key.startsWith('cut#');
  expect(refunded).toEqual(charged.filter((dd) => !cut(dd)));
  expect(charged.filter(cut)).toHaveLength(1);
  expect(net()).toBe(0);
});

test('within the deadline nothing changes: 200, charged once, counted, no refund', async () => {
  const { d, charged, refunded, net } = deps(10);
  const res = (await makeRenderHandler(d)(event(body), contextWith(60_000))) as { statusCode: number };
  expect(res.statusCode).toBe(200);
  expect(charged).toHaveLength(1);
  expect(refunded).toEqual([]);
  expect(net()).toBe(1);
});

test('a large document whose storing fails (303 path) is refunded and not counted: the caller got no document', async () => {
  const { d, charged, refunded, net } = deps(1);
  const failing = {
    ...d,
    config: { ...d.config, DOCUMENTS_INLINE_MAX_BYTES: 4 },
    results: {
      publish: async () => {
        throw new Error('S3 unavailable');
      },
    },
  } as unknown as DocumentsDeps;
  const res = (await makeRenderHandler(failing)(event(body), contextWith(60_000))) as { statusCode: number };
  expect(res.statusCode).toBe(500);
  expect(refunded).toEqual(charged);
  expect(net()).toBe(0);
});

test('the deadline answers 503 while the charge is committed: the committed charge is given back, not counted', async () => {
  // Rendered at once, then the commit (a DynamoDB write, slow on a loaded machine) outlasts the deadline.
  const { d, charged, refunded, net } = deps(1, 600);
  const res = (await makeRenderHandler(d)(event(body), contextWith(700))) as { statusCode: number };
  expect(res.statusCode).toBe(503);
  const cut = (dd: QuotaDecision) => dd.binding.key.startsWith('cut#');
  // The commit ends 600 ms after it began; then the handler settles.
  await until('the charge given back', async () => (refunded.length ? true : undefined), 5_000);
  // Given back without its hold (the commit ended it), as a plain unit.
  const { hold, ...unheld } = charged.find((dd) => !cut(dd))!;
  expect(hold).toBe('req-1'); // held under the request id while rendering
  expect(refunded).toEqual([unheld]);
  expect(charged.filter(cut)).toHaveLength(1);
  expect(net()).toBe(0);
});

test('a free caller past its budget of cut requests: 429 before its body is parsed and before any charge', async () => {
  const { d, charged, refunded } = deps(1);
  const spent = {
    ...d.quotas,
    peek: async (subject: string, rules: WindowRule[], now = new Date()) => {
      expect(subject).toMatch(/^cut#/);
      return slotsFor(subject, rules, now).map((s) => ({ ...s, used: s.limit }));
    },
  };
  const handler = makeRenderHandler({ ...d, quotas: spent } as DocumentsDeps);
  // Not even JSON: parsed first, this body would answer 422.
  const res = (await handler(
    apiEvent('POST', '/v1/render', { headers: { 'content-type': 'application/json' }, body: '{"template":' }),
    contextWith(60_000),
  )) as { statusCode: number; headers: Record<string, string>; body: string };
  expect(res.statusCode).toBe(429);
  expect(res.headers['retry-after']).toMatch(/^\d+$/);
  expect(JSON.parse(res.body).detail).toContain('allowance of requests cut at their deadline');
  expect(charged).toEqual([]);
  expect(refunded).toEqual([]);
  // The early refusal speaks the caller's language like every other answer (Accept-Language).
  const es = (await handler(
    apiEvent('POST', '/v1/render', {
      headers: { 'content-type': 'application/json', 'accept-language': 'es-MX' },
      body: '{"template":',
    }),
    contextWith(60_000),
  )) as { statusCode: number; body: string };
  expect(es.statusCode).toBe(429);
  expect(JSON.parse(es.body).detail).toMatch(
    /^Demasiadas solicitudes de esta dirección superaron el cupo de \d+ por hora de solicitudes cortadas por tiempo: .*documentos más pequeños/,
  );
  // A key's request is not the free budget's: the same store, a key header, the body parsed (422 here).
  const keyed = (await handler(
    apiEvent('POST', '/v1/render', {
      headers: { 'content-type': 'application/json', authorization: 'Bearer dk_unknown' },
      body: '{"template":',
    }),
    contextWith(60_000),
  )) as { statusCode: number };
  expect(keyed.statusCode).not.toBe(429);
});
