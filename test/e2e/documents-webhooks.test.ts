// Scale async renders and signed webhooks over HTTP against the local runtime (render and delivery workers fed by
// their local queues). Network rule: every connection goes to loopback — a tripwire refuses (and records) any other
// connect, callback host names resolve only through WEBHOOK_DNS_STUB (no DNS query leaves the machine), and the
// private/rebinding destinations are refused before a socket is opened. The retry schedule is shortened to 1 s.
// Also options.expires_in (410 and the document deleted once past it) and a password through the sealed request.
// The account's brand (/v1/brand) is documents-brand.test.ts.
import { ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { execFileSync, spawnSync } from 'node:child_process';
import { HeadObjectCommand } from '@aws-sdk/client-s3';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { verifySignature } from '../../lambdas/shared/webhooks/signature';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { dynamo, s3Client, sqsClient } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { putApiKey } from '../helpers/api-keys';
import { documentsClient, settled } from '../helpers/documents-client';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { Charges } from '../helpers/quota-window';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import {
  opensslHmac,
  startWebhookReceiver,
  tampered,
  webhookTestEnv,
  type WebhookReceiver,
} from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let receiver: WebhookReceiver;
const hook = (path: string) => receiver.hook(path);
const at = (path: string) => receiver.at(path);

const STUB_PUBLIC = 'rebind.test=127.0.0.1,private.test=10.1.2.3,mixed.test=127.0.0.1|192.168.1.9';
let rt: TestRuntime;
let tripwire: Tripwire;
const files = tempDir('docs-webhooks-');
const keys: Record<'scaleA' | 'scaleA2' | 'scaleB' | 'scaleC' | 'scaleD' | 'pro', string> = {
  scaleA: generateKey(),
  scaleA2: generateKey(),
  scaleB: generateKey(),
  scaleC: generateKey(),
  scaleD: generateKey(),
  pro: generateKey(),
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  tripwire = installLoopbackTripwire();
  // Callbacks to this machine only through the explicit local-test settings (never set in the cloud).
  rt = await startRuntime(webhookTestEnv(STUB_PUBLIC));
  await putApiKey(rt, keys.scaleA, 'scale', 'cus_A');
  await putApiKey(rt, keys.scaleA2, 'scale', 'cus_A'); // a second key of account A
  await putApiKey(rt, keys.scaleB, 'scale', 'cus_B');
  await putApiKey(rt, keys.scaleC, 'scale', 'cus_C');
  await putApiKey(rt, keys.scaleD, 'scale');
  await putApiKey(rt, keys.pro, 'pro', 'cus_P');
});

afterAll(async () => {
  tripwire?.uninstall();
  await rt?.stop();
  await receiver?.close();
  files.cleanup();
});

afterEach(() => {
  // Nothing in this file may even try to reach a non-loopback address.
  expect(tripwire.attempts).toEqual([]);
});

const { send, call, waitJob } = documentsClient(() => rt.documentsUrl!);

const factura = {
  template: 'factura',
  format: 'pdf',
  data: {
    empresa: 'ACME',
    cliente: 'Ana',
    items: [{ concepto: 'Servicio', cantidad: 1, precio: 1500 }],
    moneda: 'MXN',
  },
};
const ventasCsv = {
  template: 'ventas',
  format: 'csv',
  data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 1 }] },
};

async function waitFor(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function register(key: string, target: string, expectStatus = 201) {
  const r = await call('PUT', '/v1/webhook', key, { url: target });
  expect({ status: r.status, body: r.json }).toEqual({ status: expectStatus, body: expect.anything() });
  return r.json;
}

describe('async render (Scale) → 202 → job → signed callback', () => {
  let secretA = '';

  test('register the endpoint: 201 with the secret once; GET shows url + created, never the secret', async () => {
    const created = await register(keys.scaleA, hook('/a'));
    expect(created.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    expect(created.url).toBe(hook('/a'));
    expect(created.events).toEqual(['document.rendered', 'document.failed']);
    secretA = created.secret;

    const got = await call('GET', '/v1/webhook', keys.scaleA2); // same account, other key
    expect(got.status).toBe(200);
    expect(got.json).toMatchObject({ url: hook('/a'), created_at: created.created_at });
    expect(got.json.secret).toBeUndefined();
    expect(got.json.secret_hint).toBe(secretA.slice(0, 10) + '…');

    // Changing the URL keeps the secret (200, not shown again).
    const changed = await register(keys.scaleA, hook('/a'), 200);
    expect(changed.secret).toBeUndefined();
    expect(changed.secret_hint).toBe(got.json.secret_hint);
  });

  test('pdf: 202 + Location, charged at once; the job goes done; the download is a valid PDF; the callback verifies', async () => {
    const res = await send('POST', '/v1/render', keys.scaleA, {
      ...factura,
      options: { async: true },
      metadata: { pedido: 'A-17', lote: [1, 2] },
    });
    expect(res.status).toBe(202);
    const accepted = (await res.json()) as { id: string; status: string; status_url: string };
    expect(accepted).toMatchObject({ status: 'queued', status_url: `/v1/jobs/${accepted.id}` });
    expect(accepted.id).toMatch(/^job_/);
    expect(res.headers.get('location')).toBe(accepted.status_url);
    expect(res.headers.get('ratelimit-limit')).toBe('10000');
    expect(res.headers.get('ratelimit-remaining')).toBe('9999');

    const job = await waitJob(accepted.id, keys.scaleA, settled);
    expect(job).toMatchObject({
      id: accepted.id,
      status: 'done',
      progress: 1,
      template: 'factura',
      format: 'pdf',
      content_type: 'application/pdf',
      filename: 'factura.pdf',
      metadata: { pedido: 'A-17', lote: [1, 2] },
    });
    expect(Date.parse(job.download_expires_at)).toBeGreaterThan(Date.now());
    const doc = await fetch(job.download_url);
    expect(doc.status).toBe(200);
    const bytes = Buffer.from(await doc.arrayBuffer());
    expect(bytes.length).toBe(job.bytes);
    const file = join(files.path, 'async.pdf');
    writeFileSync(file, bytes);
    execFileSync('qpdf', ['--check', file]); // throws on a broken PDF
    expect(execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' })).toContain('ACME');

    // The callback: one POST, signature valid under the secret, timestamped, event id in header and body.
    await waitFor(() => at('/a').length >= 1);
    const cb = at('/a')[0]!;
    const sig = String(cb.headers['docs-signature']);
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    const t = Number(/t=(\d+)/.exec(sig)![1]);
    expect(Math.abs(t - Date.now() / 1000)).toBeLessThan(300);
    expect(verifySignature(secretA, sig, cb.body)).toBe(true);
    expect(
      verifySignature(
        secretA.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A')),
        sig,
        cb.body,
      ),
    ).toBe(false);
    expect(verifySignature(secretA, sig, Buffer.concat([cb.body, Buffer.from(' ')]))).toBe(false);
    // Independently of our verifySignature: OpenSSL's HMAC over the exact bytes delivered is the v1 sent; over a
    // tampered copy of the body (the negative control) it is not.
    expect(sig).toBe(`t=${t},v1=${opensslHmac(secretA, t, cb.body)}`);
    expect(sig).not.toBe(`t=${t},v1=${opensslHmac(secretA, t, tampered(cb.body))}`);
    const event = JSON.parse(cb.body.toString('utf8'));
    expect(event).toMatchObject({
      object: 'event',
      type: 'document.rendered',
      data: {
        job: { id: accepted.id, status: 'done', format: 'pdf', metadata: { pedido: 'A-17', lote: [1, 2] } },
      },
    });
    expect(event.id).toMatch(/^evt_/);
    expect(cb.headers['docs-event-id']).toBe(event.id);
    expect(cb.headers['docs-event-type']).toBe('document.rendered');
    expect(cb.headers['docs-delivery-attempt']).toBe('1');
    expect(cb.headers['content-type']).toMatch(/^application\/json/);
    expect(typeof event.created).toBe('number');
    // The payload's own link downloads the same document.
    const viaEvent = Buffer.from(await (await fetch(event.data.job.download_url)).arrayBuffer());
    expect(viaEvent.equals(bytes)).toBe(true);

    // The attempt is recorded on the job.
    const after = await waitJob(accepted.id, keys.scaleA, (j) => j.deliveries.length >= 1);
    expect(after.event).toEqual({ id: event.id, type: 'document.rendered' });
    expect(after.deliveries).toEqual([
      expect.objectContaining({ event_id: event.id, attempt: 1, outcome: 'delivered', status_code: 200 }),
    ]);
  });

  test('a render that fails (caller template error) → failed with the reason, quota given back, document.failed sent', async () => {
    const before = await send('POST', '/v1/render', keys.scaleA, { ...ventasCsv, options: { async: true } });
    expect(before.status).toBe(202);
    // The Scale key's 10,000 a month, by the month of each charge (a turn of the month between starts a full one):
    // what the key had spent before this test (and this charge) is what the first answer says.
    const charges = new Charges(10_000, 'month');
    charges.add(before, 10_000 - Number(before.headers.get('ratelimit-remaining')));

    const bad = await call('POST', '/v1/render', keys.scaleA, {
      custom_html: '<p>{{ broken( }}</p>',
      format: 'html',
      data: {},
      options: { async: true },
      metadata: { ref: 'falla-1' },
    });
    expect(bad.status).toBe(202);
    expect(bad.res.headers.get('ratelimit-remaining')).toBe(String(charges.add(bad.res)));
    const failed = await waitJob(bad.json.id, keys.scaleA, settled);
    expect(failed.status).toBe('failed');
    expect(failed.reason).toMatch(/could not be rendered/);
    expect(failed.problems[0]).toMatchObject({ loc: ['body', 'custom_html'], type: 'template_syntax_error' });
    expect(failed.download_url).toBeUndefined();

    // Refunded: the next render is charged as if the failed one never happened.
    charges.refund(bad.res);
    const next = await send('POST', '/v1/render', keys.scaleA, ventasCsv);
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe(String(charges.add(next)));

    await waitFor(() => at('/a').some((r) => JSON.parse(r.body.toString('utf8')).type === 'document.failed'));
    const cb = at('/a').find((r) => JSON.parse(r.body.toString('utf8')).type === 'document.failed')!;
    expect(verifySignature(secretA, String(cb.headers['docs-signature']), cb.body)).toBe(true);
    expect(JSON.parse(cb.body.toString('utf8')).data.job.metadata).toEqual({ ref: 'falla-1' });
    expect(JSON.parse(cb.body.toString('utf8')).data.job).toMatchObject({
      id: bad.json.id,
      status: 'failed',
      reason: failed.reason,
    });
  });

  test('rotate-secret: a new secret; for the overlap both old and new verify the next callback', async () => {
    const rotated = await call('POST', '/v1/webhook/rotate-secret', keys.scaleA);
    expect(rotated.status).toBe(200);
    expect(rotated.json.secret).toMatch(/^whsec_/);
    expect(rotated.json.secret).not.toBe(secretA);
    expect(Date.parse(rotated.json.previous_secret_expires_at)).toBeGreaterThan(Date.now());
    const seen = at('/a').length;
    const r = await call('POST', '/v1/render', keys.scaleA, { ...ventasCsv, options: { async: true } });
    expect(r.status).toBe(202);
    await waitFor(() => at('/a').length > seen);
    const cb = at('/a')[seen]!;
    const sig = String(cb.headers['docs-signature']);
    expect(sig.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature(rotated.json.secret, sig, cb.body)).toBe(true);
    expect(verifySignature(secretA, sig, cb.body)).toBe(true);
  });

  test('jobs belong to the account: another account gets 404, like an unknown id; no key → 401', async () => {
    const r = await call('POST', '/v1/render', keys.scaleA, { ...ventasCsv, options: { async: true } });
    expect(r.status).toBe(202);
    expect((await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleA2)).status).toBe(200);
    const other = await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleB);
    expect(other.status).toBe(404);
    const unknown = await call('GET', `/v1/jobs/job_${'x'.repeat(22)}`, keys.scaleB);
    expect(unknown.status).toBe(404);
    expect(other.json.detail.replace(r.json.id, '?')).toBe(
      unknown.json.detail.replace(`job_${'x'.repeat(22)}`, '?'),
    );
    const anon = await call('GET', `/v1/jobs/${r.json.id}`);
    expect(anon.status).toBe(401);
    expect(anon.res.headers.get('www-authenticate')).toBe('Bearer');
  });
});

describe('retries with backoff', () => {
  test('an endpoint answering 500 twice then 200 gets exactly 3 attempts, each recorded on the job', async () => {
    receiver.script['/flaky'] = [500, 500, 200];
    const secret = (await register(keys.scaleB, hook('/flaky'))).secret as string;
    const r = await call('POST', '/v1/render', keys.scaleB, { ...ventasCsv, options: { async: true } });
    expect(r.status).toBe(202);
    const job = await waitJob(r.json.id, keys.scaleB, (j) =>
      j.deliveries.some((d: { outcome: string }) => d.outcome === 'delivered'),
    );
    expect(job.deliveries.map((d: Record<string, unknown>) => [d.attempt, d.outcome, d.status_code])).toEqual(
      [
        [1, 'failed', 500],
        [2, 'failed', 500],
        [3, 'delivered', 200],
      ],
    );
    expect(job.deliveries[0].next_attempt_at).toEqual(expect.any(String));
    expect(job.deliveries[2].next_attempt_at).toBeNull();
    const calls = at('/flaky');
    expect(calls).toHaveLength(3);
    expect(calls.map((c) => c.headers['docs-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(calls.map((c) => c.headers['docs-event-id'])).size).toBe(1);
    for (const c of calls)
      expect(verifySignature(secret, String(c.headers['docs-signature']), c.body)).toBe(true);
  });

  test('an endpoint that never succeeds: 3 attempts (the cap), then no more', async () => {
    receiver.script['/down'] = [503];
    await register(keys.scaleC, hook('/down'));
    const r = await call('POST', '/v1/render', keys.scaleC, { ...ventasCsv, options: { async: true } });
    const job = await waitJob(r.json.id, keys.scaleC, (j) => j.deliveries.length >= 3);
    expect(job.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual(['failed', 'failed', 'failed']);
    expect(job.deliveries[2].next_attempt_at).toBeNull();
    // No fourth attempt can come: SQS moved the event's message to the deliveries DLQ (waited for, not slept on).
    const dlq = rt.emulators.queues.deliveriesDlq!;
    const deadline = Date.now() + 120_000; // generous: a loaded machine (the bound only ends a hang)
    let moved: string[] = [];
    while (!moved.some((body) => body.includes(r.json.id)) && Date.now() < deadline) {
      const got = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: dlq, WaitTimeSeconds: 1 }));
      moved = [...moved, ...(got.Messages ?? []).map((m) => m.Body ?? '')];
    }
    expect(moved.some((body) => body.includes(r.json.id))).toBe(true);
    expect(at('/down')).toHaveLength(3);
    const again = await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleC);
    expect(again.json.deliveries).toHaveLength(3);
    expect((await call('DELETE', '/v1/webhook', keys.scaleC)).status).toBe(204);
  });
});

describe('callback URLs pass the SSRF boundary at registration and at every delivery', () => {
  test.each([
    ['https://private.test/hook', 'url_not_public'], // resolves (stub) to 10.1.2.3
    ['https://mixed.test/hook', 'url_not_public'], // one private answer refuses the name
    ['https://10.0.0.1/hook', 'url_not_public'],
    ['https://169.254.169.254/latest/meta-data', 'url_not_public'],
    ['https://[::1]/hook', 'url_not_public'],
    ['https://[::ffff:192.168.0.1]/hook', 'url_not_public'],
    ['https://nowhere.test/hook', 'url_unresolvable'], // not in the stub: does not resolve, nothing is asked
    ['https://user:pw@rebind.test/hook', 'url_credentials'],
    ['ftp://rebind.test/hook', 'url_scheme'],
    ['not a url', 'url_parsing'],
  ])('%s → 400 %s', async (target, type) => {
    const r = await call('PUT', '/v1/webhook', keys.scaleD, { url: target });
    expect(r.status).toBe(400);
    expect(r.json.detail).toEqual([expect.objectContaining({ loc: ['body', 'url'], type })]);
  });

  test('plain http:// only to an allowlisted destination', async () => {
    // 127.0.0.2 is loopback but not on WEBHOOK_URL_ALLOWLIST (127.0.0.1): refused, never contacted.
    const r = await call('PUT', '/v1/webhook', keys.scaleD, { url: `http://127.0.0.2:${receiver.port}/x` });
    expect(r.status).toBe(400);
    expect(r.json.detail[0].type).toBe('url_not_public');
  });

  test('DNS rebinding: a name that resolves to a private address at delivery time is never contacted', async () => {
    // Registered while rebind.test resolves to the (allowlisted) receiver...
    await register(keys.scaleD, `https://rebind.test:${receiver.port}/rebind`);
    // ...then the name starts resolving to a private address.
    process.env.WEBHOOK_DNS_STUB = STUB_PUBLIC.replace('rebind.test=127.0.0.1', 'rebind.test=10.0.0.7');
    resetConfig();
    try {
      const r = await call('POST', '/v1/render', keys.scaleD, { ...ventasCsv, options: { async: true } });
      expect(r.status).toBe(202);
      const job = await waitJob(r.json.id, keys.scaleD, (j) => j.deliveries.length >= 3);
      expect(job.status).toBe('done');
      expect(job.deliveries.map((d: { outcome: string }) => d.outcome)).toEqual([
        'refused',
        'refused',
        'refused',
      ]);
      expect(job.deliveries[0].error).toMatch(/not on the public internet/);
      expect(at('/rebind')).toHaveLength(0);
    } finally {
      process.env.WEBHOOK_DNS_STUB = STUB_PUBLIC;
      resetConfig();
    }
  });
});

describe('plans and ownership', () => {
  test('non-Scale callers asking for async get 403 naming the plan; nothing is charged or queued', async () => {
    const pro = await call('POST', '/v1/render', keys.pro, { ...ventasCsv, options: { async: true } });
    expect(pro.status).toBe(403);
    expect(pro.json.plan).toBe('pro');
    expect(pro.json.detail).toMatch(/Scale plan feature; this key is on the pro plan/);
    const anon = await call('POST', '/v1/render', undefined, { ...ventasCsv, options: { async: true } });
    expect(anon.status).toBe(403);
    expect(anon.json.detail).toMatch(/Scale plan feature/);
    // The same request without async is served (and is the first charge of this key).
    const sync = await send('POST', '/v1/render', keys.pro, ventasCsv);
    expect(sync.status).toBe(200);
    expect(sync.headers.get('ratelimit-remaining')).toBe('999');
  });

  test('webhook registration: Pro → 403 naming the plan; no key → 401; options.async must be a boolean (400)', async () => {
    const pro = await call('PUT', '/v1/webhook', keys.pro, { url: hook('/p') });
    expect(pro.status).toBe(403);
    expect(pro.json.detail).toMatch(/Scale plan feature; this key is on the pro plan/);
    expect((await call('PUT', '/v1/webhook', undefined, { url: hook('/p') })).status).toBe(401);
    expect((await call('POST', '/v1/webhook/rotate-secret', keys.pro)).status).toBe(403);
    const bad = await call('POST', '/v1/render', keys.scaleA, { ...ventasCsv, options: { async: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json.detail[0].loc).toEqual(['body', 'options', 'async']);
    const missing = await call('PUT', '/v1/webhook', keys.scaleB, {});
    expect(missing.status).toBe(400);
    expect(missing.json.detail[0]).toMatchObject({ loc: ['body', 'url'], type: 'missing' });
  });

  test('DELETE removes the endpoint: GET 404, later jobs send nothing; rotate without one → 404', async () => {
    expect((await call('DELETE', '/v1/webhook', keys.scaleB)).status).toBe(204);
    expect((await call('GET', '/v1/webhook', keys.scaleB)).status).toBe(404);
    expect((await call('DELETE', '/v1/webhook', keys.scaleB)).status).toBe(404);
    expect((await call('POST', '/v1/webhook/rotate-secret', keys.scaleB)).status).toBe(404);
    const seen = receiver.received.length;
    const r = await call('POST', '/v1/render', keys.scaleB, { ...ventasCsv, options: { async: true } });
    const job = await waitJob(r.json.id, keys.scaleB, settled);
    expect(job).toMatchObject({ status: 'done', event: null, deliveries: [] });
    expect(receiver.received.length).toBe(seen);
  });
});

describe('options.expires_in and secrets of async renders', () => {
  test('expires_in outside async or out of range → 400 naming body.options.expires_in, nothing charged', async () => {
    for (const options of [
      { expires_in: 120 },
      { async: true, expires_in: 30 },
      { async: true, expires_in: 86_401 },
    ]) {
      const r = await call('POST', '/v1/render', keys.scaleB, { ...ventasCsv, options });
      expect({ options, status: r.status }).toEqual({ options, status: 400 });
      expect(r.json.detail.map((d: { loc: unknown }) => d.loc)).toContainEqual([
        'body',
        'options',
        'expires_in',
      ]);
    }
  });

  test('expires_in: 60 → expires_at 60 s after creation; past it GET answers 410 and the document is deleted', async () => {
    const r = await call('POST', '/v1/render', keys.scaleB, {
      ...ventasCsv,
      options: { async: true, expires_in: 60 },
    });
    expect(r.status).toBe(202);
    const job = await waitJob(r.json.id, keys.scaleB, settled);
    expect(job.status).toBe('done');
    expect(Date.parse(job.expires_at) - Date.parse(job.created_at)).toBeGreaterThanOrEqual(59_000);
    expect(Date.parse(job.expires_at) - Date.parse(job.created_at)).toBeLessThanOrEqual(60_000);
    expect(Date.parse(job.download_expires_at)).toBeLessThanOrEqual(Date.parse(job.expires_at));
    expect((await fetch(job.download_url)).status).toBe(200);
    // A minute later (the record's clock moved instead of this test waiting for it).
    await dynamo().send(
      new UpdateCommand({
        TableName: rt.emulators.tableNames.accounts,
        Key: { pk: `docjob#${r.json.id}` },
        UpdateExpression: 'SET resultExpiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 1 },
      }),
    );
    const gone = await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleB);
    expect(gone.status).toBe(410);
    expect(gone.json.detail).toMatch(/expired at .*document was deleted/);
    expect((await fetch(job.download_url)).status).toBe(404); // the object is gone
    const head = await s3Client()
      .send(
        new HeadObjectCommand({
          Bucket: rt.emulators.env.DOCUMENTS_BUCKET!,
          Key: `results/jobs/${r.json.id}/${job.filename}`,
        }),
      )
      .then(
        () => 'exists',
        (e: { name?: string }) => e.name,
      );
    expect(head).toBe('NotFound');
    expect((await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleA)).status).toBe(404); // other account: 404
    expect((await call('GET', `/v1/jobs/${r.json.id}`, keys.scaleB)).status).toBe(410);
  });

  test('options.password through the real queue and worker: the document opens only with the password', async () => {
    const password = 'clave-Ñ 2026';
    const r = await call('POST', '/v1/render', keys.scaleB, {
      ...factura,
      options: { async: true, password },
    });
    expect(r.status).toBe(202);
    const job = await waitJob(r.json.id, keys.scaleB, settled);
    expect(job.status).toBe('done');
    const file = join(files.path, 'async-protected.pdf');
    writeFileSync(file, Buffer.from(await (await fetch(job.download_url)).arrayBuffer()));
    const qpdf = (args: string[]) => spawnSync('qpdf', [...args, file]).status;
    expect(qpdf(['--requires-password'])).toBe(0);
    expect(qpdf([`--password=${password}`, '--check'])).toBe(0);
  });
});
