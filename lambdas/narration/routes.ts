// The narration service's route manifest: read by lib/narration-stack.ts and bin/local.ts.
import type { ServiceManifest } from '../shared/manifest';
import { narrationBucket } from './bucket';

const MiB = 1024 * 1024;

export const narrationManifest: ServiceManifest = {
  service: 'narration',
  bucket: narrationBucket,
  throttle: { rate: 50, burst: 100 },
  routes: [
    {
      id: 'Voices',
      method: 'GET',
      path: '/voices',
      handler: 'lambdas/narration/handlers/voices.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'ConvertText',
      method: 'POST',
      path: '/convert/text',
      handler: 'lambdas/narration/handlers/convert-text.ts',
      // Short texts are synthesized inline: memory buys CPU for the encoder.
      memoryMb: 1024,
      timeoutS: 29,
      // 100,000 characters escaped as JSON \u sequences or %XX form fields stay under 2 MiB.
      maxBodyBytes: 2 * MiB,
      access: {
        tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
        bucket: 'rw',
        sendTo: ['priority', 'standard'],
        speech: true,
      },
    },
    {
      id: 'ConvertPdf',
      method: 'POST',
      path: '/convert/pdf',
      handler: 'lambdas/narration/handlers/convert-pdf.ts',
      // pdf.js in a fenced worker thread (768 MiB growth budget) + inline narration of short texts.
      memoryMb: 2048,
      timeoutS: 29,
      // 20 MiB file + multipart framing. In the cloud API Gateway (10 MB) and Lambda (6 MB) cap below this:
      // see docs/architecture.md.
      maxBodyBytes: 21 * MiB,
      access: {
        tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
        bucket: 'rw',
        sendTo: ['priority', 'standard'],
        speech: true,
      },
    },
    {
      id: 'ConvertUrl',
      method: 'POST',
      path: '/convert/url',
      handler: 'lambdas/narration/handlers/convert-url.ts',
      // Fetch + readability + (short articles) inline synthesis.
      memoryMb: 1024,
      timeoutS: 29,
      maxBodyBytes: 16 * 1024,
      access: {
        tables: { audio: 'rw', quotas: 'rw', keys: 'r' },
        bucket: 'rw',
        sendTo: ['priority', 'standard'],
        speech: true,
      },
    },
    {
      id: 'DemoTry',
      method: 'POST',
      path: '/demo/try',
      handler: 'lambdas/narration/handlers/demo-try.ts',
      memoryMb: 1024,
      timeoutS: 15,
      maxBodyBytes: 16 * 1024,
      // sendTo only matters if SYNC_MAX_CHARS is ever set below the demo's 500 characters.
      access: {
        tables: { audio: 'rw', quotas: 'rw', growth: 'rw' },
        bucket: 'rw',
        sendTo: ['priority', 'standard'],
        speech: true,
      },
    },
    {
      id: 'GetAudio',
      method: 'GET',
      path: '/audio/{audio_id}',
      handler: 'lambdas/narration/handlers/get-audio.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { audio: 'r' }, bucket: 'r' },
    },
    {
      id: 'Waitlist',
      method: 'POST',
      path: '/waitlist',
      handler: 'lambdas/narration/handlers/waitlist.ts',
      memoryMb: 256,
      timeoutS: 5,
      maxBodyBytes: 8 * 1024,
      access: { settings: ['AB_EXPERIMENTS'], tables: { growth: 'rw', quotas: 'rw' } },
    },
    {
      id: 'WaitlistCount',
      method: 'GET',
      path: '/waitlist/count',
      handler: 'lambdas/narration/handlers/waitlist-count.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { growth: 'r' } },
    },
    {
      id: 'AbAssign',
      method: 'GET',
      path: '/ab/assign/{experiment}',
      handler: 'lambdas/narration/handlers/ab-assign.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { settings: ['AB_EXPERIMENTS'] },
    },
    {
      id: 'AbEvent',
      method: 'POST',
      path: '/ab/event',
      handler: 'lambdas/narration/handlers/ab-event.ts',
      memoryMb: 256,
      timeoutS: 5,
      maxBodyBytes: 4 * 1024,
      access: { settings: ['AB_EXPERIMENTS'], tables: { growth: 'rw', quotas: 'rw' } },
    },
    {
      id: 'AbResults',
      method: 'GET',
      path: '/ab/results/{experiment}',
      handler: 'lambdas/narration/handlers/ab-results.ts',
      memoryMb: 256,
      timeoutS: 10,
      access: { settings: ['DASHBOARD_TOKEN', 'AB_EXPERIMENTS'], tables: { growth: 'r' } },
    },
    {
      id: 'Stats',
      method: 'GET',
      path: '/stats',
      handler: 'lambdas/narration/handlers/stats.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: { tables: { growth: 'r' } },
    },
    {
      id: 'PayCheckout',
      method: 'GET',
      path: '/pay/checkout/{plan}',
      handler: 'lambdas/narration/handlers/pay-checkout.ts',
      memoryMb: 256,
      timeoutS: 15,
      // accounts 'r': a second subscription for an e-mail that already has one is refused (409, portal).
      access: {
        tables: { accounts: 'r' },
        settings: [
          'STRIPE_SECRET_KEY',
          'STRIPE_PRICE_PRO',
          'STRIPE_PRICE_LIFETIME',
          'PUBLIC_BASE_URL',
          'BILLING_RETURN_URL',
          'AB_EXPERIMENTS',
        ],
      },
    },
    {
      id: 'PaySuccess',
      method: 'GET',
      path: '/pay/success',
      handler: 'lambdas/narration/handlers/pay-success.ts',
      memoryMb: 256,
      timeoutS: 15,
      access: {
        settings: ['STRIPE_SECRET_KEY', 'STRIPE_PORTAL_LOGIN_URL', 'AB_EXPERIMENTS'],
        tables: { accounts: 'rw', keys: 'rw', growth: 'rw' },
      },
    },
    {
      id: 'PayStatus',
      method: 'GET',
      path: '/pay/status',
      handler: 'lambdas/narration/handlers/pay-status.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {
        settings: ['STRIPE_PORTAL_LOGIN_URL', 'PRICE_PRO_CENTS', 'PRICE_LIFETIME_CENTS', 'PRICE_CURRENCY'],
        tables: { accounts: 'r', keys: 'r', quotas: 'r' },
      },
    },
    {
      id: 'PayPortal',
      method: 'POST',
      path: '/pay/portal',
      handler: 'lambdas/narration/handlers/pay-portal.ts',
      memoryMb: 256,
      timeoutS: 15,
      maxBodyBytes: 1024,
      access: {
        settings: ['STRIPE_SECRET_KEY', 'PUBLIC_BASE_URL', 'BILLING_RETURN_URL', 'STRIPE_PORTAL_LOGIN_URL'],
        tables: { accounts: 'r', keys: 'r' },
      },
    },
    {
      id: 'PayWebhook',
      method: 'POST',
      path: '/pay/webhook',
      handler: 'lambdas/narration/handlers/pay-webhook.ts',
      memoryMb: 256,
      timeoutS: 20,
      maxBodyBytes: 256 * 1024,
      access: {
        // The price ids map a portal plan switch (subscription updated) to our plan.
        settings: ['STRIPE_WEBHOOK_SECRET', 'STRIPE_SECRET_KEY', 'AB_EXPERIMENTS', 'STRIPE_PRICE_PRO'],
        tables: { accounts: 'rw', keys: 'rw', growth: 'rw' },
      },
    },
    {
      id: 'PayKeysRotate',
      method: 'POST',
      path: '/pay/keys/rotate',
      handler: 'lambdas/narration/handlers/pay-keys-rotate.ts',
      memoryMb: 256,
      timeoutS: 10,
      maxBodyBytes: 1024,
      access: { settings: ['STRIPE_PORTAL_LOGIN_URL'], tables: { accounts: 'rw', keys: 'rw' } },
    },
    {
      id: 'Embed',
      method: 'GET',
      path: '/embed.js',
      handler: 'lambdas/narration/handlers/embed.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
    {
      id: 'ApiDocs',
      method: 'GET',
      path: '/api',
      handler: 'lambdas/narration/handlers/api.ts',
      memoryMb: 256,
      timeoutS: 5,
      access: {},
    },
    {
      id: 'NotFound',
      method: 'ANY',
      path: '$default',
      handler: 'lambdas/narration/handlers/not-found.ts',
      memoryMb: 128,
      timeoutS: 3,
      access: {},
    },
  ],
  workers: [
    {
      id: 'Worker',
      description: 'Narrates queued long texts (priority and standard queues)',
      queues: ['priority', 'standard'],
      handler: 'lambdas/narration/handlers/worker.ts',
      memoryMb: 2048,
      // 100,000 characters ≈ 2 h of speech: synthesis + encoding fits well inside 15 min.
      timeoutS: 900,
      tmpMb: 2048,
      access: { tables: { audio: 'rw', growth: 'rw' }, bucket: 'rw', speech: true },
    },
  ],
  // How paid plans get priority: each event source scales its pollers independently, and maxConcurrency caps how
  // many worker executions one may occupy. The standard (free-tier) queue gets a small cap, so a free backlog can
  // never take more than that many executions; the rest stays available to the priority queue (Pro/Lifetime jobs),
  // whose jobs therefore never wait behind free ones. Running jobs are not pre-empted. The caps also stop the
  // pollers from pulling messages Lambda would throttle (a throttled delivery still counts towards maxReceiveCount).
  queues: [
    {
      id: 'priority',
      envVar: 'PRIORITY_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 10,
      localPollers: 2,
      description: 'Long texts of paid plans (one message per job)',
    },
    {
      id: 'standard',
      envVar: 'STANDARD_QUEUE_URL',
      maxReceiveCount: 3,
      maxConcurrency: 3,
      description: 'Long texts of the free tier (one message per job)',
    },
  ],
};
