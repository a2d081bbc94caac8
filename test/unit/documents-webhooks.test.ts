// Scale webhooks, pure parts: the signature scheme (and the copy customers get in the API description), the
// callback URL policy at registration (stub resolver: no DNS, no sockets), and the documented shapes against what the
// code produces.
import { createHash, createHmac } from 'node:crypto';
import {
  EndpointView,
  JobAccepted,
  JobView,
  WEBHOOKS_OVERVIEW,
} from '../../lambdas/documents/api/webhooks-doc';
import { webhookPolicyFrom } from '../../lambdas/documents/deps';
import { DocumentRequestError } from '../../lambdas/documents/errors';
import { eventIdFor, JOB_ID_RE, newJobId, ownerOf, publicJob } from '../../lambdas/documents/use-cases/jobs';
import { type JobRecord } from '../../lambdas/documents/ports';
import {
  checkCallbackUrl,
  newSecret,
  publicEndpoint,
  registerEndpoint,
  rotateSecret,
  secretsFor,
  type WebhookEndpoint,
  type WebhookStore,
} from '../../lambdas/documents/use-cases/webhooks';
import { DEFAULT_RETRY_SCHEDULE_S } from '../../lambdas/shared/webhooks/schedule';
import { computeSignature, signatureHeader, verifySignature } from '../../lambdas/shared/webhooks/signature';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import { makeHandlers } from '../../lambdas/documents/handlers/webhooks';
import { WEBHOOK_ROUTES } from '../../lambdas/documents/platform';
import { makeHandlers as makeNarrationHandlers } from '../../lambdas/narration/handlers/webhooks';
import { WEBHOOK_ROUTES as NARRATION_WEBHOOK_ROUTES } from '../../lambdas/narration/platform';
import type { DocumentsDeps } from '../../lambdas/documents/deps';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import { routeHandler } from '../../lambdas/shared/http/route-handlers';
import type { RouteSpec } from '../../lambdas/shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../lambdas/shared/webhooks/item-prefix';
import { webhookEvent, webhookEventId } from '../../lambdas/shared/webhooks/events';
import { audioEventIdFor } from '../../lambdas/narration/use-cases/webhooks';
import { apiEvent as event, callHandler as call, untouchedDeps } from '../helpers/api-event';
import type { ApiKeyRecord } from '../../lambdas/shared/auth/keys';
import { parseConfig } from '../../lambdas/documents/config';
import { parseAllowlist, stubResolver } from '../../lambdas/shared/net/safe-fetch';
import { rejectsAsHttp } from '../helpers/as-http';

const SECRET = 'whsec_test_0123456789abcdefghijklmnopq';
const BODY = '{"id":"evt_1","type":"document.rendered","data":{"job":{"id":"job_x"}}}';
const NOW = 1_767_225_600;

/** The Node.js sample printed in the API description, loaded as customers would paste it. */
function docSample(): (secret: string, header: string, body: string | Buffer, tol?: number) => boolean {
  const code = /```js\n([\s\S]*?)```/.exec(WEBHOOKS_OVERVIEW)![1]!;
  return new Function('require', `${code}\nreturn verifySignature;`)(require) as never;
}

describe('Docs-Signature (Stripe scheme)', () => {
  test('t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + body)>', () => {
    const header = signatureHeader([SECRET], NOW, BODY);
    const expected = createHmac('sha256', SECRET).update(`${NOW}.${BODY}`).digest('hex');
    expect(header).toBe(`t=${NOW},v1=${expected}`);
    expect(computeSignature(SECRET, NOW, Buffer.from(BODY))).toBe(expected);
  });

  test('verifySignature: right secret and body within tolerance only', () => {
    const header = signatureHeader([SECRET], NOW, BODY);
    expect(verifySignature(SECRET, header, BODY, 300, NOW + 10)).toBe(true);
    expect(verifySignature(SECRET, header, Buffer.from(BODY), 300, NOW - 299)).toBe(true);
    expect(verifySignature(SECRET + 'x', header, BODY, 300, NOW)).toBe(false);
    expect(verifySignature(SECRET, header, BODY.replace('x', 'y'), 300, NOW)).toBe(false);
    expect(verifySignature(SECRET, header, BODY, 300, NOW + 301)).toBe(false); // replayed too late
    expect(verifySignature(SECRET, header, BODY, 300, NOW - 301)).toBe(false);
  });

  test.each([
    ['', 'empty'],
    [`v1=${'a'.repeat(64)}`, 'no timestamp'],
    [`t=${NOW}`, 'no signature'],
    [`t=${NOW},v1=nothex`, 'malformed signature'],
    [`t=soon,v1=${'a'.repeat(64)}`, 'malformed timestamp'],
  ])('a malformed header is refused (%s: %s)', (header) => {
    expect(verifySignature(SECRET, header, BODY, 300, NOW)).toBe(false);
    expect(verifySignature(SECRET, null, BODY, 300, NOW)).toBe(false);
  });

  test('during a rotation two v1 values: either secret verifies, a third does not', () => {
    const header = signatureHeader(['whsec_new', SECRET], NOW, BODY);
    expect(header.match(/v1=/g)).toHaveLength(2);
    expect(verifySignature('whsec_new', header, BODY, 300, NOW)).toBe(true);
    expect(verifySignature(SECRET, header, BODY, 300, NOW)).toBe(true);
    expect(verifySignature('whsec_other', header, BODY, 300, NOW)).toBe(false);
  });

  test('the sample in the API description agrees with verifySignature', () => {
    const sample = docSample();
    const now = Math.floor(Date.now() / 1000);
    const good = signatureHeader([SECRET], now, BODY);
    const rotated = signatureHeader(['whsec_new', SECRET], now, BODY);
    const cases: [string, string, string | Buffer][] = [
      [SECRET, good, BODY],
      [SECRET, good, Buffer.from(BODY)],
      [SECRET + 'x', good, BODY],
      [SECRET, good, BODY + ' '],
      [SECRET, rotated, BODY],
      [SECRET, signatureHeader([SECRET], now - 3600, BODY), BODY],
      [SECRET, '', BODY],
      [SECRET, `t=${now}`, BODY],
    ];
    for (const [secret, header, body] of cases)
      expect({ header, ok: sample(secret, header, body) }).toEqual({
        header,
        ok: verifySignature(secret, header, body),
      });
    expect(cases.filter(([s, h, b]) => sample(s, h, b)).length).toBe(3);
  });
});

describe('callback URL at registration (stub resolver: nothing leaves the machine)', () => {
  const resolver = stubResolver({
    'hooks.example.com': ['93.184.216.34'],
    'v6.example.com': ['2606:2800:220:1:248:1893:25c8:1946'],
    'intranet.example.com': ['10.20.30.40'],
    'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
    'metadata.example.com': ['169.254.169.254'],
    'local.test': ['127.0.0.1'],
  });
  const policy = { allowlist: parseAllowlist(''), resolver, timeoutMs: 1000 };
  const problem = async (url: string, p = policy) => {
    try {
      await checkCallbackUrl(url, p);
    } catch (err) {
      if (err instanceof DocumentRequestError) return err.problems[0]!.type;
      throw err;
    }
    return 'accepted';
  };

  test.each([
    ['https://hooks.example.com/docs', 'accepted'],
    ['https://v6.example.com/docs?x=1', 'accepted'],
    ['https://93.184.216.34/docs', 'accepted'],
    ['http://hooks.example.com/docs', 'url_scheme'],
    ['https://hooks.example.com:8443/docs', 'url_port'],
    ['https://hooks.example.com:80/docs', 'url_port'], // https on 80: refused too (safe-fetch alone allows 80)
    ['https://intranet.example.com/docs', 'url_not_public'],
    ['https://mixed.example.com/docs', 'url_not_public'],
    ['https://metadata.example.com/', 'url_not_public'],
    ['https://169.254.169.254/latest/meta-data/', 'url_not_public'],
    ['https://2130706433/', 'url_not_public'], // 127.0.0.1 in decimal
    ['https://[fd00::1]/', 'url_not_public'],
    ['https://local.test/', 'url_not_public'],
    ['https://unknown.example.com/', 'url_unresolvable'],
    ['https://u:p@hooks.example.com/', 'url_credentials'],
    ['https://hooks.example.com/docs#frag', 'url_fragment'],
    ['javascript:alert(1)', 'url_scheme'],
    ['hooks.example.com/docs', 'url_parsing'],
  ])('%s → %s', async (url, expected) => {
    expect(await problem(url)).toBe(expected);
  });

  test('the allowlist (local tests only) opens a loopback receiver, also over http://', async () => {
    const local = { ...policy, allowlist: parseAllowlist('127.0.0.1') };
    expect(await problem('http://127.0.0.1:4567/hook', local)).toBe('accepted');
    expect(await problem('http://local.test:4567/hook', local)).toBe('accepted');
    // Only what it names: another loopback address, and plain http to public hosts, stay refused.
    expect(await problem('http://127.0.0.2:4567/hook', local)).toBe('url_not_public');
    expect(await problem('http://hooks.example.com/hook', local)).toBe('url_scheme');
  });

  test('registration keeps the secret across URL changes; rotation keeps the previous one for the overlap', async () => {
    const items = new Map<string, WebhookEndpoint>();
    const store: WebhookStore = {
      get: async (o) => items.get(o),
      put: async (e, previous) => {
        expect(items.get(e.owner)?.secret).toBe(previous);
        items.set(e.owner, e);
      },
      remove: async (o) => items.delete(o),
    };
    let now = new Date('2026-01-01T00:00:00Z');
    const deps = { webhooks: store, policy, now: () => now };
    const first = await registerEndpoint(deps, 'acct:1', 'key_abc', { url: 'https://hooks.example.com/a' });
    expect(first.created).toBe(true);
    expect(first.endpoint.secret).toMatch(/^whsec_[A-Za-z0-9_-]{32}$/);
    const second = await registerEndpoint(deps, 'acct:1', 'key_abc', {
      url: 'https://hooks.example.com/b',
      events: ['document.failed'],
    });
    expect(second).toMatchObject({ created: false, endpoint: { secret: first.endpoint.secret } });
    expect(second.endpoint.events).toEqual(['document.failed']);
    const rotated = await rotateSecret(deps, 'acct:1', 'key_abc', 3600);
    expect(rotated.secret).not.toBe(first.endpoint.secret);
    expect(secretsFor(rotated, now)).toEqual([rotated.secret, first.endpoint.secret]);
    now = new Date(now.getTime() + 3601_000);
    expect(secretsFor(rotated, now)).toEqual([rotated.secret]);
    expect(publicEndpoint(rotated, {}, now).previous_secret_expires_at).toBeNull();
    await expect(rejectsAsHttp(rotateSecret(deps, 'acct:2', 'k', 60))).resolves.toMatchObject({
      statusCode: 404,
    });
  });
});

describe('identities and documented shapes', () => {
  const key = (accountId?: string): ApiKeyRecord => ({
    keyHash: 'f'.repeat(64),
    keyPrefix: 'key_ffff',
    plan: 'scale',
    status: 'active',
    email: 'a@example.com',
    createdAt: '2026-01-01T00:00:00Z',
    ...(accountId ? { accountId } : {}),
  });

  test('owners: the billing account when the key has one, else the key; job and event ids', () => {
    expect(ownerOf(key('cus_1'))).toBe('acct:cus_1');
    expect(ownerOf({ ...key('cus_1'), keyHash: '0'.repeat(64) })).toBe('acct:cus_1');
    expect(ownerOf(key())).toBe(`key:${'f'.repeat(32)}`);
    const ids = new Set(Array.from({ length: 50 }, () => newJobId()));
    expect(ids.size).toBe(50);
    for (const id of ids) expect(id).toMatch(JOB_ID_RE);
    expect(eventIdFor('job_a', 'document.rendered')).toBe(eventIdFor('job_a', 'document.rendered'));
    expect(eventIdFor('job_a', 'document.rendered')).not.toBe(eventIdFor('job_a', 'document.failed'));
    expect(newSecret()).not.toBe(newSecret());
  });

  const base: JobRecord = {
    jobId: newJobId(),
    owner: 'acct:1',
    plan: 'scale',
    status: 'queued',
    progress: 0,
    template: 'factura',
    format: 'pdf',
    createdAt: '2026-01-01T00:00:00.000Z',
    updatedAt: '2026-01-01T00:00:00.000Z',
    expiresAt: 1767312000,
    charged: [],
  };

  test('publicJob parses with the documented JobView in every state', () => {
    const done: JobRecord = {
      ...base,
      status: 'done',
      progress: 1,
      completedAt: '2026-01-01T00:00:03.000Z',
      result: {
        key: 'results/jobs/x/factura.pdf',
        filename: 'factura.pdf',
        contentType: 'application/pdf',
        bytes: 9,
      },
      event: { id: 'evt_1', type: 'document.rendered', queued: true },
      deliveries: [
        {
          eventId: 'evt_1',
          type: 'document.rendered',
          attempt: 1,
          at: '2026-01-01T00:00:04.000Z',
          outcome: 'failed',
          statusCode: 500,
          error: 'The endpoint answered 500',
          durationMs: 12,
          nextAttemptAt: '2026-01-01T00:01:04.000Z',
        },
      ],
    };
    const failed: JobRecord = {
      ...base,
      status: 'failed',
      error: 'The document could not be rendered as requested: …',
      problems: [{ loc: ['body', 'custom_html'], msg: 'x', type: 'template_syntax_error' }],
    };
    for (const job of [base, { ...base, status: 'rendering' as const, progress: 0.1 }, done, failed])
      JobView.parse(publicJob(job, { url: 'https://s3/x', expiresAt: new Date() }));
    const view = publicJob(done, { url: 'https://s3/x', expiresAt: new Date(0) });
    expect(view).toMatchObject({ download_url: 'https://s3/x', bytes: 9, event: { id: 'evt_1' } });
    expect(publicJob(failed)).toMatchObject({ reason: failed.error, problems: failed.problems });
    expect(publicJob(base).download_url).toBeUndefined();
    JobAccepted.parse({
      id: base.jobId,
      object: 'job',
      status: 'queued',
      progress: 0,
      status_url: '/v1/jobs/x',
    });
  });

  test('publicEndpoint parses with EndpointView; the secret only when asked', () => {
    const e: WebhookEndpoint = {
      owner: 'acct:1',
      url: 'https://hooks.example.com/a',
      events: ['document.rendered'],
      secret: newSecret(),
      createdAt: 'x',
      updatedAt: 'y',
      changedBy: 'key_abc',
    };
    expect(EndpointView.parse(publicEndpoint(e)).secret).toBeUndefined();
    expect(EndpointView.parse(publicEndpoint(e, { withSecret: true })).secret).toBe(e.secret);
  });

  test('every webhook route of the manifest is documented; the prose names the schedule the queue enforces', () => {
    const ids = ['GetJob', 'WebhookPut', 'WebhookGet', 'WebhookDelete', 'WebhookRotateSecret'];
    for (const id of ids) {
      expect(documentsManifest.routes.find((r) => r.id === id)?.docs).toBeDefined();
    }
    expect(WEBHOOKS_OVERVIEW.trim().startsWith('## Webhooks (Scale)')).toBe(true);
    expect(WEBHOOKS_OVERVIEW).toContain('1 min, 5 min, 30 min, 2 h, 6 h');
    expect(parseConfig({}).WEBHOOK_RETRY_SCHEDULE_S).toEqual([...DEFAULT_RETRY_SCHEDULE_S]);
    const deliveries = documentsManifest.queues!.find((q) => q.id === 'deliveries')!;
    expect(deliveries.maxReceiveCount).toBe(DEFAULT_RETRY_SCHEDULE_S.length + 1);
  });

  test('config: the retry schedule and the DNS stub are validated', () => {
    expect(parseConfig({ WEBHOOK_RETRY_SCHEDULE_S: '1, 2,3' }).WEBHOOK_RETRY_SCHEDULE_S).toEqual([1, 2, 3]);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE_S: '1,x' })).toThrow(/WEBHOOK_RETRY_SCHEDULE_S/);
    expect(() => parseConfig({ WEBHOOK_RETRY_SCHEDULE_S: '50000' })).toThrow(/12 h/);
    expect(parseConfig({ WEBHOOK_DNS_STUB: 'a.test=127.0.0.1|::1' }).WEBHOOK_DNS_STUB).toEqual({
      'a.test': ['127.0.0.1', '::1'],
    });
    expect(() => parseConfig({ WEBHOOK_DNS_STUB: 'a.test=nope' })).toThrow(/WEBHOOK_DNS_STUB/);
    expect(() => parseConfig({ WEBHOOK_URL_ALLOWLIST: 'bad host!' })).toThrow(/WEBHOOK_URL_ALLOWLIST/);
  });

  test('inside Lambda the local-test settings (allowlist, DNS stub) are ignored even if set', () => {
    const cfg = parseConfig({ WEBHOOK_URL_ALLOWLIST: '127.0.0.1', WEBHOOK_DNS_STUB: 'a.test=127.0.0.1' });
    const local = webhookPolicyFrom(cfg, {});
    expect(local.allowlist).toHaveLength(1);
    expect(local.resolver).toBeDefined();
    const inLambda = webhookPolicyFrom(cfg, { AWS_LAMBDA_FUNCTION_NAME: 'documents-DeliveryWorker' });
    expect(inLambda.allowlist).toEqual([]);
    expect(inLambda.resolver).toBeUndefined();
  });
});

describe('the webhook surface: one builder and one handler file per service', () => {
  const hooks = (routes: RouteSpec[]) => routes.filter((r) => r.path.startsWith('/v1/webhook'));

  test('both services declare the same routes, limits and grants; the delivery worker and queue likewise', () => {
    const shape = ({ docs: _docs, handler, ...rest }: RouteSpec) => ({
      ...rest,
      handler: handler.split('/').pop(),
    });
    expect(hooks(documentsManifest.routes).map(shape)).toEqual(hooks(narrationManifest.routes).map(shape));
    expect(hooks(documentsManifest.routes).map((r) => r.id)).toEqual([
      'WebhookPut',
      'WebhookGet',
      'WebhookDelete',
      'WebhookRotateSecret',
    ]);
    for (const m of [documentsManifest, narrationManifest]) {
      const worker = m.workers.find((w) => w.id === 'DeliveryWorker')!;
      expect(worker.access.itemPrefixes?.accounts).toContain(WEBHOOK_ITEM_PREFIX);
      expect(worker.access.settings).toEqual(
        expect.arrayContaining(['WEBHOOK_TIMEOUT_MS', 'WEBHOOK_SECRET_OVERLAP_S']),
      );
      const queue = m.queues.find((q) => q.id === worker.queues[0])!;
      expect(queue).toMatchObject({
        webhookDeliveries: true,
        maxReceiveCount: DEFAULT_RETRY_SCHEDULE_S.length + 1,
      });
    }
  });

  test("each route's body limit from its spec, refused in the service's validation shape before any storage", async () => {
    const docs = routeHandler(WEBHOOK_ROUTES, makeHandlers(untouchedDeps<DocumentsDeps>({})));
    const narr = routeHandler(
      NARRATION_WEBHOOK_ROUTES,
      makeNarrationHandlers(untouchedDeps<NarrationDeps>({})),
    );
    const post = (routeKey: string, bytes: number) => {
      const [method, path] = routeKey.split(' ') as [string, string];
      return event(method, path, { routeKey, body: 'x'.repeat(bytes) });
    };
    for (const [handler, status] of [
      [docs, 400],
      [narr, 422],
    ] as const) {
      const rotate = await call(handler, post('POST /v1/webhook/rotate-secret', 2048));
      expect(rotate.statusCode).toBe(status);
      expect(JSON.stringify(rotate.json.detail)).toContain('1024 bytes');
      const put = await call(handler, post('PUT /v1/webhook', 9 * 1024));
      expect(put.statusCode).toBe(status);
      expect(JSON.stringify(put.json.detail)).toContain('8192 bytes');
    }
  });
});

describe('one event model for both services', () => {
  const oldId = (s: string) => 'evt_' + createHash('sha256').update(s).digest('base64url').slice(0, 24);

  test('event ids: deterministic per subject and type, the same ids as before the model was shared', () => {
    expect(eventIdFor('job_a', 'document.rendered')).toBe(oldId('job_a:document.rendered'));
    expect(audioEventIdFor('a1', 'audio.failed')).toBe(oldId('audio:a1:audio.failed'));
    expect(audioEventIdFor('a1', 'audio.failed')).toBe(webhookEventId('audio:a1', 'audio.failed'));
    expect(webhookEventId('x', 'audio.completed')).not.toBe(webhookEventId('x', 'audio.failed'));
  });

  test('the envelope: Stripe-like fields in a fixed order, `created` in Unix seconds, the service payload as data', () => {
    const event = webhookEvent('evt_1', 'document.rendered', '2026-11-28T08:00:01.900Z', {
      job: { id: 'job_a' },
    });
    expect(JSON.stringify(event)).toBe(
      '{"id":"evt_1","object":"event","type":"document.rendered","created":1795852801,"api_version":"v1",' +
        '"data":{"job":{"id":"job_a"}}}',
    );
  });
});
