// Configuration, parsed once per process with zod. Resource names are set by the CDK stack in the cloud and by
// bin/local.ts locally; a missing one fails with a message naming the variable and the fix.
// This file holds the parse helpers and the PLATFORM's variables (shared tables, jobs, Stripe account, growth);
// each service adds its own in lambdas/<service>/config.ts (`defineConfig(platformVars + its vars)`).
import { z } from 'zod';
import { allowlistFrom } from './net/safe-fetch';
import { parseExperiments } from './growth/experiments';
import { jobRetryScheduleVar } from './jobs/retry';

export const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** An optional URL variable; set but empty counts as unset. */
export const optionalUrl = (protocol: RegExp) =>
  z.preprocess((v) => (v === '' ? undefined : v), z.url({ protocol }).optional());

/** A comma-separated allowlist in safe-fetch's syntax (host[:port], IP[:port], [IPv6][:port], CIDR), checked once. */
export const allowlist = (name: string) =>
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

/**
 * A resource name the stack sets where a function's access grants it (table, bucket, queue URL): the config's
 * `required(name)` takes only these, and fails naming the variable when it is unset.
 */
export const resourceVar = () => z.string().brand<'ResourceVar'>().optional();
type Resource = NonNullable<z.output<ReturnType<typeof resourceVar>>>;
/** The names of a config's resource variables. */
type ResourceName<C> = { [K in keyof C]-?: NonNullable<C[K]> extends Resource ? K : never }[keyof C] & string;

/** The variables every service reads (the platform's stores, jobs, growth and the one Stripe account). */
/** AB_EXPERIMENTS with a service's default (narration runs its site's pricing experiment out of the box). */
export function experimentsVar(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((v, ctx) => {
      try {
        return parseExperiments(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
        return z.NEVER;
      }
    });
}

export const platformVars = {
  QUOTAS_TABLE: resourceVar(),
  KEYS_TABLE: resourceVar(),
  ACCOUNTS_TABLE: resourceVar(),
  GROWTH_TABLE: resourceVar(),
  /** Path-style S3 URLs (the local S3 emulator needs them). */
  S3_FORCE_PATH_STYLE: bool,
  /**
   * Seconds a claim holds a job; its worker renews it every third of that while it works (lambdas/shared/jobs).
   * Below the queue visibility timeout, so a dead worker's job is free again when its message reappears.
   */
  JOB_LEASE_S: z.coerce.number().int().min(1).max(3600).default(120),
  /**
   * Free requests of one caller cut at the route's deadline (answered 503, not charged) per hour, both services;
   * past it the caller's requests are refused (429) until the hour ends: work never delivered is still bounded
   * (lambdas/shared/quota/cut-budget.ts).
   */
  FREE_CUT_PER_HOUR: z.coerce.number().int().min(1).default(3),
  /** SQS maxReceiveCount of the job queues: on the last attempt the worker records the failure. */
  MAX_RECEIVE_COUNT: z.coerce.number().int().min(1).default(3),
  /**
   * Seconds before a failed job attempt is retried (attempt 1, 2, …; the last value repeats): the worker sets the
   * message's visibility to it (lambdas/shared/jobs/retry.ts). The queue's visibility timeout stays the guard for a
   * worker that dies.
   */
  JOB_RETRY_SCHEDULE_S: jobRetryScheduleVar,
  /**
   * Destinations POST /convert/url (and any safeFetch caller) may reach although they are not public, or on a
   * port other than 80/443: comma-separated host[:port], IP[:port], [IPv6][:port] or CIDR. Empty in the cloud;
   * for local tests and self-hosted setups only. Parsed and checked here, once.
   */
  URL_FETCH_ALLOWLIST: allowlist('URL_FETCH_ALLOWLIST'),
  // ── Growth (docs/growth.md): A/B experiments. ──
  /** A/B experiments as JSON: {"<experiment>": {"variants": {"<variant>": <weight>, ...}, "control": "<variant>"}}. */
  AB_EXPERIMENTS: experimentsVar(''),
  // ── Billing (Stripe), one account for both services. All optional: without them the /pay routes answer 503. ──
  /** Stripe secret API key (sk_live_… / sk_test_… or a restricted rk_ key). A secret: the stack reads it from Secrets Manager. */
  STRIPE_SECRET_KEY: z.string().trim().optional(),
  /** Stripe API base URL; only for tests and local stand-ins (e.g. http://127.0.0.1:12111). Unset: api.stripe.com. */
  STRIPE_API_BASE: optionalUrl(/^https?$/),
  /** Stripe's customer-portal login link (Stripe e-mails a sign-in code): for customers who lost their API key. */
  STRIPE_PORTAL_LOGIN_URL: optionalUrl(/^https$/),
  /** Hours a new API key can be picked up (once) at GET /pay/success before its sealed copy is discarded. */
  KEY_PICKUP_HOURS: z.coerce.number().int().min(1).max(168).default(24),
};

export class ConfigError extends Error {}

function parseWith<S extends z.ZodType>(schema: S, env: Record<string, string | undefined>): z.output<S> {
  const result = schema.safeParse(env);
  if (!result.success) {
    const problems = result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid configuration (${problems}). Fix the environment variables named.`);
  }
  return result.data;
}

const resets: (() => void)[] = [];

/** For tests and the local runtime, which set variables after import: every service's cached config is re-read. */
export function resetConfig(): void {
  for (const reset of resets) reset();
}

/**
 * A service's configuration: `parse` (for tests and the local runtime), `config()` (parsed from process.env once
 * per process) and `required()` (its resource variables), over the platform's variables plus the service's own.
 */
export function defineConfig<Shape extends z.ZodRawShape>(shape: Shape) {
  const schema = z.object(shape);
  type Config = z.output<typeof schema>;
  let cached: Config | undefined;
  resets.push(() => (cached = undefined));
  const config = (): Config => (cached ??= parseWith(schema, process.env));
  return {
    parse: (env: Record<string, string | undefined>): Config => parseWith(schema, env),
    config,
    /** A resource variable's value; unset fails naming the variable and the fix. */
    required: (name: ResourceName<Config>, cfg: Config = config()): string => requiredVar(cfg, name),
  };
}

/** The platform's own variables, for platform code that runs outside a service's deps (SDK clients). */
export const { parse: parsePlatformConfig, config: platformConfig } = defineConfig(platformVars);
/** What the platform reads from a service's config (every service's Config extends it). */
export type PlatformConfig = ReturnType<typeof parsePlatformConfig>;

/** A resource name the stack sets (table, bucket, queue URL); unset fails naming the variable and the fix. */
export function requiredVar<C extends object>(cfg: C, name: keyof C & string): string {
  const v = cfg[name];
  if (typeof v !== 'string' || !v)
    throw new ConfigError(
      `${name} is not set. The CDK stack sets it on every function that needs it; locally run \`npm start\`, which starts the emulators and sets it.`,
    );
  return v;
}
