// The documents service's route manifest: read by lib/documents-stack.ts and bin/local.ts (port RENDER_PORT).
import type { ServiceManifest } from '../shared/manifest';
import { JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX } from './adapters/item-prefixes';
import { DEFAULT_RETRY_SCHEDULE_S } from './domain/webhooks-schedule';

const MiB = 1024 * 1024;

export const documentsManifest: ServiceManifest = {
  service: 'documents',
  invalidRequestStatus: 400,
  routes: [
    {
      id: 'Render',
      method: 'POST',
      path: '/v1/render',
      handler: 'lambdas/documents/handlers/render.ts',
      // Chromium: container image with the browser and fonts; memory buys CPU for layout.
      packaging: 'image',
      memoryMb: 2048,
      timeoutS: 29,
      maxBodyBytes: 2 * MiB,
      // accounts: only job items (options.async creates one); render: queues async jobs.
      access: {
        tables: { quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'rw' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
        bucket: 'rw',
        sendTo: ['render'],
      },
    },
    {
      id: 'TemplateSample',
      method: 'GET',
      path: '/templates/{slug}/sample.pdf',
      handler: 'lambdas/documents/handlers/template-sample.ts',
      packaging: 'image',
      memoryMb: 2048,
      timeoutS: 29,
      access: { bucket: 'rw' },
    },
    {
      id: 'Templates',
      method: 'GET',
      path: '/templates',
      handler: 'lambdas/documents/handlers/templates.ts',
      packaging: 'image',
      // Measured: 68 MB RSS after init (bench/cold-start.bench.ts); the answer is cached for an hour.
      memoryMb: 256,
      timeoutS: 10,
      access: {},
    },
    {
      id: 'TemplateSource',
      method: 'GET',
      path: '/templates/{slug}/source',
      handler: 'lambdas/documents/handlers/template-source.ts',
      packaging: 'image',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'Pricing',
      method: 'GET',
      path: '/pricing',
      handler: 'lambdas/documents/handlers/pricing.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
    {
      id: 'DocumentStats',
      method: 'GET',
      path: '/stats',
      handler: 'lambdas/documents/handlers/stats.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { growth: 'r' } },
    },
    // ── Billing (Stripe): lambdas/shared/billing, docs/billing.md. Same routes as narration, documents plans. ──
    {
      id: 'PayCheckout',
      method: 'GET',
      path: '/pay/checkout/{plan}',
      handler: 'lambdas/documents/handlers/pay-checkout.ts',
      memoryMb: 256,
      timeoutS: 15,
      // accounts 'r': a second subscription for an e-mail that already has one is refused (409, portal).
      access: {
        tables: { accounts: 'r' },
        settings: [
          'STRIPE_SECRET_KEY',
          'DOCS_STRIPE_PRICE_PRO',
          'DOCS_STRIPE_PRICE_SCALE',
          'DOCS_STRIPE_PRICE_LIFETIME',
          'DOCS_PUBLIC_BASE_URL',
          'DOCS_BILLING_RETURN_URL',
        ],
      },
    },
    {
      id: 'PaySuccess',
      method: 'GET',
      path: '/pay/success',
      handler: 'lambdas/documents/handlers/pay-success.ts',
      memoryMb: 256,
      timeoutS: 15,
      access: {
        settings: ['STRIPE_SECRET_KEY', 'STRIPE_PORTAL_LOGIN_URL', 'KEY_PICKUP_HOURS'],
        tables: { accounts: 'rw', keys: 'rw' },
      },
    },
    {
      id: 'PayStatus',
      method: 'GET',
      path: '/pay/status',
      handler: 'lambdas/documents/handlers/pay-status.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { accounts: 'r', keys: 'r', quotas: 'r' } },
    },
    {
      id: 'PayPortal',
      method: 'POST',
      path: '/pay/portal',
      handler: 'lambdas/documents/handlers/pay-portal.ts',
      memoryMb: 256,
      timeoutS: 15,
      maxBodyBytes: 1024,
      access: {
        settings: [
          'STRIPE_SECRET_KEY',
          'DOCS_PUBLIC_BASE_URL',
          'DOCS_BILLING_RETURN_URL',
          'STRIPE_PORTAL_LOGIN_URL',
        ],
        tables: { accounts: 'r', keys: 'r' },
      },
    },
    {
      id: 'PayWebhook',
      method: 'POST',
      path: '/pay/webhook',
      handler: 'lambdas/documents/handlers/pay-webhook.ts',
      memoryMb: 256,
      timeoutS: 20,
      maxBodyBytes: 256 * 1024,
      access: {
        // The price ids map a portal plan switch (subscription updated) to our plan.
        settings: [
          'DOCS_STRIPE_WEBHOOK_SECRET',
          'KEY_PICKUP_HOURS',
          'DOCS_STRIPE_PRICE_PRO',
          'DOCS_STRIPE_PRICE_SCALE',
        ],
        tables: { accounts: 'rw', keys: 'rw' },
      },
    },
    {
      id: 'PayKeysRotate',
      method: 'POST',
      path: '/pay/keys/rotate',
      handler: 'lambdas/documents/handlers/pay-keys-rotate.ts',
      memoryMb: 256,
      timeoutS: 10,
      maxBodyBytes: 1024,
      access: { settings: ['STRIPE_PORTAL_LOGIN_URL'], tables: { accounts: 'rw', keys: 'rw' } },
    },
    {
      id: 'ApiDocs',
      method: 'GET',
      path: '/api',
      handler: 'lambdas/documents/handlers/api.ts',
      // Image: the description includes POST /v1/render's own request schema, whose module loads the template
      // sandbox (isolated-vm), which only the image carries.
      packaging: 'image',
      memoryMb: 512,
      timeoutS: 10,
      access: {},
    },
    // ── Async renders and Scale webhooks: domain/jobs.ts, domain/webhooks.ts, api/webhooks-doc.ts. Jobs and
    // endpoints are items of the accounts table; each function may touch only its kinds of item (itemPrefixes). ──
    {
      id: 'GetJob',
      method: 'GET',
      path: '/v1/jobs/{id}',
      handler: 'lambdas/documents/handlers/jobs.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {
        tables: { keys: 'r', accounts: 'r' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX] },
        // Presigning the download URL: the URL only works if this role may read the object.
        bucket: 'r',
        settings: ['JOB_DOWNLOAD_TTL_S'],
      },
    },
    {
      id: 'WebhookPut',
      method: 'PUT',
      path: '/v1/webhook',
      handler: 'lambdas/documents/handlers/webhook-put.ts',
      memoryMb: 256,
      // DNS resolution of the callback host at registration.
      timeoutS: 10,
      maxBodyBytes: 8 * 1024,
      access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
    },
    {
      id: 'WebhookGet',
      method: 'GET',
      path: '/v1/webhook',
      handler: 'lambdas/documents/handlers/webhook-get.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { keys: 'r', accounts: 'r' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
    },
    {
      id: 'WebhookDelete',
      method: 'DELETE',
      path: '/v1/webhook',
      handler: 'lambdas/documents/handlers/webhook-delete.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] } },
    },
    {
      id: 'WebhookRotateSecret',
      method: 'POST',
      path: '/v1/webhook/rotate-secret',
      handler: 'lambdas/documents/handlers/webhook-rotate.ts',
      memoryMb: 256,
      timeoutS: 5,
      maxBodyBytes: 1024,
      access: {
        tables: { keys: 'r', accounts: 'rw' },
        itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
        settings: ['WEBHOOK_SECRET_OVERLAP_S'],
      },
    },
    {
      id: 'NotFound',
      method: 'ANY',
      path: '$default',
      handler: 'lambdas/documents/handlers/not-found.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
  ],
  workers: [
    {
      id: 'RenderWorker',
      description: 'Renders async jobs (POST /v1/render with options.async, Scale plan)',
      handler: 'lambdas/documents/handlers/render-worker.ts',
      queue: 'render',
      // Same image, memory and Chromium as the Render route; a longer timeout (no API Gateway 29 s limit here).
      packaging: 'image',
      memoryMb: 2048,
      timeoutS: 90,
      tmpMb: 1024,
      maxConcurrency: 5,
      access: {
        tables: { quotas: 'rw', growth: 'rw', accounts: 'rw' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX] },
        bucket: 'rw',
        sendTo: ['deliveries'],
      },
    },
    {
      id: 'DeliveryWorker',
      description: 'Delivers signed webhook events of async jobs, with retries',
      handler: 'lambdas/documents/handlers/delivery-worker.ts',
      queue: 'deliveries',
      memoryMb: 256,
      // WEBHOOK_TIMEOUT_MS (10 s) per attempt plus the bookkeeping around it.
      timeoutS: 30,
      tmpMb: 512,
      maxConcurrency: 10,
      access: {
        tables: { accounts: 'rw' },
        itemPrefixes: { accounts: [JOB_ITEM_PREFIX, WEBHOOK_ITEM_PREFIX] },
        // Presigns the download URL in document.rendered payloads (read access makes the URL work). Retries set
        // the visibility of the message being handled: its queue's event source grants that, no sendTo needed.
        bucket: 'r',
        settings: ['JOB_DOWNLOAD_TTL_S', 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_SECRET_OVERLAP_S'],
      },
    },
  ],
  queues: [
    {
      id: 'render',
      envVar: 'DOCUMENTS_RENDER_QUEUE_URL',
      // MAX_RECEIVE_COUNT of the render worker: on the last attempt it records the failure.
      maxReceiveCount: 3,
      description: 'Async render jobs (one message per job)',
    },
    {
      id: 'deliveries',
      envVar: 'DOCUMENTS_DELIVERY_QUEUE_URL',
      // Every delivery attempt is a receive: attempts = retry delays + 1 (WEBHOOK_RETRY_SCHEDULE_S).
      maxReceiveCount: DEFAULT_RETRY_SCHEDULE_S.length + 1,
      description: 'Webhook events to deliver (one message per event; retries are redeliveries)',
    },
  ],
};
