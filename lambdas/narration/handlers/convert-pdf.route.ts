// POST /convert/pdf: the route's spec, next to its handler (convert-pdf.ts reads its limits here); routes.ts lists it.
import type { RouteSpec } from '../../shared/manifest';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';

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
  access: {
    // growth: public /stats counters; accounts: the caller's lexicons (read only, `lexicons#` items)
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
    itemPrefixes: { accounts: [LEXICON_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['priority', 'standard'],
    speech: true,
  },
} satisfies RouteSpec;
