// /v1/lexicons: the four routes' specs (one handler, lexicons.ts), and the request body of PUT. routes.ts lists them.
// Pronunciation lexicons of paid accounts (core/lexicon.ts has the matching rules and limits).
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { IPA, LEXICON_LIMITS } from '../core/lexicon';
import { LEXICON_ITEM_PREFIX } from '../adapters/item-prefixes';
import { LexiconList, Lexicon } from '../api/schemas';
import { common, lexiconName, notFound } from '../api/doc-parts';

const handler = 'lambdas/narration/handlers/lexicons.ts';
const itemPrefixes = { accounts: [LEXICON_ITEM_PREFIX] };
const noLexicon = notFound('No lexicon by that name in this account');

export const lexiconListRoute = {
  id: 'LexiconList',
  method: 'GET',
  path: '/v1/lexicons',
  handler,
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { keys: 'r', accounts: 'r' }, itemPrefixes },
  docs: {
    summary: 'List pronunciation lexicons',
    tags: ['lexicons'],
    bearer: 'required',
    description:
      "The account's lexicons (without entries) and the limits: 100 lexicons, 1,000 entries and 40,000 bytes " +
      '(entries as JSON) each, 300,000 bytes in all; graphemes ≤ 100 characters, aliases ≤ 200, phonemes ≤ 100; ' +
      'at most 5 named per conversion. Paid keys only (no key → 401).',
    responses: { 200: { description: 'Lexicons', schema: LexiconList }, 401: common[401] },
  },
} satisfies RouteSpec;

export const lexiconGetRoute = {
  ...lexiconListRoute,
  id: 'LexiconGet',
  path: '/v1/lexicons/{name}',
  docs: {
    summary: 'Read a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    params: [lexiconName],
    responses: {
      200: { description: 'The lexicon with its entries', schema: Lexicon },
      401: common[401],
      404: noLexicon,
      422: common[422],
    },
  },
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
  docs: {
    summary: 'Create or replace a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    description:
      'Entries `grapheme` → `alias` (what to say instead) and/or `phoneme` (IPA; Polly reads it through ' +
      '`<phoneme alphabet="ipa">`, the local engine says the alias or the word). Matching is whole-word and exact ' +
      'in case unless `match_case: false`; the longest grapheme wins, and across lexicons the first named. ' +
      'Applied after the reading rules, on every conversion naming it in `lexicons` (text, PDF, URL and their ' +
      'dry runs) and, with `default: true`, on every conversion of the account naming none (one default: setting ' +
      'it moves it). `language`: es-MX, es-ES or * (both). Over a limit → 422 naming the field.',
    params: [lexiconName],
    body: {
      schema: PutLexiconReq,
      contentTypes: ['application/json'],
      example: {
        language: 'es-MX',
        entries: [
          { grapheme: 'Wi-Fi', alias: 'uai fai' },
          { grapheme: 'Xochimilco', phoneme: 'sot͡ʃiˈmilko' },
        ],
        default: false,
      },
    },
    responses: {
      200: { description: 'Replaced', schema: Lexicon },
      201: { description: 'Created', schema: Lexicon },
      401: common[401],
      422: common[422],
    },
  },
} satisfies RouteSpec;

export const lexiconDeleteRoute = {
  ...lexiconPutRoute,
  id: 'LexiconDelete',
  method: 'DELETE',
  maxBodyBytes: 1024,
  docs: {
    summary: 'Delete a pronunciation lexicon',
    tags: ['lexicons'],
    bearer: 'required',
    params: [lexiconName],
    responses: {
      204: { description: 'Deleted' },
      401: common[401],
      404: noLexicon,
      422: common[422],
    },
  },
} satisfies RouteSpec;
