// Pronunciation lexicons of paid accounts: create/replace, read, list, delete (routes /v1/lexicons), and the
// entries a conversion applies (the lexicons it names, else the account's default). Limits: core/lexicon.ts.
import { ownerOf } from '../../shared/webhooks/endpoints';
import type { Caller } from '../../shared/auth/resolve-caller';
import { InvalidInput, NotFound, Unauthenticated, invalid } from '../../shared/errors';
import {
  LEXICON_LIMITS,
  entriesFor,
  lexiconBytes,
  type Lexicon,
  type LexiconEntry,
  type LexiconLanguage,
} from '../core/lexicon';
import type { Voice } from '../core/voices';
import type { LexiconStore } from '../ports';

const PAID_ONLY =
  'Pronunciation lexicons belong to paid accounts: send `Authorization: Bearer <API key>` ' +
  '(plans: GET /pay/checkout/pro).';

/** Whose lexicons: the key's billing account (kept across key rotation), as for documents jobs. */
export function lexiconOwner(caller: Caller): string {
  if (caller.kind !== 'key') throw new Unauthenticated(PAID_ONLY);
  return ownerOf(caller.key);
}

export interface LexiconInput {
  language: LexiconLanguage;
  entries: LexiconEntry[];
  default: boolean;
}

/** Listing shape: everything but the entries. */
export function lexiconSummary(lx: Lexicon) {
  return {
    name: lx.name,
    language: lx.language,
    default: lx.default,
    entries: lx.entries.length,
    bytes: lexiconBytes(lx.entries),
    updated_at: lx.updated_at,
  };
}

/** 422s for what one lexicon may hold (the schema checked each field). */
export function checkLexicon(input: LexiconInput): void {
  const seen = new Map<string, number>();
  const items = [];
  input.entries.forEach((e, i) => {
    const key = e.match_case === false ? e.grapheme.toLowerCase() : e.grapheme;
    const first = seen.get(key);
    if (first !== undefined)
      items.push({
        loc: ['body', 'entries', i, 'grapheme'],
        msg: `Duplicate grapheme '${e.grapheme}' (also entry ${first}): keep one entry per word`,
        type: 'value_error',
      });
    else seen.set(key, i);
  });
  const bytes = lexiconBytes(input.entries);
  if (bytes > LEXICON_LIMITS.lexiconBytes)
    items.push({
      loc: ['body', 'entries'],
      msg: `The entries take ${bytes} bytes as JSON; a lexicon holds at most ${LEXICON_LIMITS.lexiconBytes}. Split it into several lexicons.`,
      type: 'value_error',
    });
  if (items.length) throw new InvalidInput(items);
}

export async function putLexicon(
  store: LexiconStore,
  caller: Caller,
  name: string,
  input: LexiconInput,
  now: Date,
): Promise<{ created: boolean; lexicon: Lexicon }> {
  const owner = lexiconOwner(caller);
  checkLexicon(input);
  const lexicon: Lexicon = { name, ...input, updated_at: now.toISOString() };
  return store.update(owner, (current) => {
    const existing = current.findIndex((l) => l.name === name);
    if (existing < 0 && current.length >= LEXICON_LIMITS.lexicons)
      throw invalid(
        ['path', 'name'],
        `This account already has ${LEXICON_LIMITS.lexicons} lexicons, the most it may hold: delete one (DELETE /v1/lexicons/{name}) or replace an existing one.`,
        'value_error',
      );
    const next = current.map((l) => (lexicon.default ? { ...l, default: false } : l));
    if (existing < 0) next.push(lexicon);
    else next[existing] = lexicon;
    const total = next.reduce((n, l) => n + lexiconBytes(l.entries), 0);
    if (total > LEXICON_LIMITS.accountBytes)
      throw invalid(
        ['body', 'entries'],
        `The account's lexicons would take ${total} bytes; the limit is ${LEXICON_LIMITS.accountBytes}. Delete or shorten other lexicons first.`,
        'value_error',
      );
    return { next, result: { created: existing < 0, lexicon } };
  });
}

export async function getLexicon(store: LexiconStore, caller: Caller, name: string): Promise<Lexicon> {
  const found = (await store.list(lexiconOwner(caller))).find((l) => l.name === name);
  if (!found) throw new NotFound(`No lexicon named '${name}' in this account (GET /v1/lexicons lists them).`);
  return found;
}

export async function listLexicons(store: LexiconStore, caller: Caller): Promise<Lexicon[]> {
  return store.list(lexiconOwner(caller));
}

export async function deleteLexicon(store: LexiconStore, caller: Caller, name: string): Promise<void> {
  const owner = lexiconOwner(caller);
  const removed = await store.update(owner, (current) => ({
    next: current.filter((l) => l.name !== name),
    result: current.some((l) => l.name === name),
  }));
  if (!removed)
    throw new NotFound(`No lexicon named '${name}' in this account (GET /v1/lexicons lists them).`);
}

/**
 * The lexicon entries a conversion applies: the lexicons `names` lists (in precedence order; 422 for an unknown
 * one, 401 without a paid key), else the account's default (none for the free tier). A named lexicon for the
 * other locale is not applied, with a warning.
 */
export async function lexiconEntriesFor(
  store: LexiconStore,
  caller: Caller,
  names: string[] | undefined,
  voice: Voice,
  loc: (string | number)[] = ['body', 'lexicons'],
): Promise<{ entries: LexiconEntry[]; applied: string[]; warnings: string[] }> {
  const none = { entries: [], applied: [], warnings: [] };
  if (!names?.length && caller.kind !== 'key') return none;
  const all = await store.list(lexiconOwner(caller));
  let chosen: Lexicon[];
  if (names?.length) {
    const missing = names
      .map((n, i) => ({ n, i }))
      .filter(({ n }) => !all.some((l) => l.name === n))
      .map(({ n, i }) => ({
        loc: [...loc, i],
        msg: `No lexicon named '${n}' in this account (GET /v1/lexicons lists them)`,
        type: 'value_error',
      }));
    if (missing.length) throw new InvalidInput(missing);
    chosen = names.map((n) => all.find((l) => l.name === n)!);
  } else chosen = all.filter((l) => l.default);
  const warnings = chosen
    .filter((l) => l.language !== '*' && l.language !== voice.lang)
    .map(
      (l) =>
        `Lexicon '${l.name}' is for ${l.language} and the voice ${voice.id} speaks ${voice.lang}: not applied.`,
    );
  const applies = chosen.filter((l) => l.language === '*' || l.language === voice.lang);
  return { entries: entriesFor(applies, voice.lang), applied: applies.map((l) => l.name), warnings };
}
