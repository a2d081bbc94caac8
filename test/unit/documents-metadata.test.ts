// POST /v1/render `metadata`: the caller's own JSON object is validated (an object, ≤ 50 keys, ≤ 4 KiB as JSON; 400
// items at body.metadata otherwise), stored with an async job and echoed as sent by GET /v1/jobs/{id} and the
// webhook payload (both are publicJob), including values DynamoDB numbers could not hold.
import { EventEnvelope, JobView } from '../../lambdas/documents/api/webhooks-doc';
import { acceptAsyncRender, publicJob } from '../../lambdas/documents/use-cases/jobs';
import { type JobRecord } from '../../lambdas/documents/ports';
import { METADATA_MAX_BYTES } from '../../lambdas/documents/request/schema';
import { parseRenderRequest, validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import type { ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { FakeJobFiles, FakeJobRepository, FakeMessageQueue } from '../fakes/documents';
import { FakeQuotaStore } from '../fakes/platform';

const csv = {
  template: 'ventas',
  format: 'csv',
  data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 2 }] },
};

test('metadata must be an object within its limits: 400 items at body.metadata naming the limit', () => {
  const notObject = validateRenderRequest({ ...csv, metadata: ['a'] });
  expect(notObject.ok).toBe(false);
  if (!notObject.ok) expect(notObject.problems.map((p) => p.loc)).toEqual([['body', 'metadata']]);

  const big = validateRenderRequest({ ...csv, metadata: { nota: 'x'.repeat(METADATA_MAX_BYTES) } });
  expect(big.ok).toBe(false);
  if (!big.ok)
    expect(big.problems).toEqual([
      expect.objectContaining({
        loc: ['body', 'metadata'],
        type: 'metadata_too_large',
        msg: expect.stringContaining(`at most ${METADATA_MAX_BYTES}`),
      }),
    ]);

  const many = validateRenderRequest({
    ...csv,
    metadata: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])),
  });
  expect(many.ok).toBe(false);
  if (!many.ok) expect(many.problems[0]).toMatchObject({ type: 'metadata_too_large', ctx: { max_keys: 50 } });

  // Just under the limit passes, and the request carries it.
  const fits = { pedido: 'x'.repeat(METADATA_MAX_BYTES - 20) };
  expect(parseRenderRequest({ ...csv, metadata: fits }).metadata).toEqual(fits);
});

test('an async job keeps the metadata as sent; the job view and the webhook payload echo it', async () => {
  const jobs = new FakeJobRepository(() => new Date(), 60);
  const quotas = new FakeQuotaStore();
  const now = new Date('2026-03-01T12:00:00Z');
  const decision = await quotas.consume('docs#s', [{ period: 'month', limit: 10 }], now);
  // Values a DynamoDB number could not hold exactly, nesting, unicode.
  const metadata = {
    pedido: 'A-17',
    big: 12345678901234567890,
    tiny: 1e-200,
    huge: 1e200,
    n: { ñ: [true, null] },
  };
  const body = { ...csv, metadata, options: { async: true } };
  const key = { keyHash: 'h'.repeat(64), accountId: 'cus_1' } as ApiKeyRecord;
  const accepted = await acceptAsyncRender(
    { jobs, jobFiles: new FakeJobFiles(), renderQueue: new FakeMessageQueue(), quotas },
    { body, request: parseRenderRequest(body), key, plan: 'scale', decision, now },
  );
  const job = (await jobs.get(accepted.body.id as string))!;
  expect(typeof job.metadata).toBe('string');
  const view = publicJob(job);
  expect(view.metadata).toEqual(JSON.parse(JSON.stringify(metadata)));
  JobView.parse(view);

  const done: JobRecord = {
    ...job,
    status: 'done',
    result: { key: 'k', filename: 'v.csv', contentType: 'text/csv', bytes: 1 },
  };
  const event = {
    id: 'evt_1',
    object: 'event',
    type: 'document.rendered',
    created: 1,
    api_version: 'v1',
    data: { job: publicJob(done, { url: 'https://s3/x', expiresAt: now }, { deliveries: false }) },
  };
  expect(EventEnvelope.parse(event).data.job.metadata).toEqual(view.metadata);

  // Without metadata: an empty object, never absent.
  expect(publicJob({ ...job, metadata: undefined }).metadata).toEqual({});
});
