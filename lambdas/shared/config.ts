// Configuration, parsed once per process with zod. Resource names are set by the CDK stack in the cloud and by
// bin/local.ts locally; a missing one fails with a message naming the variable and the fix.
import { z } from 'zod';
import { isIP } from 'node:net';
import { allowlistFrom } from './net/safe-fetch';
import { parseExperiments } from './growth/experiments';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An optional URL variable; set but empty counts as unset. */
const optionalUrl = (protocol: RegExp) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol }).optional());

/** A comma-separated allowlist in safe-fetch's syntax (host[:port], IP[:port], [IPv6][:port], CIDR), checked once. */
const allowlist = (name: string) =>
  z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        allowlistFrom(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message.replace('URL_FETCH_ALLOWLIST', name) });
      }
    });

const schema = z.object({
  AUDIO_TABLE: z.string().optional(),
  QUOTAS_TABLE: z.string().optional(),
  KEYS_TABLE: z.string().optional(),
  ACCOUNTS_TABLE: z.string().optional(),
  GROWTH_TABLE: z.string().optional(),
  AUDIO_BUCKET: z.string().optional(),
  /** Documents: samples and results too large for a Lambda response. */
  DOCUMENTS_BUCKET: z.string().optional(),
  /**
   * Documents larger than this are stored in DOCUMENTS_BUCKET and answered with 303 to a presigned URL: a Lambda
   * response carries at most 6 MB, base64-encoded (4 MiB of document + headers fits).
   */
  DOCUMENTS_INLINE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1)
    .default(4 * 1024 * 1024),
  PRIORITY_QUEUE_URL: z.string().optional(),
  STANDARD_QUEUE_URL: z.string().optional(),
  // ── Documents async renders and Scale webhooks (docs/documents-rendering.md, "Async renders and webhooks"). ──
  /** Queue of async render jobs (POST /v1/render with options.async) read by the render worker. */
  DOCUMENTS_RENDER_QUEUE_URL: z.string().optional(),
  /** Queue of webhook deliveries read by the delivery worker (retries are this queue's redeliveries). */
  DOCUMENTS_DELIVERY_QUEUE_URL: z.string().optional(),
  /** Lifetime of the presigned download_url of a finished job (GET /v1/jobs/{id} and webhook payloads). */
  JOB_DOWNLOAD_TTL_S: z.coerce.number().int().min(60).max(43200).default(3600),
  /**
   * Seconds to wait after failed delivery attempt 1, 2, ...: comma-separated; the attempt after the last one is the
   * final one (then the message goes to the DLQ). The delivery queue's maxReceiveCount is this length + 1.
   */
  WEBHOOK_RETRY_SCHEDULE_S: z
    .string()
    .default('60,300,1800,7200,21600')
    .transform((v, ctx) => {
      const parts = v.split(',').map((p) => p.trim());
      const nums = parts.map(Number);
      if (!parts.length || nums.some((n, i) => !/^\d+$/.test(parts[i]!) || n > 43200)) {
        ctx.addIssue({
          code: 'custom',
          message:
            'WEBHOOK_RETRY_SCHEDULE_S must be comma-separated whole seconds, each at most 43200 (12 h)',
        });
        return z.NEVER;
      }
      return nums;
    }),
  /** Whole webhook delivery attempt (connect, send, answer) must finish within this. */
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(100).max(30000).default(10000),
  /** After POST /v1/webhook/rotate-secret, the previous secret keeps signing (a second v1=) for this long. */
  WEBHOOK_SECRET_OVERLAP_S: z.coerce.number().int().min(0).max(604800).default(86400),
  /**
   * Callback destinations exempt from the public-address and port rules, and the only ones that may use http://
   * (same syntax as URL_FETCH_ALLOWLIST). LOCAL TESTS ONLY: the stack never sets it and it is ignored inside Lambda.
   */
  WEBHOOK_URL_ALLOWLIST: allowlist('WEBHOOK_URL_ALLOWLIST'),
  /**
   * TESTS ONLY: resolve callback host names from this table instead of DNS (`name=ip|ip,name=ip`); names not
   * listed do not resolve. The addresses are still checked like DNS answers. Ignored inside Lambda.
   */
  WEBHOOK_DNS_STUB: z
    .string()
    .default('')
    .transform((v, ctx) => {
      const table: Record<string, string[]> = {};
      for (const entry of v
        .split(',')
        .map((e) => e.trim())
        .filter(Boolean)) {
        const [name, addrs] = entry.split('=') as [string, string | undefined];
        const list = (addrs ?? '')
          .split('|')
          .map((a) => a.trim())
          .filter(Boolean);
        if (!name || !list.length || list.some((a) => !isIP(a))) {
          ctx.addIssue({ code: 'custom', message: `WEBHOOK_DNS_STUB entry '${entry}' is not name=ip[|ip]` });
          return z.NEVER;
        }
        table[name.toLowerCase()] = list;
      }
      return Object.keys(table).length ? table : undefined;
    }),
  /** polly in the cloud; espeak (CLI when installed, else WASM) locally. */
  SPEECH_ENGINE: z.enum(['polly', 'espeak', 'espeak-cli', 'espeak-wasm']).default('polly'),
  /** Path-style S3 URLs (the local S3 emulator needs them). */
  S3_FORCE_PATH_STYLE: bool,
  /** Days a finished audio stays downloadable (the bucket's lifecycle rule matches this). */
  AUDIO_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Texts up to this many characters are narrated inside the request; longer ones go through the queue. */
  SYNC_MAX_CHARS: z.coerce.number().int().min(1).default(3000),
  FREE_PER_HOUR: z.coerce.number().int().min(0).default(5),
  FREE_PER_DAY: z.coerce.number().int().min(0).default(20),
  /** Lifetime of the presigned URL GET /audio/{id} redirects to. */
  PRESIGN_TTL_S: z.coerce.number().int().min(10).max(3600).default(300),
  /** Seconds a worker owns a job without renewing it (progress renews); below the queue visibility timeout. */
  JOB_LEASE_S: z.coerce.number().int().min(1).max(3600).default(120),
  /** SQS maxReceiveCount of the job queues: on the last attempt the worker records the failure. */
  MAX_RECEIVE_COUNT: z.coerce.number().int().min(1).default(3),
  /**
   * Destinations POST /convert/url (and any safeFetch caller) may reach although they are not public, or on a
   * port other than 80/443: comma-separated host[:port], IP[:port], [IPv6][:port] or CIDR. Empty in the cloud;
   * for local tests and self-hosted setups only. Parsed and checked here, once.
   */
  URL_FETCH_ALLOWLIST: allowlist('URL_FETCH_ALLOWLIST'),
  /** POST /demo/try: its own per-IP counters, separate from the free tier's. */
  DEMO_PER_HOUR: z.coerce.number().int().min(0).default(10),
  DEMO_PER_DAY: z.coerce.number().int().min(0).default(30),
  /** Days a demo audio is kept (shorter than AUDIO_TTL_DAYS: the demo is a sample, not a free conversion). */
  DEMO_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(1),
  // ── Growth (docs/growth.md): waitlist, A/B experiments, public stats. ──
  /**
   * Secret guarding GET /ab/results/{experiment}; unset → that route answers 503. The stack passes it only to
   * that function, from a Secrets Manager secret. At least 16 characters.
   */
  DASHBOARD_TOKEN: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().min(16, 'DASHBOARD_TOKEN must have at least 16 characters (use a random string)').optional(),
  ),
  /** A/B experiments as JSON: {"<experiment>": {"variants": {"<variant>": <weight>, ...}, "control": "<variant>"}}. */
  AB_EXPERIMENTS: z
    .string()
    .default('')
    .transform((v, ctx) => {
      try {
        return parseExperiments(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    }),
  /** POST /ab/event per IP (0 = no limit). Many visitors can share an address (NAT), so these are generous. */
  AB_EVENTS_PER_HOUR: z.coerce.number().int().min(0).default(600),
  AB_EVENTS_PER_DAY: z.coerce.number().int().min(0).default(5000),
  /** POST /waitlist per IP (0 = no limit): keeps scripts from inflating the count. */
  WAITLIST_PER_HOUR: z.coerce.number().int().min(0).default(10),
  WAITLIST_PER_DAY: z.coerce.number().int().min(0).default(50),
  // ── Billing (Stripe). All optional: without them the /pay routes answer 503 naming what is missing. ──
  /** Stripe secret API key (sk_live_… / sk_test_… or a restricted rk_ key). A secret: the stack reads it from Secrets Manager. */
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  /** Signing secret of the webhook endpoint (whsec_…). A secret, like STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  /** Stripe price ids: Pro is a recurring monthly price, Lifetime a one-time price. They decide what is charged. */
  STRIPE_PRICE_PRO: z.string().trim().optional(),
  STRIPE_PRICE_LIFETIME: z.string().trim().optional(),
  /** Displayed prices (minor units) in GET /pay/status; keep them equal to the Stripe prices above. */
  PRICE_PRO_CENTS: z.coerce.number().int().min(0).default(700),
  PRICE_LIFETIME_CENTS: z.coerce.number().int().min(0).default(4900),
  PRICE_CURRENCY: z.string().trim().toLowerCase().length(3).default('usd'),
  /** Stripe API base URL; only for tests and local stand-ins (e.g. http://127.0.0.1:12111). Unset: api.stripe.com. */
  STRIPE_API_BASE: optionalUrl(/^https?$/),
  /** Public address of this API (success_url of Checkout); default: the address the request came in on. */
  PUBLIC_BASE_URL: optionalUrl(/^https?$/),
  /** Where Checkout's back button and the customer portal return to; default PUBLIC_BASE_URL + /pay/status. */
  BILLING_RETURN_URL: optionalUrl(/^https?$/),
  /** Stripe's customer-portal login link (Stripe e-mails a sign-in code): for customers who lost their API key. */
  STRIPE_PORTAL_LOGIN_URL: optionalUrl(/^https$/),
  /** Hours a new API key can be picked up (once) at GET /pay/success before its sealed copy is discarded. */
  KEY_PICKUP_HOURS: z.coerce.number().int().min(1).max(168).default(24),
  // ── Documents billing (its /pay routes, docs/billing.md). Same Stripe account (STRIPE_SECRET_KEY,
  // STRIPE_PORTAL_LOGIN_URL, KEY_PICKUP_HOURS are shared); its own endpoint, prices and public address. Displayed
  // prices come from the documents plans (lambdas/documents/domain/plans.ts, the contract's $9 / $29 / $49). ──
  /** Signing secret (whsec_…) of the documents API's own webhook endpoint. A secret, like STRIPE_WEBHOOK_SECRET. */
  DOCS_STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  /** Stripe price ids of the documents plans: Pro and Scale recurring monthly, Lifetime one-time. */
  DOCS_STRIPE_PRICE_PRO: z.string().trim().optional(),
  DOCS_STRIPE_PRICE_SCALE: z.string().trim().optional(),
  DOCS_STRIPE_PRICE_LIFETIME: z.string().trim().optional(),
  /** Public address of the documents API (its Checkout success_url); default: the address the request came in on. */
  DOCS_PUBLIC_BASE_URL: optionalUrl(/^https?$/),
  /** Where the documents Checkout's back button and portal return to; default DOCS_PUBLIC_BASE_URL + /pay/status. */
  DOCS_BILLING_RETURN_URL: optionalUrl(/^https?$/),
});

export type Config = z.output<typeof schema>;
type ResourceVar =
  | 'AUDIO_TABLE'
  | 'QUOTAS_TABLE'
  | 'KEYS_TABLE'
  | 'ACCOUNTS_TABLE'
  | 'AUDIO_BUCKET'
  | 'DOCUMENTS_BUCKET'
  | 'PRIORITY_QUEUE_URL'
  | 'STANDARD_QUEUE_URL'
  | 'DOCUMENTS_RENDER_QUEUE_URL'
  | 'DOCUMENTS_DELIVERY_QUEUE_URL'
  | 'GROWTH_TABLE';

export class ConfigError extends Error {}

export function parseConfig(env: Record<string, string | undefined>): Config {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration (${problems}). Fix the environment variables named.`);
  }
  return result.data;
}

let cached: Config | undefined;
export function config(): Config {
  return (cached ??= parseConfig(process.env));
}

/** For tests and the local runtime, which set variables after import. */
export function resetConfig(): void {
  cached = undefined;
}

export function required(name: ResourceVar, cfg: Config = config()): string {
  const v = cfg[name];
  if (!v)
    throw new ConfigError(
      `${name} is not set. The CDK stack sets it on every function that needs it; locally run \`npm start\`, which starts the emulators and sets it.`,
    );
  return v;
}
