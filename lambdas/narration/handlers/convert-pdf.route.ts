// POST /convert/pdf: the route's spec, next to its handler (convert-pdf.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';

const MiB = 1024 * 1024;

export const convertPdfRoute = {
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
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    // growth: public /stats counters; accounts: webhook endpoints only (a finished conversion's event)
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['priority', 'standard', 'webhooks'],
    speech: true,
  },
} satisfies RouteSpec;
