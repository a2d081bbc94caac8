// The documents service's manifest, read by lib/documents-stack.ts and bin/local.ts (port RENDER_PORT). Each route
// is a spec next to its handler (handlers/<name>.route.ts, from which the handler reads its limits); this file lists
// them.
import type { Access, ServiceManifest } from '../shared/manifest';
import {
  API_ROUTES,
  BILLING_ROUTES,
  SITE_ROUTES,
  WEBHOOK_ROUTES,
  NOT_FOUND_ROUTE,
  DOCUMENT_STATS_ROUTE,
} from './platform';
import { renderRoute } from './handlers/render.route';
import { templateSampleRoute } from './handlers/template-sample.route';
import { templatesRoute } from './handlers/templates.route';
import { templateSourceRoute } from './handlers/template-source.route';
import { pricingRoute } from './handlers/pricing.route';
import { getJobRoute } from './handlers/jobs.route';
import { BRAND_ROUTES } from './handlers/brand.route';
import { batchUploadRoute } from './handlers/batch-upload.route';
import { startBatchRoute } from './handlers/batches.route';
import { getBatchRoute } from './handlers/batch-get.route';
import { JOB_ITEM_PREFIX } from './adapters/item-prefixes';
import { WEBHOOK_ITEM_PREFIX } from '../shared/webhooks/item-prefix';
import { webhookDelivery } from '../shared/webhooks/routes';
import { BATCHES_PREFIX, JOB_REQUESTS_PREFIX, JOB_RESULT_PREFIX, documentsBucket } from './bucket';

/** Webhook events of async jobs (use-cases/webhooks.ts): the `deliveries` queue and the worker delivering them. */
const WEBHOOK_DELIVERY = webhookDelivery({
  queue: {
    id: 'deliveries',
    envVar: 'DOCUMENTS_DELIVERY_QUEUE_URL',
    maxConcurrency: 10,
    description: 'Webhook events to deliver (one message per event; retries are redeliveries)',
  },
  worker: {
    description: 'Delivers signed webhook events of async jobs, with retries',
    handler: 'lambdas/documents/handlers/webhooks.ts',
    access: {
      // Each attempt is recorded on its job (docjob# items).
      tables: { accounts: 'rw' },
      itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
      // Presigns the download URL in document.rendered payloads (read access makes the URL work). Retries set
      // the visibility of the message being handled: its queue's event source grants that, no sendTo needed.
      bucket: 'r',
      settings: ['JOB_DOWNLOAD_TTL_S'],
    },
  },
});

// Both job workers (async renders, batches) render like the Render route: its image, memory and Chromium.
const RENDERING_WORKER = { packaging: 'image', memoryMb: 2048, tmpMb: 1024 } as const;
// And both keep their jobs (and read webhook endpoints) in the accounts table, and count quotas and stats.
const JOB_WORKER_TABLES: Pick<Access, 'tables' | 'itemPrefixes'> = {
  tables: { quotas: 'rw', growth: 'rw', accounts: 'rw' },
  itemPrefixes: { accounts: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX] },
};

export const documentsManifest: ServiceManifest = {
  service: 'documents',
  invalidRequestStatus: 400,
  bucket: documentsBucket,
  // Every render is seconds of Chromium.
  throttle: { rate: 20, burst: 40 },
  dockerfile: 'lambdas/documents/Dockerfile',
  // lambdas/documents/deps.ts reaches Chromium only through a lazy import in sharedRenderer(), which only image
  // routes call. Left out, the stats bundle is ~1.6 MB instead of ~3.8 MB.
  externalModules: ['@sparticuz/chromium', 'puppeteer-core', 'isolated-vm'],
  routes: [
    renderRoute,
    templateSampleRoute,
    templatesRoute,
    templateSourceRoute,
    pricingRoute,
    DOCUMENT_STATS_ROUTE,
    // ── Billing (Stripe): lambdas/shared/billing, docs/billing.md. Same routes as narration, documents plans. ──
    ...BILLING_ROUTES,
    ...API_ROUTES,
    // The playground (GET /, its files at /site/{file}): lambdas/documents/site, handlers/pages.ts.
    ...SITE_ROUTES,
    // ── Async renders and Scale webhooks: domain/jobs.ts, domain/webhooks.ts, api/webhooks-doc.ts. Jobs and
    // endpoints are items of the accounts table; each function may touch only its kinds of item (itemPrefixes). ──
    getJobRoute,
    ...WEBHOOK_ROUTES,
    // ── The account's brand, printed on its facturas: use-cases/brand.ts (`brand#` items of the accounts table). ──
    ...BRAND_ROUTES,
    // ── CFDI batches: use-cases/batches.ts (API side), use-cases/batch-run.ts (the batch worker's steps). ──
    batchUploadRoute,
    startBatchRoute,
    getBatchRoute,
    NOT_FOUND_ROUTE,
  ],
  workers: [
    {
      id: 'RenderWorker',
      description: 'Renders async jobs (POST /v1/render with options.async, Scale plan)',
      handler: 'lambdas/documents/handlers/render-worker.ts',
      queues: ['render'],
      ...RENDERING_WORKER,
      // A longer timeout than the Render route's (no API Gateway 29 s limit here).
      timeoutS: 90,
      access: {
        ...JOB_WORKER_TABLES,
        // Reads and deletes the job's request (jobs/), writes its result (results/jobs/).
        bucket: 'rw',
        bucketPrefixes: [JOB_REQUESTS_PREFIX.prefix, JOB_RESULT_PREFIX],
        sendTo: ['deliveries'],
      },
    },
    WEBHOOK_DELIVERY.worker,
    {
      id: 'BatchWorker',
      description: 'Splits CFDI batches, renders their parts in parallel and assembles the result zip',
      handler: 'lambdas/documents/handlers/batch-worker.ts',
      queues: ['batch'],
      ...RENDERING_WORKER,
      // 15 minutes: the assembly of 5,000 CFDI streams ~300 MB to S3.
      timeoutS: 900,
      access: {
        ...JOB_WORKER_TABLES,
        // The batch's source, parts and PDFs (batches/), the result zip (results/jobs/).
        bucket: 'rw',
        bucketPrefixes: [BATCHES_PREFIX.prefix, JOB_RESULT_PREFIX],
        // Parts and the assembly are queued by the worker itself; the finished batch's webhook event goes to the
        // delivery worker.
        sendTo: ['batch', 'deliveries'],
      },
    },
  ],
  queues: [
    {
      id: 'render',
      envVar: 'DOCUMENTS_RENDER_QUEUE_URL',
      // MAX_RECEIVE_COUNT of the render worker: on the last attempt it records the failure.
      maxReceiveCount: 3,
      maxConcurrency: 5,
      description: 'Async render jobs (one message per job)',
    },
    WEBHOOK_DELIVERY.queue,
    {
      id: 'batch',
      envVar: 'DOCUMENTS_BATCH_QUEUE_URL',
      // MAX_RECEIVE_COUNT of the batch worker: on the last attempt a part reports its unprinted CFDI as failed.
      maxReceiveCount: 3,
      // Parts render in parallel up to this many workers (`-c documents:batchConcurrency`): 1,000 CFDI are 50
      // parts of 20.
      maxConcurrency: 50,
      // Locally one poller per core: the machine's Chromium renders that many pages at once.
      localPollers: 2,
      description: 'CFDI batch steps (split, one message per part, assemble)',
    },
  ],
};
