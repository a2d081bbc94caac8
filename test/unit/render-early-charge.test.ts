// POST /v1/render charges a key already seen in this container while its record is read (one DynamoDB round trip
// instead of two). The read still decides: a revoked key gets 401 and nothing stays charged; a key whose plan changed
// is charged against its new plan (the early charge given back); an over-limit key gets 429 either way.
// Also: renders in flight together share the GET /stats counter write (lambdas/shared/growth/coalesce.ts), exactly.
import type { Context } from 'aws-lambda';
import type { DocumentsDeps } from '../../lambdas/documents/deps';
import { forgetKnownKeys, makeHandler } from '../../lambdas/documents/handlers/render';
import { TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { hashKey, type ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { config } from '../../lambdas/documents/config';
import { slotsFor, type QuotaDecision, type QuotaStore } from '../../lambdas/shared/quota/windows';
import { apiEvent } from '../helpers/api-event';
import { FakeQuotaStore } from '../fakes/platform';

const TOKEN = 'key_early_charge_test_0123456789';
const factura = TEMPLATES.find((t) => t.meta.slug === 'factura')!;

const event = () =>
  apiEvent('POST', '/v1/render', {
    headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ template: 'factura', format: 'html', data: factura.sample }),
  });

const context = {
  functionName: 'f',
  awsRequestId: 'r',
  getRemainingTimeInMillis: () => 60_000,
} as unknown as Context;

/** The handlers' clock, and the moment the tests compute their windows at: one month, even at a turn of it. */
const NOW = new Date();

/** An exact in-memory quota store (count per slot key; a charge over the limit is refused) and a key table. */
function world(record: ApiKeyRecord) {
  const counts = new Map<string, number>();
  const consumed: { subject: string; limit: number }[] = [];
  const quotas: QuotaStore = {
    consume: async (subject, rules, now = new Date()) => {
      const slots = slotsFor(subject, rules, now);
      consumed.push({ subject, limit: rules[0]!.limit });
      const used = counts.get(slots[0]!.key) ?? 0;
      if (used >= slots[0]!.limit) {
        const denied = { ...slots[0]!, remaining: 0 };
        return { allowed: false, charged: [], binding: denied, all: [denied], slots };
      }
      counts.set(slots[0]!.key, used + 1);
      const all = [{ ...slots[0]!, remaining: slots[0]!.limit - used - 1 }];
      return { allowed: true, charged: slots, binding: all[0]!, all, slots } as QuotaDecision;
    },
    refund: async (d) => {
      for (const s of d.charged) counts.set(s.key, (counts.get(s.key) ?? 0) - 1);
    },
    commit: async () => undefined,
    peek: async () => [],
  };
  const keys = { current: record as ApiKeyRecord | undefined };
  const deps = {
    config: config(),
    quotas,
    keys: { findByHash: async (h: string) => (h === record.keyHash ? keys.current : undefined) },
    growth: { add: async () => ({}), putIfAbsent: async () => true, getMany: async () => new Map() },
    results: { publish: async () => 'http://127.0.0.1/never' },
    renderer: async () => ({
      renderPdf: async () => Buffer.alloc(0),
      renderPng: async () => Buffer.alloc(0),
    }),
    now: () => NOW,
    // A key's factura reads its account's brand (PUT /v1/brand): none here.
    brands: { get: async () => undefined },
  } as unknown as DocumentsDeps;
  const total = () => [...counts.values()].reduce((a, b) => a + b, 0);
  return { deps, keys, consumed, counts, total };
}

const baseKey: ApiKeyRecord = {
  keyHash: hashKey(TOKEN),
  keyPrefix: TOKEN.slice(0, 10),
  plan: 'pro',
  status: 'active',
  email: 'early@example.com',
  createdAt: '2026-01-01T00:00:00.000Z',
};

const call = async (deps: DocumentsDeps) =>
  (await makeHandler(deps)(event(), context)) as { statusCode: number; headers: Record<string, string> };

beforeEach(() => forgetKnownKeys());

test('a key seen before is charged once per render, against its plan', async () => {
  const w = world(baseKey);
  expect((await call(w.deps)).statusCode).toBe(200);
  expect((await call(w.deps)).statusCode).toBe(200);
  expect(w.total()).toBe(2);
  expect(w.consumed.map((c) => c.limit)).toEqual([1000, 1000]);
});

test('a key revoked after it was seen: 401 and nothing stays charged', async () => {
  const w = world(baseKey);
  expect((await call(w.deps)).statusCode).toBe(200);
  w.keys.current = { ...baseKey, status: 'revoked' };
  expect((await call(w.deps)).statusCode).toBe(401);
  expect(w.consumed).toHaveLength(2); // the early charge ran ...
  expect(w.total()).toBe(1); // ... and was given back
  // Forgotten: the next request with it is not charged before the read.
  expect((await call(w.deps)).statusCode).toBe(401);
  expect(w.consumed).toHaveLength(2);
});

test('a key whose plan changed is charged against the new plan (the early charge given back)', async () => {
  const w = world(baseKey);
  expect((await call(w.deps)).statusCode).toBe(200);
  w.keys.current = { ...baseKey, plan: 'scale' };
  const res = await call(w.deps);
  expect(res.statusCode).toBe(200);
  expect(res.headers['ratelimit-limit']).toBe('10000');
  expect(w.consumed.map((c) => c.limit)).toEqual([1000, 1000, 10000]);
  expect(w.total()).toBe(2);
});

test('a key over its limit gets 429 whether charged early or not, and the counter stays at the limit', async () => {
  const w = world(baseKey);
  const slot = slotsFor(
    `docs#key#${baseKey.keyHash.slice(0, 32)}`,
    [{ period: 'month', limit: 1000 }],
    NOW,
  )[0]!;
  w.counts.set(slot.key, 999);
  expect((await call(w.deps)).statusCode).toBe(200);
  expect((await call(w.deps)).statusCode).toBe(429);
  expect(w.counts.get(slot.key)).toBe(1000);
});

test('a lapsed subscription (402) after the key was seen leaves nothing charged', async () => {
  const w = world({ ...baseKey, accountId: 'cus_1', billingStatus: 'active' });
  expect((await call(w.deps)).statusCode).toBe(200);
  w.keys.current = { ...baseKey, accountId: 'cus_1', billingStatus: 'canceled' };
  expect((await call(w.deps)).statusCode).toBe(402);
  expect(w.total()).toBe(1);
});

test('renders in flight together share GET /stats counter writes, and the counter stays exact', async () => {
  const w = world(baseKey);
  const totals: Record<string, number> = {};
  let writes = 0;
  const deps = {
    ...w.deps,
    growth: {
      ...w.deps.growth,
      add: async (_pk: string, deltas: Record<string, number>) => {
        writes++;
        await new Promise((r) => setImmediate(r)); // a write takes a turn of the event loop, as a socket does
        for (const [k, v] of Object.entries(deltas)) totals[k] = (totals[k] ?? 0) + v;
        return {};
      },
    },
  } as DocumentsDeps;
  const handler = makeHandler(deps);
  const answers = await Promise.all(
    Array.from({ length: 12 }, async () => (await handler(event(), context)) as { statusCode: number }),
  );
  expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
  expect(totals).toEqual({ documents: 12, format_html: 12 });
  expect(writes).toBeLessThan(12);
});

// The document renders while the quota charge is written (handlers/render.ts); the charge still decides.
describe('render beside the quota charge', () => {
  const pdfEvent = () =>
    apiEvent('POST', '/v1/render', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ template: 'factura', format: 'pdf', data: factura.sample }),
    });
  const slotKey = () =>
    slotsFor(`docs#key#${baseKey.keyHash.slice(0, 32)}`, [{ period: 'month', limit: 1000 }], NOW)[0]!.key;

  /** A world whose PDF render can be held, and whose GET /stats counter writes are recorded. */
  function held(record: ApiKeyRecord) {
    const w = world(record);
    const stats: Record<string, number> = {};
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let renders = 0;
    let renderStarted = false;
    /** A DynamoDB write takes turns of the event loop (a socket round trip): up to 200 here, fewer once the render has started. */
    const roundTrip = async () => {
      for (let i = 0; i < 200 && !renderStarted; i++) await new Promise((r) => setImmediate(r));
    };
    const deps = {
      ...w.deps,
      growth: {
        ...w.deps.growth,
        add: async (_pk: string, deltas: Record<string, number>) => {
          order.push('counter written');
          for (const [k, v] of Object.entries(deltas)) stats[k] = (stats[k] ?? 0) + v;
          return {};
        },
      },
      quotas: {
        ...w.deps.quotas,
        consume: async (...args: Parameters<QuotaStore['consume']>) => {
          order.push('charge started');
          await roundTrip();
          const d = await w.deps.quotas.consume(...args);
          order.push(d.allowed ? 'charge allowed' : 'charge refused');
          // The render finishes only some turns after the decision: it is the slower of the two.
          void (async () => {
            for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r));
            release();
          })();
          return d;
        },
      },
      renderer: async () => ({
        renderPdf: async () => {
          renders++;
          renderStarted = true;
          order.push('render started');
          await gate;
          order.push('render done');
          return Buffer.from('%PDF-1.7 held');
        },
        renderPng: async () => Buffer.alloc(0),
      }),
    } as unknown as DocumentsDeps;
    const send = async () =>
      (await makeHandler(deps)(pdfEvent(), context)) as {
        statusCode: number;
        headers: Record<string, string>;
        body: string;
      };
    return { ...w, deps, stats, order, send, renders: () => renders };
  }

  test('an allowed render runs while its charge is written, counted once in quota and stats', async () => {
    const w = held(baseKey);
    const res = await w.send();
    expect(res.statusCode).toBe(200);
    expect(Buffer.from(res.body, 'base64').toString()).toBe('%PDF-1.7 held');
    // The render started before the charge was decided (not after it, as a serial path would).
    expect(w.order.indexOf('render started')).toBeLessThan(w.order.indexOf('charge allowed'));
    expect(w.total()).toBe(1);
    expect(w.stats).toEqual({ documents: 1, format_pdf: 1 });
    // The counter write also started before the charge was decided.
    expect(w.order.indexOf('counter written')).toBeLessThan(w.order.indexOf('charge allowed'));
  });

  test('a refused charge with a slower render: 429 with its headers, nothing extra charged or counted', async () => {
    const w = held(baseKey);
    w.counts.set(slotKey(), 1000);
    const res = await w.send();
    const atAnswer = [...w.order];
    const statsAtAnswer = { ...w.stats };
    expect(res.statusCode).toBe(429);
    expect(JSON.parse(res.body).detail).toMatch(/Monthly limit reached: 1000 documents/);
    expect(res.headers['retry-after']).toMatch(/^\d+$/);
    expect(res.headers['ratelimit-remaining']).toBe('0');
    expect(res.body).not.toContain('%PDF');
    // The render ran beside the charge and had settled before the answer (nothing runs on after it).
    expect(atAnswer.filter((e) => !e.startsWith('counter'))).toEqual([
      'charge started',
      'render started',
      'charge refused',
      'render done',
    ]);
    expect(w.counts.get(slotKey())).toBe(1000);
    // Its counter increment, written beside the render, was taken back before the answer: GET /stats does not
    // count it.
    expect(statsAtAnswer.documents ?? 0).toBe(0);
    expect(statsAtAnswer.format_pdf ?? 0).toBe(0);
    // Refused once in this container: its next request waits for the charge and renders nothing.
    const again = await w.send();
    expect(again.statusCode).toBe(429);
    expect(w.renders()).toBe(1);
    expect(w.counts.get(slotKey())).toBe(1000);
    // Room again (a refund elsewhere): the charge decides, the render follows it and is delivered.
    w.counts.set(slotKey(), 999);
    const room = await w.send();
    expect(room.statusCode).toBe(200);
    expect(w.counts.get(slotKey())).toBe(1000);
    expect(w.stats).toEqual({ documents: 1, format_pdf: 1 });
  });

  test('a render that fails beside an allowed charge: the charge is given back and stats do not count it', async () => {
    const w = held(baseKey);
    const deps = {
      ...w.deps,
      renderer: async () => ({
        renderPdf: async () => {
          throw new Error('chromium crashed');
        },
        renderPng: async () => Buffer.alloc(0),
      }),
    } as unknown as DocumentsDeps;
    const res = (await makeHandler(deps)(pdfEvent(), context)) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(500);
    expect(JSON.parse(res.body).request_id).toBeTruthy();
    expect(w.total()).toBe(0);
    expect(w.stats.documents ?? 0).toBe(0);
  });

  test('a charge that fails (DynamoDB throttled): 503 after the render settled, nothing counted', async () => {
    const w = held(baseKey);
    const throttled = Object.assign(new Error('Rate exceeded'), {
      name: 'ThrottlingException',
      $metadata: { httpStatusCode: 400 },
    });
    const deps = {
      ...w.deps,
      quotas: {
        ...w.deps.quotas,
        consume: async () => {
          w.order.push('charge failed');
          setImmediate(() => w.order.push('released')); // the render finishes after the failure
          throw throttled;
        },
      },
      renderer: async () => ({
        renderPdf: async () => {
          w.order.push('render started');
          await new Promise((r) => setImmediate(r));
          await new Promise((r) => setImmediate(r));
          w.order.push('render done');
          return Buffer.from('%PDF-1.7');
        },
        renderPng: async () => Buffer.alloc(0),
      }),
    } as unknown as DocumentsDeps;
    const res = (await makeHandler(deps)(pdfEvent(), context)) as { statusCode: number; body: string };
    expect(res.statusCode).toBe(503);
    expect(res.body).not.toContain('%PDF');
    expect(w.order[w.order.length - 1]).toBe('render done');
    expect(w.total()).toBe(0);
    expect(w.stats.documents ?? 0).toBe(0);
  });
});

test('a render’s charge is held until its document is ready: committed when answered, given back when its process dies mid-render', async () => {
  const w = world(baseKey);
  const quotas = new FakeQuotaStore();
  let rendering!: () => void;
  const started = new Promise<void>((r) => (rendering = r));
  const deps = {
    ...w.deps,
    quotas,
    renderer: async () => ({
      renderPdf: () => {
        rendering();
        return new Promise<Buffer>(() => undefined); // the process dies before it finishes
      },
      renderPng: async () => Buffer.alloc(0),
    }),
  } as unknown as DocumentsDeps;
  const slots = slotsFor(`docs#key#${baseKey.keyHash.slice(0, 32)}`, [{ period: 'month', limit: 1000 }], NOW);
  const used = () => quotas.counts.get(slots[0]!.key) ?? 0;
  const held = () => quotas.holds.get(slots[0]!.key)?.size ?? 0;
  // Delivered: charged, nothing held; a restart gives nothing back.
  expect((await call(deps)).statusCode).toBe(200);
  expect({ used: used(), held: held() }).toEqual({ used: 1, held: 0 });
  // Dies mid-render: the charge is there but held; the restart gives it back.
  void makeHandler(deps)(
    apiEvent('POST', '/v1/render', {
      headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
      body: JSON.stringify({ template: 'factura', format: 'pdf', data: factura.sample }),
    }),
    context,
  );
  await started;
  expect({ used: used(), held: held() }).toEqual({ used: 2, held: 1 });
  expect(quotas.releaseHolds(slots, true)).toBe(1);
  expect({ used: used(), held: held() }).toEqual({ used: 1, held: 0 });
});
