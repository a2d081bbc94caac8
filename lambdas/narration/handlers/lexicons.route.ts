// /v1/lexicons: the four routes' specs (one handler, lexicons.ts), and the request body of PUT. routes.ts lists them.
// Pronunciation lexicons of paid accounts (core/lexicon.ts has the matching rules and limits).
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { IPA, LEXICON_LIMITS } from '../core/lexicon';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';

const handler = 'lambdas/narration/handlers/lexicons.ts';
const itemPrefixes = { accounts: [LEXICON_ITEM_PREFIX] };

export const lexiconListRoute = {
  id: 'LexiconList',
  method: 'GET',
  path: '/v1/lexicons',
  handler,
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { keys: 'r', accounts: 'r' }, itemPrefixes },
} satisfies RouteSpec;

export const lexiconGetRoute = {
  ...lexiconListRoute,
  id: 'LexiconGet',
  path: '/v1/lexicons/{name}',
} satisfies RouteSpec;

export const lexiconPutRoute = {
  id: 'LexiconPut',
  method: 'PUT',
  path: '/v1/lexicons/{name}',
  handler,
  memoryMb: 256,
  timeoutS: 10,
  // 1,000 entries of 40 KB as JSON, with room for \u escapes and whitespace.
  maxBodyBytes: 256 * 1024,
  access: { tables: { keys: 'r', accounts: 'rw' }, itemPrefixes },
} satisfies RouteSpec;

export const lexiconDeleteRoute = {
  ...lexiconPutRoute,
  id: 'LexiconDelete',
  method: 'DELETE',
  maxBodyBytes: 1024,
} satisfies RouteSpec;

const wordish = /[\p{L}\p{N}]/u;

export const LexiconEntrySchema = z
  .object({
    grapheme: z
      .string()
      .min(1)
      .max(LEXICON_LIMITS.grapheme)
      .refine((g) => wordish.test(g), 'The grapheme must contain a letter or digit')
      .refine(
        (g) => g === g.trim() && !/[\n\r\t]/.test(g),
        'No line breaks or surrounding spaces in a grapheme',
      ),
    alias: z
      .string()
      .min(1)
      .max(LEXICON_LIMITS.alias)
      .refine((a) => wordish.test(a), 'The alias must contain a letter or digit')
      .optional(),
    phoneme: z
      .string()
      .min(1)
      .max(LEXICON_LIMITS.phoneme)
      .refine((p) => IPA.test(p), 'Write the phoneme in IPA letters and marks (e.g. "ˈwaj fai")')
      .optional(),
    match_case: z.boolean().optional(),
  })
  .strict()
  .refine((e) => e.alias !== undefined || e.phoneme !== undefined, {
    message: 'Give an alias (what to say instead), a phoneme (IPA), or both',
  });

export const PutLexiconReq = z
  .object({
    language: z.enum(['es-MX', 'es-ES', '*']).default('*'),
    entries: z.array(LexiconEntrySchema).min(1).max(LEXICON_LIMITS.entries),
    default: z.boolean().default(false),
  })
  .strict();
