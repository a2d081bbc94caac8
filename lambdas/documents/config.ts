// The documents service's configuration: the platform's variables (lambdas/shared/config.ts) plus its own, parsed
// once per process.
import { isIP } from 'node:net';
import { z } from 'zod';
import { allowlist, defineConfig, optionalUrl, platformVars, requiredVar } from '../shared/config';

const { parse, config } = defineConfig({
  ...platformVars,
  /** Samples and results too large for a Lambda response. */
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
  // ── Async renders and Scale webhooks (docs/documents-rendering.md, "Async renders and webhooks"). ──
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
  // ── Billing (its /pay routes, docs/billing.md). Same Stripe account as narration (the platform's STRIPE_SECRET_KEY,
  // STRIPE_PORTAL_LOGIN_URL, KEY_PICKUP_HOURS); its own endpoint, prices and public address. Displayed prices come
  // from the documents plans (lambdas/documents/core/plans.ts, the contract's $9 / $29 / $49). ──
  /** Signing secret (whsec_…) of the documents API's own webhook endpoint. A secret, like STRIPE_SECRET_KEY. */
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

export type Config = ReturnType<typeof parse>;
export { parse as parseConfig, config };

type ResourceVar =
  | 'QUOTAS_TABLE'
  | 'KEYS_TABLE'
  | 'ACCOUNTS_TABLE'
  | 'GROWTH_TABLE'
  | 'DOCUMENTS_BUCKET'
  | 'DOCUMENTS_RENDER_QUEUE_URL'
  | 'DOCUMENTS_DELIVERY_QUEUE_URL';

export const required = (name: ResourceVar, cfg: Config = config()): string => requiredVar(cfg, name);
