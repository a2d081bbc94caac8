// What the documents handlers need. Chromium is launched lazily once per warm container and reused.
import { config, required, type Config } from './config';
import { dynamo, s3Client } from '../shared/aws/clients';
import { S3ResultStore, type ResultStore } from '../shared/aws/result-store';
import { RESULTS_PREFIX } from './bucket';
import { DynamoQuotaStore } from '../shared/aws/quota-store';
import { DynamoIdempotencyStore } from '../shared/aws/idempotency-store';
import type { IdempotencyStore } from '../shared/idempotency/idempotency';
import { DynamoKeyStore } from '../shared/aws/key-store';
import { cachedKeyStore } from '../shared/auth/key-cache';
import { DynamoGrowthStore } from '../shared/aws/growth-store';
import { DynamoAccountStore } from '../shared/aws/account-store';
import type { AccountStore, PaymentGateway } from '../shared/billing/ports';
import type { KeyStore } from '../shared/auth/keys';
import type { GrowthStore } from '../shared/growth/ports';
import type { QuotaStore } from '../shared/quota/windows';
import type { RenderDeps } from './ports';
import { sqsClient } from '../shared/aws/clients';
import { DynamoJobRepository } from './adapters/job-repository';
import { S3JobFiles } from './adapters/job-files';
import { SqsMessageQueue } from '../shared/aws/message-queue';
import { SqsMessageVisibility } from '../shared/aws/message-visibility';
import type { MessageVisibility } from '../shared/jobs/retry';
import { DynamoWebhookStore } from '../shared/aws/webhook-store';
import { webhookPolicyFrom } from '../shared/webhooks/config';
import type { MessageQueue } from './use-cases/jobs';
import type { BatchFiles, BatchRepository, JobFiles, JobRepository, WebhookEventType } from './ports';
import { DynamoBatchRepository } from './adapters/batch-repository';
import { S3BatchFiles } from './adapters/batch-files';
import type { WebhookPolicy, WebhookStore } from './use-cases/webhooks';
import type { BatchDeps } from './use-cases/batches';
import type { BrandStore } from './ports';
import { DynamoBrandStore } from './adapters/brand-store';

export interface DocumentsDeps {
  readonly config: Config;
  readonly quotas: QuotaStore;
  readonly keys: KeyStore;
  readonly growth: GrowthStore;
  /** Where documents too large for a Lambda response go. */
  readonly results: ResultStore;
  /** Chromium (PDF, PNG) and the template sandbox. */
  renderer(): Promise<RenderDeps>;
  now(): Date;
  // ── Billing (the /pay routes, lambdas/documents/billing.ts) ──
  /** Billing accounts, Stripe event ids, key pick-ups (table `accounts`). */
  readonly accounts: AccountStore;
  /** Stripe, or undefined while STRIPE_SECRET_KEY is not configured (the /pay routes then answer 503). */
  payments(): Promise<PaymentGateway | undefined>;
  // ── Async renders and webhooks (Scale): domain/jobs.ts, domain/webhooks.ts ──
  readonly jobs: JobRepository;
  readonly jobFiles: JobFiles;
  readonly renderQueue: MessageQueue;
  readonly deliveryQueue: MessageQueue;
  /** The render worker's retries: a failed render's message reappears after a backoff (shared/jobs/retry.ts). */
  readonly redelivery: MessageVisibility;
  readonly webhooks: WebhookStore;
  /** Where webhook callbacks may go (the SSRF policy of lambdas/shared/net/safe-fetch.ts). */
  readonly webhookPolicy: WebhookPolicy;
  /** Idempotency-Key records (quotas table, `idem#` items): lambdas/shared/idempotency. */
  readonly idempotency: IdempotencyStore;
  // ── CFDI batches (POST /v1/batches): use-cases/batches.ts, use-cases/batch-run.ts ──
  /** The jobs store with the batch counters (a batch is a job). */
  readonly batches: JobRepository & BatchRepository;
  readonly batchFiles: BatchFiles;
  readonly batchQueue: MessageQueue;
  /** The batch worker's retries (as `redelivery` is the render worker's). */
  readonly batchRedelivery: MessageVisibility;
  /** Batch assemblies (one message per batch, sent by its split), read by the batch assembler. */
  readonly assembleQueue: MessageQueue;
  /** The batch assembler's retries. */
  readonly assembleRedelivery: MessageVisibility;
  /** The account's brand (PUT /v1/brand), printed on its facturas: use-cases/brand.ts. */
  readonly brands: BrandStore;
}

export { webhookPolicyFrom };

let renderer: Promise<RenderDeps> | undefined;

/** One browser per process, shared by every route that renders. */
export function sharedRenderer(): Promise<RenderDeps> {
  renderer ??= import('./render/chromium').then(({ Renderer }) => {
    const r = new Renderer({ renderTimeoutMs: config().RENDER_TIMEOUT_S * 1000 });
    return { renderPdf: (html, o) => r.renderPdf(html, o), renderPng: (html, o) => r.renderPng(html, o) };
  });
  renderer.catch(() => (renderer = undefined));
  return renderer;
}

export function awsDeps(): DocumentsDeps {
  return {
    get config() {
      return config();
    },
    get quotas() {
      return new DynamoQuotaStore(dynamo(), required('QUOTAS_TABLE'));
    },
    get idempotency() {
      return new DynamoIdempotencyStore(dynamo(), required('QUOTAS_TABLE'));
    },
    // Key records are trusted for 30 s per container (lambdas/shared/auth/key-cache.ts: the revocation bound).
    get keys() {
      return cachedKeyStore(new DynamoKeyStore(dynamo(), required('KEYS_TABLE')));
    },
    get growth() {
      return new DynamoGrowthStore(dynamo(), required('GROWTH_TABLE'));
    },
    get results() {
      return new S3ResultStore(s3Client(), required('DOCUMENTS_BUCKET'), RESULTS_PREFIX.prefix);
    },
    renderer: sharedRenderer,
    now: () => new Date(),
    get accounts() {
      return new DynamoAccountStore(dynamo(), required('ACCOUNTS_TABLE'));
    },
    // Loaded on first use: the Stripe SDK stays out of the cold start of routes that never call Stripe.
    payments: () => import('../shared/billing/stripe').then((m) => m.stripeGateway(config())),
    get jobs() {
      return new DynamoJobRepository(
        dynamo(),
        required('ACCOUNTS_TABLE'),
        () => new Date(),
        config().JOB_LEASE_S,
      );
    },
    get jobFiles() {
      return new S3JobFiles(s3Client(), required('DOCUMENTS_BUCKET'));
    },
    get renderQueue() {
      return new SqsMessageQueue(sqsClient(), required('DOCUMENTS_RENDER_QUEUE_URL'));
    },
    get deliveryQueue() {
      return new SqsMessageQueue(sqsClient(), required('DOCUMENTS_DELIVERY_QUEUE_URL'));
    },
    get redelivery() {
      return new SqsMessageVisibility(sqsClient(), [config().DOCUMENTS_RENDER_QUEUE_URL]);
    },
    get batches() {
      return new DynamoBatchRepository(
        dynamo(),
        required('ACCOUNTS_TABLE'),
        () => new Date(),
        config().JOB_LEASE_S,
      );
    },
    get batchFiles() {
      return new S3BatchFiles(s3Client(), required('DOCUMENTS_BUCKET'));
    },
    get batchQueue() {
      return new SqsMessageQueue(sqsClient(), required('DOCUMENTS_BATCH_QUEUE_URL'));
    },
    get batchRedelivery() {
      return new SqsMessageVisibility(sqsClient(), [config().DOCUMENTS_BATCH_QUEUE_URL]);
    },
    get assembleQueue() {
      return new SqsMessageQueue(sqsClient(), required('DOCUMENTS_ASSEMBLE_QUEUE_URL'));
    },
    get assembleRedelivery() {
      return new SqsMessageVisibility(sqsClient(), [config().DOCUMENTS_ASSEMBLE_QUEUE_URL]);
    },
    get webhooks() {
      return new DynamoWebhookStore<WebhookEventType>(dynamo(), required('ACCOUNTS_TABLE'));
    },
    get brands() {
      return new DynamoBrandStore(dynamo(), required('ACCOUNTS_TABLE'));
    },
    get webhookPolicy() {
      return webhookPolicyFrom(config());
    },
  };
}

/**
 * The batch use cases' stores, named one by one: the deps are lazy getters, and a spread would read every one (a
 * store a function has no table for throws). Shared by POST /v1/batches and the batch worker.
 */
export function batchDeps(
  deps: Pick<DocumentsDeps, 'batches' | 'jobFiles' | 'batchFiles' | 'assembleQueue' | 'quotas' | 'now'>,
): BatchDeps {
  return {
    jobs: deps.batches,
    jobFiles: deps.jobFiles,
    batchFiles: deps.batchFiles,
    assembleQueue: deps.assembleQueue,
    quotas: deps.quotas,
    now: () => deps.now(),
  };
}
