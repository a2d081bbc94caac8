// What a caller's conversion may touch, declared once for the routes that start one (POST /convert/text,
// /convert/url, /convert/pdf): the audio record, the caller's quota and key, the public /stats counters (growth),
// read-only account items (webhook endpoints for the finished conversion's event, the caller's lexicons), the
// conversion's objects (../bucket.ts CONVERSION_PREFIXES), the narration queues and the webhooks queue, speech.
import type { Access } from '../shared/manifest';
import { WEBHOOK_ITEM_PREFIX } from '../shared/webhooks/item-prefix';
import { LEXICON_ITEM_PREFIX } from './adapters/item-prefixes';
import { CONVERSION_PREFIXES } from './bucket';

export const CONVERSION_ACCESS = {
  tables: { audio: 'rw', quotas: 'rw', keys: 'r', growth: 'rw', accounts: 'r' },
  itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX, LEXICON_ITEM_PREFIX] },
  bucket: 'rw',
  bucketPrefixes: CONVERSION_PREFIXES,
  sendTo: ['priority', 'standard', 'webhooks'],
  speech: true,
} as const satisfies Access;
