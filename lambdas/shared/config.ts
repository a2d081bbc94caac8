// Configuration, parsed once per process with zod. Resource names are set by the CDK stack in the cloud and by
// bin/local.ts locally; a missing one fails with a message naming the variable and the fix.
import { z } from 'zod';
import { allowlistFrom } from './net/safe-fetch';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .default('false')
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const schema = z.object({
  AUDIO_TABLE: z.string().optional(),
  QUOTAS_TABLE: z.string().optional(),
  KEYS_TABLE: z.string().optional(),
  ACCOUNTS_TABLE: z.string().optional(),
  GROWTH_TABLE: z.string().optional(),
  AUDIO_BUCKET: z.string().optional(),
  PRIORITY_QUEUE_URL: z.string().optional(),
  STANDARD_QUEUE_URL: z.string().optional(),
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
  URL_FETCH_ALLOWLIST: z
    .string()
    .default('')
    .superRefine((v, ctx) => {
      try {
        allowlistFrom(v);
      } catch (e) {
        ctx.addIssue({ code: 'custom', message: (e as Error).message });
      }
    }),
  /** POST /demo/try: its own per-IP counters, separate from the free tier's. */
  DEMO_PER_HOUR: z.coerce.number().int().min(0).default(10),
  DEMO_PER_DAY: z.coerce.number().int().min(0).default(30),
  /** Days a demo audio is kept (shorter than AUDIO_TTL_DAYS: the demo is a sample, not a free conversion). */
  DEMO_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(1),
});

export type Config = z.output<typeof schema>;
type ResourceVar =
  | 'AUDIO_TABLE'
  | 'QUOTAS_TABLE'
  | 'KEYS_TABLE'
  | 'AUDIO_BUCKET'
  | 'PRIORITY_QUEUE_URL'
  | 'STANDARD_QUEUE_URL';

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
