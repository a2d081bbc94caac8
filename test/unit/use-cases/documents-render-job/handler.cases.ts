// POST /v1/render with options.async, the handler on fakes (cases of ../documents-render-job.test.ts, whose helpers
// they take): an Idempotency-Key's retry, a key's job chain after a failed job, and a job accepted after its deadline.
import type { Context } from 'aws-lambda';
import type { DocumentsDeps } from '../../../../lambdas/documents/deps';
import { config } from '../../../../lambdas/documents/config';
import { makeHandler as makeRenderHandler } from '../../../../lambdas/documents/handlers/render';
import { hashKey, type ApiKeyRecord } from '../../../../lambdas/shared/auth/keys';
import type { IdempotencyStore } from '../../../../lambdas/shared/idempotency/idempotency';
import { apiEvent } from '../../../helpers/api-event';
import { eventIdFor } from '../../../../lambdas/documents/use-cases/jobs';
import { runRenderJob, type RenderJobDeps } from '../../../../lambdas/documents/use-cases/jobs-render';
import { FakeJobFiles, FakeJobRepository, FakeMessageQueue } from '../../../fakes/documents';
import { FakeQuotaStore } from '../../../fakes/platform';

/** The test file's killAt: the process dies when it calls `method` of `port` (the call never returns). */
type KillAt = <P extends object, K extends keyof P>(
  port: P,
  method: K,
) => { dead: Promise<void>; revive(): void };

export function handlerCases({
  T0,
  csv,
  killAt,
  unrenderable,
}: {
  T0: Date;
  csv: Record<string, unknown>;
  killAt: KillAt;
  unrenderable: (n: number) => Record<string, unknown>;
}): void {
  describe('POST /v1/render (async): the handler', () => {
    const TOKEN = 'key_async_retry_test_0123456789ab';
    /** The handler on fakes, for a Scale key; `remainingMs`: the invocation's time left (its deadline). */
    function world(remainingMs = 60_000) {
      const jobs = new FakeJobRepository(() => T0, 60);
      const renderQueue = new FakeMessageQueue();
      const quotas = new FakeQuotaStore();
      const key: ApiKeyRecord = {
        keyHash: hashKey(TOKEN),
        keyPrefix: TOKEN.slice(0, 10),
        plan: 'scale',
        status: 'active',
        email: 'a@example.com',
        createdAt: T0.toISOString(),
        accountId: 'cus_1',
      };
      // The key's record as a request that died leaves it: its lease lapsed, so every attempt takes the key over.
      const idempotency: IdempotencyStore = {
        begin: async () => ({ state: 'started' }),
        complete: async () => undefined,
        release: async () => undefined,
      };
      const deps = {
        config: config(),
        quotas,
        keys: { findByHash: async (h: string) => (h === key.keyHash ? key : undefined) },
        growth: { add: async () => ({}) },
        now: () => T0,
        brands: { get: async () => undefined },
        jobs,
        jobFiles: new FakeJobFiles(),
        renderQueue,
        idempotency,
      } as unknown as DocumentsDeps;
      const post = async (headers: Record<string, string> = {}, body: object = csv) =>
        (await makeRenderHandler(deps)(
          apiEvent('POST', '/v1/render', {
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}`, ...headers },
            body: JSON.stringify({ ...body, options: { async: true } }),
          }),
          {
            functionName: 'f',
            awsRequestId: 'r',
            getRemainingTimeInMillis: () => remainingMs,
          } as unknown as Context,
        )) as { statusCode: number; body: string };
      const used = () => [...quotas.counts.values()].reduce((a, b) => a + b, 0);
      // The render worker on the same stores.
      const worker: RenderJobDeps = {
        jobs,
        jobFiles: deps.jobFiles,
        renderQueue,
        deliveryQueue: new FakeMessageQueue(),
        quotas,
        subscribed: async () => true,
        renderer: async () => ({
          renderPdf: () => Promise.reject(new Error('chromium crashed')),
          renderPng: () => Promise.reject(new Error('chromium crashed')),
        }),
        recordRender: async () => undefined,
        now: () => T0,
        maxAttempts: 3,
      };
      return { jobs, renderQueue, quotas, post, used, worker };
    }

    // A key's retry after its job failed was charged under the key's id again, which that job's refund gives back:
    // a redelivery that ends the failed job late (its worker died before or after giving the charge back) took the
    // retry's charge with it. The retry's job now has a charge id of its own (keyedChargeId).
    test.each([
      ['before giving its charge back', 'refund'],
      ['after giving its charge back', 'send'],
    ] as const)(
      "a key's retry after its job failed, its worker dead %s: the failed job's late end leaves the retry charged",
      async (_when, step) => {
        const { jobs, post, used, worker, quotas } = world();
        const key = { 'idempotency-key': `order-${step}` };
        const first = await post(key, unrenderable(2));
        const failed = JSON.parse(first.body).id as string;
        expect(used()).toBe(1);
        const kill =
          step === 'refund'
            ? killAt(quotas, 'refund')
            : killAt(worker.deliveryQueue as FakeMessageQueue, 'send');
        void runRenderJob(worker, failed, 1);
        await kill.dead;
        kill.revive();
        const retry = await post(key, unrenderable(2)); // the first request died: the key's record has no answer
        expect(retry.statusCode).toBe(202);
        const next = JSON.parse(retry.body).id as string;
        expect(next).not.toBe(failed);
        // The failed job's charge, if still there, was given back by the retry (under the key's id, once).
        expect(used()).toBe(1);
        expect(await runRenderJob(worker, failed, 2)).toBe('skipped'); // the dead worker's message, again
        expect(used()).toBe(1); // the retry's charge stays
        expect(await runRenderJob(worker, failed, 3)).toBe('skipped');
        expect(used()).toBe(1);
        expect(await jobs.get(next)).toMatchObject({
          status: 'queued',
          chargeId: expect.stringMatching(/\.1$/),
        });
        expect((worker.deliveryQueue as FakeMessageQueue).messages).toEqual([
          { jobId: failed, eventId: eventIdFor(failed, 'document.failed') },
        ]);
        // The key's next retry finds the retry's job (the key's chain: its failed job, then this one).
        expect(JSON.parse((await post(key, unrenderable(2))).body).id).toBe(next);
        expect(used()).toBe(1);
        // The retry's own failure gives back its own charge, once.
        expect(await runRenderJob(worker, next, 1)).toBe('failed');
        expect(used()).toBe(0);
      },
      5000, // a worker that never reaches the kill fails in seconds, not at jest's 30 s
    );

    // The worker takes the job as soon as it is queued and fails it (the caller's fault) before the route commits
    // the 202's held charge: its refund gave the charge back, and the route's commit, finding no hold, read it as a
    // hold outlived and charged again: a failed render charged. The refund now leaves a mark the commit reads.
    test.each([
      ['without', {}],
      ['with', { 'idempotency-key': 'order-fast-fail' }],
    ])(
      'a job its worker fails before the route commits its 202 (%s an Idempotency-Key): not charged',
      async (_with, headers) => {
        const { jobs, renderQueue, post, used, worker } = world();
        const send = renderQueue.send.bind(renderQueue);
        const outcomes: string[] = [];
        renderQueue.send = async (message, delayS) => {
          await send(message, delayS);
          outcomes.push(await runRenderJob(worker, String(message.jobId), 1));
        };
        const answer = await post(headers, unrenderable(3));
        expect(answer.statusCode).toBe(202);
        expect(outcomes).toEqual(['failed']);
        expect(await jobs.get(JSON.parse(answer.body).id)).toMatchObject({ status: 'failed' });
        expect(used()).toBe(0);
      },
    );

    test("with an Idempotency-Key: a retry that takes over a dead request's key answers that request's job", async () => {
      const { jobs, post, used } = world();
      const first = await post({ 'idempotency-key': 'order-42' });
      const retry = await post({ 'idempotency-key': 'order-42' });
      expect([first.statusCode, retry.statusCode]).toEqual([202, 202]);
      expect(JSON.parse(retry.body).id).toBe(JSON.parse(first.body).id);
      expect(jobs.items.size).toBe(1);
      expect(used()).toBe(1); // charged once
    });

    // A request that dies before its 202 answered nothing: its charge, held until then, is given back (the next
    // charge of its window gives back a hold past its time). Before, it was charged for good: before its job existed
    // (a charge for nothing), or with its job never queued (a charged job "queued" forever in the cloud).
    test.each([
      ['before its job exists', 'create'],
      ['after creating its job, before queueing it', 'send'],
    ] as const)('a request that dies %s: its held charge is given back', async (_when, step) => {
      const { jobs, renderQueue, post, used } = world();
      let died!: () => void;
      const dead = new Promise<void>((r) => (died = r));
      const stop = () => {
        died();
        return new Promise<never>(() => undefined); // the process is killed here
      };
      const create = jobs.create.bind(jobs);
      const send = renderQueue.send.bind(renderQueue);
      if (step === 'create') jobs.create = stop;
      else renderQueue.send = stop;
      void post();
      await dead;
      expect(used()).toBe(1);
      jobs.create = create;
      renderQueue.send = send;
      expect((await post()).statusCode).toBe(202); // the next render of the month: the dead one's hold given back
      expect(used()).toBe(1);
      expect(renderQueue.messages).toHaveLength(1);
    });

    test('accepted after the deadline answered 503 ("not counted"): the job is withdrawn and its charge given back', async () => {
      // 600 ms left: the route's signal aborts after 50 ms, the 503 leaves after 100 ms.
      const { jobs, renderQueue, quotas, post, used } = world(600);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      const send = renderQueue.send.bind(renderQueue);
      renderQueue.send = async (message, delayS) => {
        await held; // the queue is slow: the deadline's 503 leaves meanwhile
        return send(message, delayS);
      };
      // The evidence awaited: the charge given back (without the withdrawal nothing comes, and the test times out).
      let refunded!: () => void;
      const settled = new Promise<void>((r) => (refunded = r));
      const refund = quotas.refund.bind(quotas);
      quotas.refund = async (decision) => {
        await refund(decision);
        refunded();
      };
      const answer = await post();
      expect(answer.statusCode).toBe(503);
      release();
      await settled;
      const [job] = [...jobs.items.values()];
      expect(job).toMatchObject({ status: 'failed' });
      expect(renderQueue.messages).toEqual([{ jobId: job!.jobId }]); // queued, but its worker finds it failed
      expect(used()).toBe(0);
    }, 5000); // without the withdrawal the refund never comes: fail in seconds, not at jest's 30 s
  });
}
