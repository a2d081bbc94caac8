// The documents service's configuration: the platform's variables (lambdas/shared/config.ts) plus its own, parsed
// once per process.
import { z } from 'zod';
import { defineConfig, optionalUrl, platformVars, resourceVar } from '../shared/config';
import { webhookVars } from '../shared/webhooks/config';

const { parse, config, required } = defineConfig({
  ...platformVars,
  /** Samples and results too large for a Lambda response. */
  DOCUMENTS_BUCKET: resourceVar(),
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
  DOCUMENTS_RENDER_QUEUE_URL: resourceVar(),
  /** Queue of webhook deliveries read by the delivery worker (retries are this queue's redeliveries). */
  DOCUMENTS_DELIVERY_QUEUE_URL: resourceVar(),
  /** Queue of CFDI batch steps (split, part) read by the batch worker (POST /v1/batches). */
  DOCUMENTS_BATCH_QUEUE_URL: resourceVar(),
  /** Queue of CFDI batch assemblies (one per batch, sent by its split) read by the batch assembler. */
  DOCUMENTS_ASSEMBLE_QUEUE_URL: resourceVar(),
  /**
   * Chromium's time limit for one render (a page or a part of a merge). A built-in template renders in well under a
   * second even at its size limits, so passing it means a stuck browser (restarted, answered 503 retry); caller HTML
   * that passes it is answered 400. Raised only where the machine itself is the slow part (tests of crashes on a
   * loaded machine).
   */
  RENDER_TIMEOUT_S: z.coerce.number().int().min(1).max(600).default(15),
  /** Lifetime of the presigned download_url of a finished job (GET /v1/jobs/{id} and webhook payloads). */
  JOB_DOWNLOAD_TTL_S: z.coerce.number().int().min(60).max(43200).default(3600),
  /** WEBHOOK_RETRY_SCHEDULE_S, WEBHOOK_TIMEOUT_MS, WEBHOOK_SECRET_OVERLAP_S and the local-test settings. */
  ...webhookVars,
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
export { parse as parseConfig, config, required };
