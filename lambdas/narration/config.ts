// Narration's configuration: the platform's variables (lambdas/shared/config.ts) plus its own, parsed once per process.
import { z } from 'zod';
import { defineConfig, experimentsVar, optionalUrl, platformVars, resourceVar } from '../shared/config';
import { webhookVars } from '../shared/webhooks/config';

/** The experiments the narration site runs by default (its pricing layouts). */
export const SITE_EXPERIMENTS = '{"precios":{"variants":{"mensual":1,"vitalicio":1},"control":"mensual"}}';

const { parse, config, required } = defineConfig({
  ...platformVars,
  /**
   * The site's pricing experiment (lambdas/narration/site: `precios`, control `mensual`) runs unless the operator
   * sets AB_EXPERIMENTS (docs/growth.md), which replaces it; an empty value runs none.
   */
  AB_EXPERIMENTS: experimentsVar(SITE_EXPERIMENTS),
  AUDIO_TABLE: resourceVar(),
  AUDIO_BUCKET: resourceVar(),
  PRIORITY_QUEUE_URL: resourceVar(),
  STANDARD_QUEUE_URL: resourceVar(),
  /** Completion webhook events (audio.completed / audio.failed) read by the delivery worker. */
  DELIVERY_QUEUE_URL: resourceVar(),
  /** The queues' DLQs (dlqEnvVar in shared/manifest.ts): only the dashboard reads their depth (access.readDlqs). */
  PRIORITY_DLQ_URL: z.string().optional(),
  STANDARD_DLQ_URL: z.string().optional(),
  WEBHOOKS_DLQ_URL: z.string().optional(),
  /** WEBHOOK_RETRY_SCHEDULE_S, WEBHOOK_TIMEOUT_MS, WEBHOOK_SECRET_OVERLAP_S and the local-test settings. */
  ...webhookVars,
  /** polly in the cloud; espeak (CLI when installed, else WASM) locally. */
  SPEECH_ENGINE: z.enum(['polly', 'espeak', 'espeak-cli', 'espeak-wasm']).default('polly'),
  /** The espeak-ng program (espeak-cli): a name on PATH or a path (tests record its input through a wrapper). */
  ESPEAK_BIN: z.string().min(1).default('espeak-ng'),
  /** Days a finished audio stays downloadable (the bucket's lifecycle rule matches this). */
  AUDIO_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  /** Texts up to this many characters are narrated inside the request; longer ones go through the queue. */
  SYNC_MAX_CHARS: z.coerce.number().int().min(1).default(3000),
  /**
   * Seconds a convert request (and GET /audio of a pending job) waits for a queued job before answering 202 (or
   * redirecting to itself): below API Gateway's 30 s, inside the route's deadline. 0 = answer 202 at once.
   * The wait always ends before the route's deadline (waitBudgetMs), so a larger value only matters where the
   * deadline is larger too (a local runtime started with `deadlineS`, in tests).
   */
  WAIT_WINDOW_S: z.coerce.number().min(0).max(900).default(25),
  FREE_PER_HOUR: z.coerce.number().int().min(0).default(5),
  FREE_PER_DAY: z.coerce.number().int().min(0).default(20),
  /** Lifetime of the presigned URL GET /audio/{id} redirects to. */
  PRESIGN_TTL_S: z.coerce.number().int().min(10).max(3600).default(300),
  /** POST /demo/try: its own per-IP counters, separate from the free tier's. */
  DEMO_PER_HOUR: z.coerce.number().int().min(0).default(10),
  DEMO_PER_DAY: z.coerce.number().int().min(0).default(30),
  /** Days a demo audio is kept (shorter than AUDIO_TTL_DAYS: the demo is a sample, not a free conversion). */
  DEMO_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(1),
  // ── Growth routes (docs/growth.md): waitlist, A/B experiments, public stats. ──
  /**
   * Secret guarding GET /ab/results/{experiment}; unset → that route answers 503. The stack passes it only to
   * that function, from a Secrets Manager secret. At least 16 characters.
   */
  DASHBOARD_TOKEN: z.preprocess(
    (v) => (typeof v === 'string' && v.trim() === '' ? undefined : v),
    z.string().min(16, 'DASHBOARD_TOKEN must have at least 16 characters (use a random string)').optional(),
  ),
  /** POST /ab/event per IP (0 = no limit). Many visitors can share an address (NAT), so these are generous. */
  AB_EVENTS_PER_HOUR: z.coerce.number().int().min(0).default(600),
  AB_EVENTS_PER_DAY: z.coerce.number().int().min(0).default(5000),
  /** POST /waitlist per IP (0 = no limit): keeps scripts from inflating the count. */
  WAITLIST_PER_HOUR: z.coerce.number().int().min(0).default(10),
  WAITLIST_PER_DAY: z.coerce.number().int().min(0).default(50),
  // ── Billing (narration's /pay routes, docs/billing.md; the Stripe account's settings are the platform's). ──
  /** Signing secret of the webhook endpoint (whsec_…). A secret, like STRIPE_SECRET_KEY. */
  STRIPE_WEBHOOK_SECRET: z.string().trim().optional(),
  /** Stripe price ids: Pro is a recurring monthly price, Lifetime a one-time price. They decide what is charged. */
  STRIPE_PRICE_PRO: z.string().trim().optional(),
  STRIPE_PRICE_LIFETIME: z.string().trim().optional(),
  /** Displayed prices (minor units) in GET /pay/status; keep them equal to the Stripe prices above. */
  PRICE_PRO_CENTS: z.coerce.number().int().min(0).default(700),
  PRICE_LIFETIME_CENTS: z.coerce.number().int().min(0).default(4900),
  PRICE_CURRENCY: z.string().trim().toLowerCase().length(3).default('usd'),
  /** Public address of this API (success_url of Checkout); default: the address the request came in on. */
  PUBLIC_BASE_URL: optionalUrl(/^https?$/),
  /** Where Checkout's back button and the customer portal return to; default PUBLIC_BASE_URL + /pay/status. */
  BILLING_RETURN_URL: optionalUrl(/^https?$/),
  // ── Publisher feeds (docs/feeds.md). ──
  FEEDS_TABLE: resourceVar(),
  FEED_POLL_QUEUE_URL: resourceVar(),
  FEED_ARTICLE_QUEUE_URL: resourceVar(),
  /** Seconds between two polls of a healthy feed (failures back off from it, doubling, up to a day). */
  FEED_POLL_INTERVAL_S: z.coerce.number().int().min(60).max(86400).default(900),
  /** Feeds one account may register. */
  FEED_MAX_PER_ACCOUNT: z.coerce.number().int().min(1).max(1000).default(20),
  /** Local runtime only: seconds between two scheduler ticks (EventBridge Scheduler's rate in the cloud). */
  FEED_TICK_S: z.coerce.number().min(0.05).max(3600).default(60),
  /** POST /listens (the player's beacons) per IP and hour (0 = no limit): a full listen sends about 6. */
  LISTENS_PER_HOUR: z.coerce.number().int().min(0).default(600),
  /** POST /feeds/{id}/article (a reader's press narrates a first_play article) per IP and hour (0 = no limit). */
  FIRST_PLAYS_PER_HOUR: z.coerce.number().int().min(0).default(30),
});

export type Config = ReturnType<typeof parse>;
export { parse as parseConfig, config, required };
