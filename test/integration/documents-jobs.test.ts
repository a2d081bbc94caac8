// Async renders and webhook deliveries below HTTP: the DynamoDB adapters (jobs, webhook endpoints) against the
// emulator, the render worker's use case with its failure paths, and one delivery attempt against a loopback
// receiver (every other connect is refused and recorded by the tripwire; names resolve through a stub).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { runRenderJob, type RenderJobDeps } from '../../lambdas/documents/use-cases/jobs-render';
import { eventIdFor, type MessageQueue } from '../../lambdas/documents/use-cases/jobs';
import {
  MAX_RECORDED_DELIVERIES,
  type DeliveryAttempt,
  type JobRecord,
  type WebhookEventType,
} from '../../lambdas/documents/ports';
import {
  DeliveryFailedError,
  deliverEvent,
  type DeliveryDeps,
  type WebhookEndpoint,
} from '../../lambdas/documents/use-cases/webhooks';
import { verifySignature } from '../../lambdas/shared/webhooks/signature';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoJobRepository } from '../../lambdas/documents/adapters/job-repository';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { DynamoWebhookStore } from '../../lambdas/shared/aws/webhook-store';
import { parseAllowlist, stubResolver } from '../../lambdas/shared/net/safe-fetch';
import { jobRecord } from '../fakes/documents';
import { withEmulators } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { rejectsAsHttp } from '../helpers/as-http';

jest.setTimeout(60_000);

let emu: Awaited<ReturnType<typeof withEmulators>>;
let jobs: DynamoJobRepository;
let webhooks: DynamoWebhookStore<WebhookEventType>;
let quotas: DynamoQuotaStore;
let tripwire: Tripwire;
const T0 = new Date('2026-03-01T12:00:00Z');
/** The job store's clock (lease and updatedAt). */
let clock = T0;
beforeAll(async () => {
  emu = await withEmulators();
  jobs = new DynamoJobRepository(dynamo(), emu.tableNames.accounts, () => clock, 60);
  webhooks = new DynamoWebhookStore<WebhookEventType>(dynamo(), emu.tableNames.accounts);
  quotas = new DynamoQuotaStore(dynamo(), emu.tableNames.quotas);
  tripwire = installLoopbackTripwire();
});
afterAll(async () => {
  tripwire.uninstall();
  await emu.cleanup();
});
afterEach(() => {
  clock = T0;
  expect(tripwire.attempts).toEqual([]);
});

let seq = 0;
async function newJob(extra: Partial<JobRecord> = {}): Promise<JobRecord> {
  const job = jobRecord({ jobId: `job_test${String(++seq).padStart(18, '0')}`, ...extra }, T0);
  await jobs.create(job);
  return job;
}

describe('DynamoJobRepository', () => {
  test('create once; claim is exclusive until the lease runs out; release gives it back', async () => {
    const job = await newJob();
    await expect(jobs.create(job)).rejects.toThrow();
    const claimed = await jobs.claim(job.jobId, 1);
    expect(claimed).toMatchObject({ status: 'rendering', attempts: 1 });
    clock = new Date(T0.getTime() + 30_000);
    expect(await jobs.claim(job.jobId, 2)).toBeUndefined();
    // The first worker died: after its lease another delivery takes the job over.
    clock = new Date(T0.getTime() + 61_000);
    expect(await jobs.claim(job.jobId, 2)).toMatchObject({
      attempts: 2,
    });
    await jobs.release(job.jobId);
    expect((await jobs.get(job.jobId))!.status).toBe('queued');
    expect((await jobs.get(job.jobId))!.leaseUntil).toBeUndefined();
  });

  test('complete and fail settle once; a failed job cannot complete and vice versa', async () => {
    const a = await newJob();
    await jobs.claim(a.jobId, 1);
    const event = {
      id: eventIdFor(a.jobId, 'document.rendered'),
      type: 'document.rendered' as const,
      queued: false,
    };
    await jobs.complete(a.jobId, {
      result: { key: 'k', filename: 'v.csv', contentType: 'text/csv', bytes: 3 },
      event,
    });
    expect(await jobs.fail(a.jobId, 'late')).toBe(false);
    expect(await jobs.get(a.jobId)).toMatchObject({
      status: 'done',
      progress: 1,
      event,
      result: { bytes: 3 },
    });
    await jobs.markEventQueued(a.jobId);
    expect((await jobs.get(a.jobId))!.event!.queued).toBe(true);

    const b = await newJob();
    const problems = [{ loc: ['body', 'custom_html'], msg: 'bad', type: 'template_syntax_error' }];
    expect(await jobs.fail(b.jobId, 'why', { problems })).toBe(true);
    expect(await jobs.fail(b.jobId, 'again')).toBe(false);
    await jobs.complete(b.jobId, { result: { key: 'k', filename: 'f', contentType: 'c', bytes: 1 } });
    expect(await jobs.get(b.jobId)).toMatchObject({ status: 'failed', error: 'why', problems });
  });

  test('deliveries are appended in order and bounded', async () => {
    const job = await newJob();
    const attempt = (n: number): DeliveryAttempt => ({
      eventId: 'evt_x',
      type: 'document.rendered',
      attempt: n,
      at: T0.toISOString(),
      outcome: 'failed',
      statusCode: 500,
      durationMs: 1,
      nextAttemptAt: null,
    });
    for (let i = 1; i <= MAX_RECORDED_DELIVERIES + 2; i++) await jobs.addDelivery(job.jobId, attempt(i));
    const stored = (await jobs.get(job.jobId))!.deliveries!;
    expect(stored).toHaveLength(MAX_RECORDED_DELIVERIES);
    expect(stored.map((d) => d.attempt).slice(0, 3)).toEqual([1, 2, 3]);
  });

  test('listUnfinished finds queued and rendering jobs only', async () => {
    const q = await newJob();
    const r = await newJob();
    await jobs.claim(r.jobId, 1);
    const d = await newJob();
    await jobs.fail(d.jobId, 'x');
    const ids = (await jobs.listUnfinished(1000)).map((j) => j.jobId);
    expect(ids).toEqual(expect.arrayContaining([q.jobId, r.jobId]));
    expect(ids).not.toContain(d.jobId);
  });

  test('listSettledWithEvents finds settled jobs that have an event only (the restart re-queues those)', async () => {
    const withEvent = await newJob();
    const event = {
      id: eventIdFor(withEvent.jobId, 'document.rendered'),
      type: 'document.rendered' as const,
    };
    await jobs.complete(withEvent.jobId, { event: { ...event, queued: true } });
    const failed = await newJob();
    await jobs.fail(failed.jobId, 'x', {
      event: { id: eventIdFor(failed.jobId, 'document.failed'), type: 'document.failed', queued: false },
    });
    const silent = await newJob();
    await jobs.complete(silent.jobId, {});
    const queued = await newJob();
    const ids = (await jobs.listSettledWithEvents(1000)).map((j) => j.jobId);
    expect(ids).toEqual(expect.arrayContaining([withEvent.jobId, failed.jobId]));
    expect(ids).not.toContain(silent.jobId);
    expect(ids).not.toContain(queued.jobId);
  });
});

describe('DynamoWebhookStore', () => {
  const endpoint = (secret: string): WebhookEndpoint => ({
    owner: 'acct:cus_w',
    url: 'https://hooks.example.com/x',
    events: ['document.rendered', 'document.failed'],
    secret,
    createdAt: T0.toISOString(),
    updatedAt: T0.toISOString(),
    changedBy: 'key_abc',
  });

  test('created once; replaced only by whoever read the current secret (else 409); removed', async () => {
    await webhooks.put(endpoint('whsec_1'));
    await expect(rejectsAsHttp(webhooks.put(endpoint('whsec_2')))).resolves.toMatchObject({
      statusCode: 409,
    });
    await webhooks.put(endpoint('whsec_2'), 'whsec_1');
    await expect(rejectsAsHttp(webhooks.put(endpoint('whsec_3'), 'whsec_1'))).resolves.toMatchObject({
      statusCode: 409,
    });
    expect((await webhooks.get('acct:cus_w'))!.secret).toBe('whsec_2');
    expect(await webhooks.remove('acct:cus_w')).toBe(true);
    expect(await webhooks.remove('acct:cus_w')).toBe(false);
    expect(await webhooks.get('acct:cus_w')).toBeUndefined();
  });
});

/** A queue that records what is sent and what visibility is set. */
function recordingQueue() {
  const sent: Record<string, unknown>[] = [];
  const retries: number[] = [];
  const queue: MessageQueue = {
    send: async (m) => void sent.push(m),
    retryAfter: async (_h, s) => void retries.push(s),
  };
  return { queue, sent, retries };
}

describe('runRenderJob', () => {
  const request = {
    template: 'ventas',
    format: 'csv',
    data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 2 }] },
  };
  function deps(over: { body?: string | undefined; renderFails?: boolean; subscribed?: boolean } = {}) {
    const deliveries = recordingQueue();
    const stored: string[] = [];
    const d: RenderJobDeps = {
      jobs,
      quotas,
      jobFiles: {
        putRequest: async () => undefined,
        getRequest: async () => ('body' in over ? over.body : JSON.stringify(request)),
        deleteRequest: async () => undefined,
        deleteResult: async () => undefined,
        putResult: async (id, doc) => {
          stored.push(id);
          return {
            key: `results/jobs/${id}/${doc.filename}`,
            filename: doc.filename,
            contentType: doc.contentType,
            bytes: doc.bytes.length,
          };
        },
        presignResult: async () => 'https://s3.invalid/x',
      },
      renderQueue: recordingQueue().queue,
      deliveryQueue: deliveries.queue,
      subscribed: async () => over.subscribed ?? true,
      renderer: async () => ({
        renderPdf: async () => {
          throw new Error('chromium crashed');
        },
        renderPng: async () => Buffer.alloc(0),
      }),
      recordRender: async () => undefined,
      now: () => T0,
      maxAttempts: 3,
    };
    return { d, deliveries, stored };
  }
  const charge = async (subject: string) =>
    (await quotas.consume(subject, [{ period: 'month', limit: 10 }], T0)).charged;
  const used = async (subject: string) =>
    (await quotas.peek(subject, [{ period: 'month', limit: 10 }], T0))[0]!.used;

  test('done: result stored, event queued once, a duplicate delivery does nothing', async () => {
    const job = await newJob({ charged: await charge('docs#s1') });
    const { d, deliveries, stored } = deps();
    expect(await runRenderJob(d, job.jobId, 1)).toBe('done');
    expect(await jobs.get(job.jobId)).toMatchObject({ status: 'done', event: { queued: true } });
    expect(deliveries.sent).toEqual([
      { jobId: job.jobId, eventId: eventIdFor(job.jobId, 'document.rendered') },
    ]);
    expect(await runRenderJob(d, job.jobId, 2)).toBe('skipped');
    expect(deliveries.sent).toHaveLength(1);
    expect(stored).toEqual([job.jobId]);
    expect(await used('docs#s1')).toBe(1); // a delivered document counts
  });

  test("the caller's fault (bad stored request) fails at once: reason + problems, charge given back once", async () => {
    const job = await newJob({ charged: await charge('docs#s2') });
    const bad = JSON.stringify({ template: 'ventas', format: 'csv', data: { title: 1 } });
    const { d, deliveries } = deps({ body: bad });
    expect(await runRenderJob(d, job.jobId, 1)).toBe('failed');
    const failed = (await jobs.get(job.jobId))!;
    expect(failed.status).toBe('failed');
    expect(failed.problems![0]!.loc.slice(0, 2)).toEqual(['body', 'data']);
    expect(deliveries.sent).toEqual([
      { jobId: job.jobId, eventId: eventIdFor(job.jobId, 'document.failed') },
    ]);
    expect(await used('docs#s2')).toBe(0);
    expect(await runRenderJob(d, job.jobId, 2)).toBe('skipped');
    expect(await used('docs#s2')).toBe(0); // not refunded twice
  });

  test('a fault on our side is retried (released), and the last attempt fails the job and refunds', async () => {
    const job = await newJob({ format: 'pdf', template: null, charged: await charge('docs#s3') });
    const pdf = { custom_html: '<p>{{ n }}</p>', format: 'pdf', data: { n: 1 } };
    const { d, deliveries } = deps({ body: JSON.stringify(pdf), subscribed: false });
    await expect(runRenderJob(d, job.jobId, 1)).rejects.toThrow(/chromium crashed/);
    expect((await jobs.get(job.jobId))!.status).toBe('queued');
    expect(await used('docs#s3')).toBe(1);
    await expect(runRenderJob(d, job.jobId, 2)).rejects.toThrow(/chromium crashed/);
    await expect(runRenderJob(d, job.jobId, 3)).rejects.toThrow(/chromium crashed/); // on to the DLQ
    const failed = (await jobs.get(job.jobId))!;
    expect(failed.error).toMatch(/on our side after 3 attempts/);
    expect(failed.event).toBeUndefined(); // no endpoint subscribed: no event
    expect(deliveries.sent).toEqual([]);
    expect(await used('docs#s3')).toBe(0);
  });

  test('a job whose request expired fails with a reason', async () => {
    const job = await newJob();
    const { d } = deps({ body: undefined });
    expect(await runRenderJob(d, job.jobId, 1)).toBe('failed');
    expect((await jobs.get(job.jobId))!.error).toMatch(/expired/);
  });
});

describe('deliverEvent: one attempt, against a loopback receiver', () => {
  let server: Server;
  let port = 0;
  const hits: { path: string; headers: Record<string, unknown>; body: string }[] = [];
  const answers: Record<string, { status: number; headers?: Record<string, string> }> = {};
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        hits.push({ path: req.url!, headers: req.headers, body });
        const a = answers[req.url!] ?? { status: 200 };
        // A large answer: the status line is all a delivery reads.
        res.writeHead(a.status, a.headers).end('x'.repeat(2 * 1024 * 1024));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  async function setup(url: string, status: JobRecord['status'] = 'done') {
    // Deliveries run on real time (signatures carry it), so the job is available a day from now, not from T0.
    const job = await newJob({
      owner: `acct:${url}`,
      resultExpiresAt: Math.floor(Date.now() / 1000) + 86_400,
    });
    const event = {
      id: eventIdFor(job.jobId, 'document.rendered'),
      type: 'document.rendered' as const,
      queued: true,
    };
    if (status === 'done')
      await jobs.complete(job.jobId, {
        result: { key: 'k', filename: 'v.csv', contentType: 'text/csv', bytes: 3 },
        event,
      });
    const secret = 'whsec_integration';
    await webhooks.put({
      owner: job.owner,
      url,
      events: ['document.rendered', 'document.failed'],
      secret,
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      changedBy: 'k',
    });
    const q = recordingQueue();
    const d: DeliveryDeps = {
      jobs,
      webhooks,
      jobFiles: {
        putRequest: async () => undefined,
        getRequest: async () => undefined,
        deleteRequest: async () => undefined,
        deleteResult: async () => undefined,
        putResult: async () => ({ key: '', filename: '', contentType: '', bytes: 0 }),
        presignResult: async (r, ttl) => `https://s3.invalid/${r.key}?ttl=${ttl}`,
      },
      deliveryQueue: q.queue,
      webhookPolicy: {
        allowlist: parseAllowlist('127.0.0.1'),
        resolver: stubResolver({ 'receiver.test': ['127.0.0.1'], 'inside.test': ['10.9.8.7'] }),
        timeoutMs: 2000,
      },
      config: { WEBHOOK_RETRY_SCHEDULE_S: [60, 300], JOB_DOWNLOAD_TTL_S: 600 },
      now: () => new Date(),
    };
    return { job, event, secret, d, q, message: { jobId: job.jobId, eventId: event.id } };
  }

  test('2xx: delivered, signed, recorded; the large answer body is not read', async () => {
    const { d, q, message, secret, job } = await setup(`http://127.0.0.1:${port}/ok`);
    expect(await deliverEvent(d, message, 1, 'rh')).toBe('delivered');
    const hit = hits.find((h) => h.path === '/ok')!;
    expect(verifySignature(secret, String(hit.headers['docs-signature']), hit.body)).toBe(true);
    expect(JSON.parse(hit.body).data.job).toMatchObject({
      id: job.jobId,
      download_url: 'https://s3.invalid/k?ttl=600',
    });
    expect(q.retries).toEqual([]);
    expect((await jobs.get(job.jobId))!.deliveries).toEqual([
      expect.objectContaining({ attempt: 1, outcome: 'delivered', statusCode: 200, nextAttemptAt: null }),
    ]);
    // Already delivered: a duplicate message sends nothing.
    expect(await deliverEvent(d, message, 2, 'rh')).toBe('skipped');
    expect(hits.filter((h) => h.path === '/ok')).toHaveLength(1);
  });

  test('non-2xx: the retry is scheduled by the schedule; the last attempt reappears at once (→ DLQ)', async () => {
    answers['/err'] = { status: 502 };
    const { d, q, message, job } = await setup(`http://127.0.0.1:${port}/err`);
    for (const attempt of [1, 2, 3])
      await expect(deliverEvent(d, message, attempt, 'rh')).rejects.toBeInstanceOf(DeliveryFailedError);
    expect(q.retries).toEqual([60, 300, 0]);
    const recorded = (await jobs.get(job.jobId))!.deliveries!;
    expect(recorded.map((r) => [r.attempt, r.outcome, r.statusCode])).toEqual([
      [1, 'failed', 502],
      [2, 'failed', 502],
      [3, 'failed', 502],
    ]);
    expect(recorded[0]!.nextAttemptAt).not.toBeNull();
    expect(recorded[2]!.nextAttemptAt).toBeNull();
  });

  test('a redirect is not followed: failed attempt, the target never hit', async () => {
    answers['/moved'] = { status: 307, headers: { location: `http://127.0.0.1:${port}/elsewhere` } };
    const { d, message, job } = await setup(`http://127.0.0.1:${port}/moved`);
    await expect(deliverEvent(d, message, 1, 'rh')).rejects.toBeInstanceOf(DeliveryFailedError);
    expect(hits.some((h) => h.path === '/elsewhere')).toBe(false);
    expect((await jobs.get(job.jobId))!.deliveries![0]).toMatchObject({
      outcome: 'failed',
      error: expect.stringMatching(/redirect/),
    });
  });

  test('refused before connecting: a name resolving to a private address, http to a non-allowlisted host', async () => {
    for (const url of [`https://inside.test:${port}/x`, `http://inside.test:${port}/y`]) {
      const { d, message, job } = await setup(url);
      await expect(deliverEvent(d, message, 1, 'rh')).rejects.toBeInstanceOf(DeliveryFailedError);
      expect((await jobs.get(job.jobId))!.deliveries![0]).toMatchObject({
        outcome: 'refused',
        statusCode: null,
      });
    }
    // The stubbed name that maps to the (allowlisted) receiver is delivered, over http too.
    const ok = await setup(`http://receiver.test:${port}/named`);
    expect(await deliverEvent(ok.d, ok.message, 1, 'rh')).toBe('delivered');
    expect(tripwire.attempts).toEqual([]);
  });

  test('no endpoint any more: recorded as skipped, nothing sent', async () => {
    const { d, message, job } = await setup(`http://127.0.0.1:${port}/gone`);
    await webhooks.remove(job.owner);
    expect(await deliverEvent(d, message, 1, 'rh')).toBe('skipped');
    expect((await jobs.get(job.jobId))!.deliveries![0]).toMatchObject({ outcome: 'skipped' });
    expect(hits.some((h) => h.path === '/gone')).toBe(false);
  });
});
