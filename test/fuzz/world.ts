// The world the API fuzzer runs in: both services on the local fronts over the emulators (in this process), a
// Stripe stand-in and an article page on loopback, a paid key, audio records in each state, PDF files, and the
// request shapes read from the services themselves (narration's OpenAPI at GET /api, documents' templates at GET
// /templates and its request schema). Network rule: a TCP tripwire and a DNS guard stop anything but loopback, and
// /convert/url resolves names through a stub (no packet leaves the machine).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { z } from 'zod';
import { awsDeps } from '../../lambdas/narration/deps';
import { renderRequestSchema } from '../../lambdas/documents/request/schema';
import { generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { parseConfig as parseDocumentsConfig } from '../../lambdas/documents/config';
import { parseConfig as parseNarrationConfig } from '../../lambdas/narration/config';
import type { ServiceManifest } from '../../lambdas/shared/manifest';
import { stubResolver } from '../../lambdas/shared/net/safe-fetch';
import type { LambdaHandler } from '../../lib/local/front';
import { makeFixtures } from '../fixtures/pdf/make-fixtures';
import {
  TEST_PRICE_LIFETIME,
  TEST_PRICE_PRO,
  TEST_SECRET_KEY,
  TEST_WEBHOOK_SECRET,
  sign,
  startStripeStandIn,
  type StripeStandIn,
} from '../helpers/billing-stripe';
import { startFronts, type Fronts, type ServiceName } from '../helpers/front-runtime';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { customHtml, type JsonSchema, type RouteShape, type World } from './arbitraries';
import { installDnsGuard, type DnsGuard } from './dns-guard';

export interface FuzzWorld {
  fronts: Fronts;
  urls: Record<ServiceName, string>;
  gen: World;
  shapes: Record<ServiceName, Record<string, RouteShape>>;
  /** Connections the sentinel (the only URL hostile HTML may name) received: containment lets none through. */
  sentinelHits(): number;
  tripwire: Tripwire;
  dns: DnsGuard;
  stripe: StripeStandIn;
  stop(): Promise<void>;
}

const DASHBOARD_TOKEN = 'fuzz-dashboard-token-0123456789';
const EXPERIMENTS = { precio: { variants: { a: 1, b: 1 }, control: 'a' } };

/**
 * Values for the deployment settings routes declare in their manifest entries (`access.settings`): a route whose
 * setting is missing answers 503 "not configured", which is right in production and useless for fuzzing. Settings
 * with defaults need nothing; `unconfiguredSettings()` names any new one this table lacks.
 */
export function settings(stripeBase: string): Record<string, string> {
  return {
    STRIPE_SECRET_KEY: TEST_SECRET_KEY,
    STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    STRIPE_PRICE_PRO: TEST_PRICE_PRO,
    STRIPE_PRICE_LIFETIME: TEST_PRICE_LIFETIME,
    STRIPE_API_BASE: stripeBase,
    STRIPE_PORTAL_LOGIN_URL: 'https://billing.stripe.com/p/login/test_fuzz',
    DOCS_STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
    DOCS_STRIPE_PRICE_PRO: 'price_docs_pro_fuzz',
    DOCS_STRIPE_PRICE_SCALE: 'price_docs_scale_fuzz',
    DOCS_STRIPE_PRICE_LIFETIME: 'price_docs_lifetime_fuzz',
    AB_EXPERIMENTS: JSON.stringify(EXPERIMENTS),
    DASHBOARD_TOKEN,
    // Optional (default: the request's own address); set so every manifest setting has a value here.
    PUBLIC_BASE_URL: 'https://narracion.example',
    BILLING_RETURN_URL: 'https://narracion.example/pay/status',
    DOCS_PUBLIC_BASE_URL: 'https://documentos.example',
    DOCS_BILLING_RETURN_URL: 'https://documentos.example/pay/status',
  };
}

/** Settings named by a manifest that have no default and no value in `settings()`. */
export function unconfiguredSettings(manifests: ServiceManifest[]): string[] {
  const given = settings('http://127.0.0.1:1');
  const defaults: Record<string, unknown> = { ...parseNarrationConfig({}), ...parseDocumentsConfig({}) };
  const named = new Set(manifests.flatMap((m) => m.routes.flatMap((r) => r.access.settings ?? [])));
  return [...named].filter((n) => !(n in given) && defaults[n] === undefined);
}

async function listenLoopback(server: Server): Promise<number> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as AddressInfo).port;
}

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { accept: 'application/json' } });
  if (res.status !== 200) throw new Error(`GET ${url} → ${res.status}`);
  return res.json();
}

type OpenApiOp = {
  operationId?: string;
  parameters?: { name: string; in: string }[];
  requestBody?: { content: Record<string, { schema?: JsonSchema }> };
};

/** Route id → shape, from narration's own OpenAPI document (so a documented new route is fuzzed by schema). */
export function shapesFromOpenApi(doc: {
  paths?: Record<string, Record<string, OpenApiOp>>;
}): Record<string, RouteShape> {
  const out: Record<string, RouteShape> = {};
  for (const ops of Object.values(doc.paths ?? {}))
    for (const op of Object.values(ops)) {
      if (!op.operationId) continue;
      const content = op.requestBody?.content ?? {};
      const types = Object.keys(content);
      out[op.operationId] = {
        body: types.length ? content[types[0]!]!.schema : undefined,
        contentTypes: types,
        query: (op.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
      };
    }
  return out;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const tripwire = installLoopbackTripwire();
  const dns = installDnsGuard();
  const stripe = await startStripeStandIn();

  // A short article (~900 characters): a valid /convert/url narrates it inline, so it must stay cheap.
  const article = Buffer.from(
    '<!DOCTYPE html><html lang="es"><head><meta charset="utf-8"><title>El huerto del barrio</title></head>' +
      '<body><nav>Inicio · Noticias</nav><article><h1>El huerto del barrio</h1>' +
      [
        'Los vecinos de la colonia convirtieron un terreno baldío en un huerto comunitario que hoy abastece a treinta familias.',
        'Cada sábado se reúnen para sembrar, regar y repartir la cosecha: jitomate, calabaza, cilantro y frijol.',
        'La iniciativa comenzó hace dos años con cinco personas y una carretilla prestada por la parroquia.',
        'Ahora la escuela primaria lleva a los niños a aprender cómo crecen las plantas y por qué importa el agua.',
        'El ayuntamiento estudia replicar el proyecto en otros tres barrios de la ciudad el próximo año.',
      ]
        .map((p) => `<p>${p}</p>`)
        .join('') +
      '</article><footer>© Diario local</footer></body></html>',
  );
  const site = createServer((req, res) => {
    if (req.url === '/articulo') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(article);
    }
    if (req.url === '/redirige') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    res.writeHead(404, { 'content-type': 'text/html' });
    res.end('<p>No existe</p>');
  });
  const sitePort = await listenLoopback(site);
  let hits = 0;
  const sentinel = createServer((_req, res) => res.end('sentinel'));
  sentinel.on('connection', () => hits++);
  const sentinelPort = await listenLoopback(sentinel);

  // Names /convert/url may be given resolve here, never through DNS: one allow-listed article host, and names
  // that point at addresses the SSRF filter must refuse before connecting.
  const resolver = stubResolver({
    'noticias.example': ['127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'interno.example': ['10.0.0.7'],
    'v6.example': ['::1'],
    'mixto.example': ['93.184.215.14', '127.0.0.1'],
  });

  const fronts = await startFronts({
    env: {
      ...settings(stripe.base),
      URL_FETCH_ALLOWLIST: `127.0.0.1:${sitePort}`,
      // Queued jobs stay queued (no worker runs): the fuzzer checks answers, not narrations of 100,000 characters.
      SYNC_MAX_CHARS: '3000',
    },
    override: async (route): Promise<LambdaHandler | undefined> => {
      // The one route that fetches caller-given URLs: same handler, names resolved by the stub.
      if (route.handler.endsWith('narration/handlers/convert-url.ts')) {
        const mod = await import('../../lambdas/narration/handlers/convert-url');
        return mod.makeHandler(awsDeps(), {
          resolver,
          connectTimeoutMs: 1000,
          totalTimeoutMs: 3000,
        }) as unknown as LambdaHandler;
      }
      return undefined;
    },
  });
  const urls = fronts.urls as Record<ServiceName, string>;

  // A paid key, and audio records in each state GET /audio can meet.
  const paidKey = generateKey();
  await new DynamoKeyStore(dynamo(), process.env.KEYS_TABLE!).put({
    keyHash: hashKey(paidKey),
    keyPrefix: paidKey.slice(0, 8),
    plan: 'pro',
    status: 'active',
    email: 'fuzz@example.com',
    createdAt: new Date().toISOString(),
  });
  const audio = awsDeps().audio;
  const now = new Date();
  const base = {
    voice: 'es-MX-Mia',
    fmt: 'mp3' as const,
    chars: 10,
    plan: 'free' as const,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 86400,
  };
  await audio.create({
    ...base,
    audioId: 'fuzzDone0000000000000001',
    status: 'done',
    durationS: 1,
    bytes: 10,
  });
  await audio.create({ ...base, audioId: 'fuzzQueued00000000000001', status: 'queued', progress: 0 });
  await audio.create({ ...base, audioId: 'fuzzFailed00000000000001', status: 'queued' });
  await audio.fail(
    'fuzzFailed00000000000001',
    'Narration failed after 3 attempts (fuzz). Please submit the text again.',
  );

  const pdfs = await makeFixtures();
  const files = [...pdfs.clean.slice(0, 2), ...pdfs.broken]
    .map((f) => f.bytes)
    .filter((b) => b.length < 512 * 1024);

  // Each service describes itself at GET /api (OpenAPI); a route it does not document is fuzzed without a schema.
  const described: Partial<Record<ServiceName, Record<string, RouteShape>>> = {};
  for (const service of ['narration', 'documents'] as const) {
    const doc = await getJson(`${urls[service]}/api?format=json`).catch((err: Error) => {
      console.warn(`GET ${service} /api failed (${err.message}): its routes are fuzzed without schemas`);
      return {};
    });
    described[service] = shapesFromOpenApi(doc as Parameters<typeof shapesFromOpenApi>[0]);
  }
  const templates = (await getJson(`${urls.documents}/templates`)) as {
    templates: { slug: string; formats: string[]; sample: Record<string, unknown> }[];
  };
  const voices = ((await getJson(`${urls.narration}/voices`)) as { id: string }[]).map((v) => v.id);
  const slugs = templates.templates.map((t) => t.slug);

  const sentinelUrl = `http://127.0.0.1:${sentinelPort}/`;
  const gen: World = {
    known: {
      voice: voices,
      slug: slugs,
      template: slugs,
      plan: ['pro', 'lifetime', 'scale', 'free'],
      experiment: Object.keys(EXPERIMENTS),
      audio_id: [
        'fuzzDone0000000000000001',
        'fuzzDone0000000000000001.mp3',
        'fuzzQueued00000000000001.ogg',
        'fuzzFailed00000000000001',
      ],
      url: [
        `http://127.0.0.1:${sitePort}/articulo`,
        `http://noticias.example:${sitePort}/articulo`,
        `127.0.0.1:${sitePort}/articulo`,
        `http://127.0.0.1:${sitePort}/redirige`,
        `http://127.0.0.1:${sitePort}/no-existe`,
        'http://169.254.169.254/latest/meta-data/',
        'http://metadata.example/',
        'http://interno.example:8080/admin',
        'http://v6.example/',
        'http://mixto.example/',
        'http://[::1]:22/',
        'http://0x7f.1/',
        'http://2130706433/',
        'http://user:pass@noticias.example/',
        'ftp://noticias.example/a',
        'file:///etc/passwd',
        'javascript:alert(1)',
        'gopher://127.0.0.1:25/',
        'http://no-resuelve.example/',
      ],
      email: ['ana@example.com', 'fuzz@example.com', 'a@b', 'ANA@EXAMPLE.COM '],
      visitor: ['visitor-0123456789'],
      session_id: ['cs_test_fuzz'],
    },
    validAuthorization: [`Bearer ${paidKey}`],
    validHeaders: { 'x-dashboard-token': [DASHBOARD_TOKEN] },
    sign: (payload) => sign(payload),
    files,
    sentinelUrl,
  };

  const renderSchema = z.toJSONSchema(renderRequestSchema, {
    io: 'input',
    unrepresentable: 'any',
  }) as JsonSchema;
  const sample = fc.constantFrom(...templates.templates).chain((t) =>
    fc.record({
      template: fc.constant(t.slug),
      format: fc.oneof(fc.constantFrom(...t.formats), fc.constantFrom('pdf', 'png', 'docx', 'txt', 'exe')),
      data: fc.constant(t.sample),
    }),
  );
  const custom = fc.record({
    custom_html: customHtml(gen),
    format: fc.constantFrom('pdf', 'html', 'png', 'docx', 'md', 'txt', 'json', 'csv', 'xlsx', 'zip'),
    data: fc.oneof(fc.constantFrom(...templates.templates.map((t) => t.sample)), fc.constant({})),
    options: fc.option(
      fc.record({
        page_size: fc.constantFrom('A4', 'letter', 'Legal', 'A0', 'B99'),
        landscape: fc.boolean(),
        header_html: fc.constantFrom('<b>Encabezado</b>', `<img src="${sentinelUrl}h.png">`, '{{ 7*7 }}'),
      }),
      { nil: undefined },
    ),
  });
  const documentsShapes: Record<string, RouteShape> = {
    ...described.documents,
    Render: {
      body: renderSchema,
      contentTypes: ['application/json'],
      ...described.documents?.Render,
      seeds: fc.oneof({ weight: 3, arbitrary: sample }, { weight: 1, arbitrary: custom }),
    },
  };

  return {
    fronts,
    urls,
    gen,
    shapes: { narration: described.narration ?? {}, documents: documentsShapes },
    sentinelHits: () => hits,
    tripwire,
    dns,
    stripe,
    async stop() {
      await fronts.stop();
      for (const s of [site, sentinel]) {
        s.closeAllConnections();
        await new Promise((r) => s.close(r));
      }
      await stripe.stop();
      dns.uninstall();
      tripwire.uninstall();
    },
  };
}
