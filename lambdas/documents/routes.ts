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

// Both job workers (async renders, batch parts) render like the Render route: its image, memory and Chromium.
const RENDERING_WORKER = { packaging: 'image', memoryMb: 2048, tmpMb: 1024 } as const;
// The async renders' worker keeps its jobs (and reads webhook endpoints) in the accounts table, and counts quotas and
// stats.
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
      description: 'Renders the parts of CFDI batches in parallel',
      handler: 'lambdas/documents/handlers/batch-worker.ts',
      queues: ['batch'],
      ...RENDERING_WORKER,
      // A part of 20 CFDI takes seconds.
      timeoutS: 300,
      access: {
        // A part starts and counts itself on the batch's job item and counts its PDFs in the stats; it charges
        // nothing (the split charges, the assembly gives back) and sends no webhook event.
        tables: { growth: 'rw', accounts: 'rw' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
        // The batch's parts and PDFs (batches/).
        bucket: 'rw',
        bucketPrefixes: [BATCHES_PREFIX.prefix],
        // A part queues the next one of its window and the late assembly (and forwards a split or an assembly
        // queued here before they were the assembler's).
        sendTo: ['assemble', 'batch'],
      },
    },
    {
      id: 'BatchAssembler',
      description: 'Splits each CFDI batch into parts, then streams its result zip as they are counted',
      handler: 'lambdas/documents/handlers/batch-assembler.ts',
      queues: ['assemble'],
      // No Chromium: a zip bundle. The zip streams through memory (two parts at a time, the upload's 5 MiB
      // parts); the workbook and the CSV are written to /tmp.
      memoryMb: 1024,
      tmpMb: 1024,
      // The split of a 100 MB zip of 5,000 CFDI takes well under a minute. The assembly, queued by the split,
      // follows the parts as they are counted: a batch of 5,000 CFDI (250 parts at the batch queue's concurrency
      // of 50) and its ~300 MB zip fit in 15 minutes.
      timeoutS: 900,
      access: {
        // The split records the batch's plan and charges the month; the assembly reads the job and its counted
        // parts, completes it and gives back the quota of CFDI that failed; both read the owner's webhook endpoint
        // (no stats: the parts count the renders).
        tables: { quotas: 'rw', accounts: 'rw' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX] },
        // The split reads the batch's source and writes its parts (batches/); the assembly reads the parts, their
        // outcomes and PDFs, writes the result zip (results/jobs/) and presigns its download URL for the webhook.
        bucket: 'rw',
        bucketPrefixes: [BATCHES_PREFIX.prefix, JOB_RESULT_PREFIX],
        // The split queues the parts and the assembly; a batch done or refused sends its webhook event.
        sendTo: ['assemble', 'batch', 'deliveries'],
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
      description: 'CFDI batch steps (split, one message per part)',
    },
    {
      id: 'assemble',
      envVar: 'DOCUMENTS_ASSEMBLE_QUEUE_URL',
      // A failed assembly starts again from the first part (the result zip is written whole or not at all); a
      // failed split, from the source (what it wrote is written again the same).
      maxReceiveCount: 3,
      // One assembly per batch in progress, each waiting on its parts most of its time, and the splits (seconds
      // each): a split waits for a free one only while 20 batches are being assembled at once.
      maxConcurrency: 20,
      // Locally a split and two batches' assemblies at once (the pollers wait, they do not render).
      localPollers: 3,
      description:
        'CFDI batch splits and assemblies (per batch: its split, sent by POST /v1/batches, then its assembly, sent by the split)',
    },
  ],
};
