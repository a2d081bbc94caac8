// POST /convert/url: the route's spec, next to its handler (convert-url.ts reads its limits here); routes.ts lists it.
import { z } from 'zod';
import { chars } from '../../shared/validation';
import { fmtField, lexiconsField, retentionField, voiceField } from '../requests';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';
import type { RouteSpec } from '../../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../../shared/webhooks/item-prefix';

export const convertUrlRoute = {
  id: 'ConvertUrl',
  method: 'POST',
  path: '/convert/url',
  handler: 'lambdas/narration/handlers/convert-url.ts',
  // Fetch + readability + (short articles) inline synthesis.
  memoryMb: 1024,
  timeoutS: 29,
  // A JSON body of a 2,048-character URL with every character escaped stays far below this.
  maxBodyBytes: 16 * 1024,
  // Idempotency-Key: a retried request is answered once (lambdas/shared/idempotency).
  idempotent: true,
  access: {
    // growth: public /stats counters; accounts: webhook endpoints (a finished conversion's event) and the
    // caller's lexicons, read only
    tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX, LEXICON_ITEM_PREFIX] },
    bucket: 'rw',
    sendTo: ['priority', 'standard', 'webhooks'],
    speech: true,
  },
} satisfies RouteSpec;

// The request body (validated by the handler; /api documents it).
/** Longer than any real article address; bounds what we parse and log. */
export const MAX_URL_CHARS = 2048;

export const ConvertUrlReq = z.object({
  url: z.preprocess((v) => (typeof v === 'string' ? v.trim() : v), chars(1, MAX_URL_CHARS)),
  voice: voiceField,
  fmt: fmtField,
  /** Lexicons to apply, first wins (else the account's default). Paid keys. */
  lexicons: lexiconsField,
  /** Days the audio is kept: paid keys 1..AUDIO_TTL_DAYS; the free tier's is fixed. */
  retention_days: retentionField,
});
