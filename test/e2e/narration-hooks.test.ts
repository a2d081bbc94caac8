// Narration's completion webhooks (audio.completed / audio.failed on the platform's delivery machinery) and data
// control (DELETE /audio/{id}, retention_days, files deleted once expired) over HTTP against the local runtime: the convert routes, the worker
// and the delivery worker fed by their local queues. Network rule: every connection goes to loopback — a tripwire
// refuses (and records) any other connect, callback host names resolve only through WEBHOOK_DNS_STUB, and the
// private/rebinding destinations are refused before a socket is opened. The retry schedule is shortened to 1 s.
import { ReceiveMessageCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
import { PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import { verifySignature } from '../../lambdas/shared/webhooks/signature';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { dynamo, s3Client, sqsClient } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import { audioEventIdFor } from '../../lambdas/narration/use-cases/webhooks';
import { putApiKey } from '../helpers/api-keys';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import {
  opensslHmac,
  startWebhookReceiver,
  tampered,
  webhookTestEnv,
  type Received,
  type WebhookReceiver,
} from '../helpers/webhook-receiver';

jest.setTimeout(180_000);

let receiver: WebhookReceiver;
const hook = (path: string) => receiver.hook(path);
const at = (path: string) => receiver.at(path);
const event = (r: Received) => JSON.parse(r.body.toString('utf8')) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const STUB = 'rebind.test=127.0.0.1,private.test=10.1.2.3';
let rt: TestRuntime;
let tripwire: Tripwire;
const keys = {
  a: generateKey(),
  a2: generateKey(),
  b: generateKey(),
  c: generateKey(),
  d: generateKey(),
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  tripwire = installLoopbackTripwire();
  rt = await startRuntime(webhookTestEnv(STUB), { trustProxy: true });
  for (const [key, account] of [
    [keys.a, 'cus_A'],
    [keys.a2, 'cus_A'],
    [keys.b, 'cus_B'],
    [keys.c, 'cus_C'],
    [keys.d, 'cus_D'],
  ] as const)
    await putApiKey(rt, key, 'pro', account);
});

afterAll(async () => {
  tripwire?.uninstall();
  await rt?.stop();
  await receiver?.close();
});

afterEach(() => expect(tripwire.attempts).toEqual([]));

async function call(method: string, path: string, opts: { key?: string; body?: unknown; ip?: string } = {}) {
  const res = await fetch(rt.url(path), {
    method,
    headers: {
      'x-forwarded-for': opts.ip ?? '198.51.100.7',
      ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
      ...(opts.body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
    redirect: 'manual',
  });
  const text = await res.text();
  let json: Record<string, any> = {}; // eslint-disable-line @typescript-eslint/no-explicit-any
  try {
    json = text ? JSON.parse(text) : {};
  } catch {
    /* not JSON */
  }
  return { res, status: res.status, json };
}

async function waitFor(check: () => boolean, timeoutMs = 30_000) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function waitInDlq(id: string) {
  const dlq = rt.emulators.queues.webhooksDlq!;
  const deadline = Date.now() + 120_000; // generous: a loaded machine (the bound only ends a hang)
  let moved: string[] = [];
  while (!moved.some((b) => b.includes(id)) && Date.now() < deadline) {
    const got = await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: dlq, WaitTimeSeconds: 1 }));
    moved = [...moved, ...(got.Messages ?? []).map((m) => m.Body ?? '')];
  }
  return moved.some((b) => b.includes(id));
}

describe('completion webhooks', () => {
  let secretA = '';

  test('registration: paid key → 201 with the secret once; no key → 401; private callback → 422, never contacted', async () => {
    const created = await call('PUT', '/v1/webhook', { key: keys.a, body: { url: hook('/a') } });
    expect(created.status).toBe(201);
    expect(created.json.secret).toMatch(/^whsec_/);
    expect(created.json.events).toEqual(['audio.completed', 'audio.failed']);
    secretA = created.json.secret;
    const got = await call('GET', '/v1/webhook', { key: keys.a2 });
    expect(got.status).toBe(200);
    expect(got.json.secret).toBeUndefined();
    expect((await call('PUT', '/v1/webhook', { body: { url: hook('/x') } })).status).toBe(401);
    for (const [url, type] of [
      ['https://private.test/hook', 'url_not_public'],
      ['https://169.254.169.254/latest', 'url_not_public'],
      ['https://nowhere.test/hook', 'url_unresolvable'],
    ]) {
      const r = await call('PUT', '/v1/webhook', { key: keys.d, body: { url } });
      expect({ url, status: r.status, type: r.json.detail?.[0]?.type }).toEqual({ url, status: 422, type });
    }
  });

  test('a completed narration delivers one signed audio.completed with the Conversion result', async () => {
    const r = await call('POST', '/convert/text', {
      key: keys.a,
      body: { text: 'Hola, mundo. Esto es una prueba.' },
    });
    expect(r.status).toBe(200);
    await waitFor(() => at('/a').length >= 1);
    const cb = at('/a')[0]!;
    const sig = String(cb.headers['voz-signature']);
    expect(sig).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(verifySignature(secretA, sig, cb.body)).toBe(true);
    expect(verifySignature(secretA, sig, Buffer.concat([cb.body, Buffer.from(' ')]))).toBe(false);
    // Independently of our verifySignature: OpenSSL's HMAC over the exact bytes delivered is the v1 sent; over a
    // tampered copy of the body (the negative control) it is not.
    const t = Number(/^t=(\d+),/.exec(sig)![1]);
    expect(sig).toBe(`t=${t},v1=${opensslHmac(secretA, t, cb.body)}`);
    expect(sig).not.toBe(`t=${t},v1=${opensslHmac(secretA, t, tampered(cb.body))}`);
    const e = event(cb);
    expect(e).toMatchObject({
      id: audioEventIdFor(r.json.audio_id, 'audio.completed'),
      object: 'event',
      type: 'audio.completed',
      data: {
        audio: {
          audio_id: r.json.audio_id,
          audio_url: r.json.audio_url,
          duration_s: r.json.duration_s,
          voice: r.json.voice,
          chars: r.json.chars,
          status: 'done',
        },
      },
    });
    expect(cb.headers['voz-event-id']).toBe(e.id);
    expect(cb.headers['voz-event-type']).toBe('audio.completed');
    expect(cb.headers['voz-delivery-attempt']).toBe('1');
  });

  test('a failed narration (the worker cannot read the job back) delivers one signed audio.failed', async () => {
    // A queued job whose voice no longer exists: the worker fails it at once (no retries needed).
    const audioId = 'failjob' + Date.now();
    const now = new Date();
    await dynamo().send(
      new PutCommand({
        TableName: rt.emulators.tableNames.audio,
        Item: {
          audioId,
          status: 'queued',
          voice: 'es-MX-Retirada',
          fmt: 'mp3',
          chars: 20,
          plan: 'pro',
          owner: 'acct:cus_A',
          createdAt: now.toISOString(),
          updatedAt: now.toISOString(),
          expiresAt: Math.floor(now.getTime() / 1000) + 86400,
          progress: 0,
        },
      }),
    );
    await s3Client().send(
      new PutObjectCommand({
        Bucket: rt.emulators.bucket,
        Key: `jobs/${audioId}.txt`,
        Body: 'Texto de prueba.',
      }),
    );
    await sqsClient().send(
      new SendMessageCommand({
        QueueUrl: rt.emulators.queues.priority!,
        MessageBody: JSON.stringify({ audioId }),
      }),
    );
    await waitFor(() => at('/a').some((c) => event(c).type === 'audio.failed'));
    const failed = at('/a').filter((c) => event(c).type === 'audio.failed');
    expect(failed).toHaveLength(1);
    expect(verifySignature(secretA, String(failed[0]!.headers['voz-signature']), failed[0]!.body)).toBe(true);
    expect(event(failed[0]!).data.audio).toMatchObject({
      audio_id: audioId,
      status: 'failed',
      reason: expect.stringMatching(/could not be read back/),
    });
    // One event per conversion: still exactly one completed and one failed.
    expect(
      at('/a')
        .map((c) => event(c).type)
        .sort(),
    ).toEqual(['audio.completed', 'audio.failed']);
  });

  test('500, 500, 200 → exactly three attempts of one event, each signed', async () => {
    receiver.script['/flaky'] = [500, 500, 200];
    const secret = (await call('PUT', '/v1/webhook', { key: keys.b, body: { url: hook('/flaky') } })).json
      .secret as string;
    const r = await call('POST', '/convert/text', { key: keys.b, body: { text: 'Reintentos con espera.' } });
    expect(r.status).toBe(200);
    await waitFor(() => at('/flaky').length >= 3);
    const calls = at('/flaky');
    expect(calls.map((c) => c.headers['voz-delivery-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(calls.map((c) => c.headers['voz-event-id'])).size).toBe(1);
    for (const c of calls)
      expect(verifySignature(secret, String(c.headers['voz-signature']), c.body)).toBe(true);
  });

  test('DNS rebinding: a name that turns private at delivery time is never contacted (3 refusals, then the DLQ)', async () => {
    const reg = await call('PUT', '/v1/webhook', {
      key: keys.c,
      body: { url: `https://rebind.test:${receiver.port}/rebind` },
    });
    expect(reg.status).toBe(201);
    process.env.WEBHOOK_DNS_STUB = STUB.replace('rebind.test=127.0.0.1', 'rebind.test=10.0.0.7');
    resetConfig();
    try {
      const r = await call('POST', '/convert/text', { key: keys.c, body: { text: 'Nunca llega.' } });
      expect(r.status).toBe(200);
      expect(await waitInDlq(r.json.audio_id)).toBe(true);
      expect(at('/rebind')).toHaveLength(0);
    } finally {
      process.env.WEBHOOK_DNS_STUB = STUB;
      resetConfig();
    }
  });
});

describe('data control', () => {
  test('DELETE /audio/{id}: someone else → 404; the owner → 204; then the presigned URL and GET /audio fail', async () => {
    const made = await call('POST', '/convert/text', {
      ip: '198.51.100.50',
      body: { text: 'Audio para borrar.' },
    });
    expect(made.status).toBe(200);
    const id = made.json.audio_id as string;
    const info = await fetch(rt.url(`/audio/${id}`), {
      headers: { accept: 'application/json', 'x-forwarded-for': '198.51.100.50' },
    });
    expect(info.status).toBe(200);
    const presigned = ((await info.json()) as { url: string }).url;
    expect((await fetch(presigned)).status).toBe(200);

    expect((await call('DELETE', `/audio/${id}`, { ip: '198.51.100.51' })).status).toBe(404);
    expect((await call('DELETE', `/audio/${id}`, { key: keys.b })).status).toBe(404);
    const unknown = await call('DELETE', '/audio/desconocido123', { ip: '198.51.100.50' });
    expect(unknown.status).toBe(404);
    expect((await call('GET', `/audio/${id}`, { ip: '198.51.100.51' })).status).toBe(302); // still there

    expect((await call('DELETE', `/audio/${id}`, { ip: '198.51.100.50' })).status).toBe(204);
    expect((await fetch(presigned)).status).toBe(404);
    expect((await call('GET', `/audio/${id}`)).status).toBe(404);
    expect((await call('DELETE', `/audio/${id}`, { ip: '198.51.100.50' })).status).toBe(404);
  });

  test('keyed audio belongs to the account: another account → 404, another key of the same account → 204', async () => {
    const made = await call('POST', '/convert/text', { key: keys.d, body: { text: 'De la cuenta D.' } });
    expect(made.status).toBe(200);
    const id = made.json.audio_id as string;
    expect((await call('DELETE', `/audio/${id}`, { key: keys.b })).status).toBe(404);
    expect((await call('DELETE', `/audio/${id}`)).status).toBe(404); // anonymous, even from the same address
    expect((await call('DELETE', `/audio/${id}`, { key: keys.d })).status).toBe(204);
    expect((await call('GET', `/audio/${id}`)).status).toBe(404);
  });

  test('retention_days: free fixed (422 names it), paid up to the maximum (422 names it), within → 200', async () => {
    const free = await call('POST', '/convert/text', { body: { text: 'Hola.', retention_days: 7 } });
    expect(free.status).toBe(422);
    expect(free.json.detail[0]).toMatchObject({ loc: ['body', 'retention_days'] });
    expect(free.json.detail[0].msg).toMatch(/30 days/);
    const over = await call('POST', '/convert/text', {
      key: keys.d,
      body: { text: 'Hola.', retention_days: 31 },
    });
    expect(over.status).toBe(422);
    expect(over.json.detail[0].msg).toMatch(/at most 30/);
    const ok = await call('POST', '/convert/text', {
      key: keys.d,
      body: { text: 'Hola.', retention_days: 1 },
    });
    expect(ok.status).toBe(200);
    const info = await fetch(rt.url(`/audio/${ok.json.audio_id}`), {
      headers: { accept: 'application/json' },
    });
    expect(info.status).toBe(200);
  });

  test('past its retention: GET /audio and its timings answer 410 and the files are deleted on that request (s3rver has no lifecycle rules)', async () => {
    const made = await call('POST', '/convert/text', {
      key: keys.d,
      body: { text: 'Audio que caduca.', retention_days: 1 },
    });
    expect(made.status).toBe(200);
    const id = made.json.audio_id as string;
    const head = (key: string) =>
      s3Client()
        .send(new HeadObjectCommand({ Bucket: rt.emulators.bucket, Key: key }))
        .then(
          () => true,
          (e: { name?: string }) =>
            e.name === 'NotFound' || e.name === 'NoSuchKey' ? false : Promise.reject(e),
        );
    const files = [`audio/${id}.mp3`, `audio/${id}/timings.json`];
    expect(await Promise.all(files.map(head))).toEqual([true, true]);
    expect((await call('GET', `/audio/${id}`)).status).toBe(302); // still within its day
    // A day later: the record says it expired (its TTL removes it within about two days).
    await dynamo().send(
      new UpdateCommand({
        TableName: rt.emulators.tableNames.audio,
        Key: { audioId: id },
        UpdateExpression: 'SET expiresAt = :past',
        ExpressionAttributeValues: { ':past': Math.floor(Date.now() / 1000) - 5 },
      }),
    );
    const gone = await call('GET', `/audio/${id}`);
    expect(gone.status).toBe(410);
    expect(gone.json.detail).toMatch(/expired on .* no longer available/);
    expect(await Promise.all(files.map(head))).toEqual([false, false]);
    expect((await call('GET', `/audio/${id}/timings`)).status).toBe(410);
    expect((await call('GET', `/audio/${id}`)).status).toBe(410); // until the record is purged
  });
});
