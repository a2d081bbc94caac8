// Error answers in the caller's language. The services throw their errors in English (the default, and what the logs
// hold); just before an answer leaves, `localizeAnswer` finds the message's entry in the one catalogue
// (./error-catalogue.ts) and, for a caller whose Accept-Language prefers Spanish (es, es-MX, es-ES…; q-values
// honoured, negotiated by the `negotiator` library), replaces the human text with the entry's Spanish. Nothing else
// changes: same status, same body keys in the same order, same `type` of each validation item. Every error answer
// whose `detail` is a message also carries the entry's stable code in `X-Error-Code`, whatever the language, so a
// program never has to match on wording. A message without an entry stays English and is logged (the catalogue test,
// test/unit/error-catalogue.test.ts, reads every message the sources can throw, so that should not happen).
import Negotiator from 'negotiator';
import { logger } from '../logger';
import type { ApiResult } from '../http/response';
import { ERROR_MESSAGES, TERM_PATTERNS, TERMS, type ErrorCode } from './error-catalogue';

export type Lang = 'en' | 'es';
const LANGS: Lang[] = ['en', 'es'];

/** The caller's language from Accept-Language: Spanish when it prefers any Spanish, otherwise English. */
export function preferredLanguage(acceptLanguage: string | undefined): Lang {
  if (!acceptLanguage?.trim()) return 'en';
  const best = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).language(LANGS);
  return best === 'es' ? 'es' : 'en';
}

/** `{name}` copies the value; `{@name}` translates it too (a nested message, or a word of TERMS). */
const PLACEHOLDER = /\{(@?)([a-z_][a-z0-9_]*)\}/g;

interface Entry {
  code: ErrorCode;
  re: RegExp;
  names: string[];
  translated: Set<string>;
  es: string;
}

let compiled: Entry[] | undefined;

function entries(): Entry[] {
  if (compiled) return compiled;
  const list = (Object.entries(ERROR_MESSAGES) as [ErrorCode, readonly [string, string]][]).map(
    ([code, [en, es]]) => {
      const names: string[] = [];
      const translated = new Set<string>();
      let source = '';
      let last = 0;
      let literal = 0;
      for (const m of en.matchAll(PLACEHOLDER)) {
        source += escape(en.slice(last, m.index));
        literal += m.index - last;
        source += '([\\s\\S]*?)';
        names.push(m[2]!);
        if (m[1]) translated.add(m[2]!);
        last = m.index + m[0].length;
      }
      source += escape(en.slice(last));
      literal += en.length - last;
      return { code, re: new RegExp(`^${source}$`), names, translated, es, literal };
    },
  );
  // The most specific entry first: "Input should be a valid string" before "Input should be {values}".
  list.sort((a, b) => b.literal - a.literal);
  compiled = list;
  return list;
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The catalogue entry an English message is an instance of, with its values. */
export function matchMessage(
  message: string,
): { code: ErrorCode; params: Record<string, string> } | undefined {
  for (const e of entries()) {
    const m = e.re.exec(message);
    if (m) return { code: e.code, params: Object.fromEntries(e.names.map((n, i) => [n, m[i + 1]!])) };
  }
  return undefined;
}

/** The message in `lang` (English as it is); undefined when the catalogue has no entry for it. */
export function translateMessage(message: string, lang: Lang): string | undefined {
  const found = matchMessage(message);
  if (!found) return undefined;
  if (lang === 'en') return message;
  const entry = entries().find((e) => e.code === found.code)!;
  return entry.es.replace(PLACEHOLDER, (whole, _at: string, name: string) => {
    const value = found.params[name];
    if (value === undefined) return whole;
    return entry.translated.has(name) ? translateValue(value) : value;
  });
}

function translateValue(value: string): string {
  if (Object.hasOwn(TERMS, value)) return TERMS[value]!;
  for (const [re, to] of TERM_PATTERNS) if (re.test(value)) return value.replace(re, to);
  return translateMessage(value, 'es') ?? value;
}

const UNTRANSLATED = new Set<string>();

function localized(message: string, lang: Lang): string {
  const out = translateMessage(message, lang);
  if (out !== undefined) return out;
  if (!UNTRANSLATED.has(message) && UNTRANSLATED.size < 100) {
    UNTRANSLATED.add(message);
    logger.warn('error message without a catalogue entry', { detail: message });
  }
  return message;
}

/**
 * An error answer (status ≥ 400, JSON with `detail`) in the caller's language, with `X-Error-Code` for a message
 * detail and `Vary: Accept-Language`. Any other answer is returned as it is.
 */
export function localizeAnswer(result: ApiResult, acceptLanguage: string | undefined): ApiResult {
  if ((result.statusCode ?? 200) < 400 || typeof result.body !== 'string' || result.isBase64Encoded)
    return result;
  if (!/json/i.test(result.headers?.['content-type'] ?? '')) return result;
  let body: unknown;
  try {
    body = JSON.parse(result.body);
  } catch {
    return result;
  }
  if (!body || typeof body !== 'object' || !('detail' in body)) return result;
  const lang = preferredLanguage(acceptLanguage);
  const b = body as { detail: unknown };
  const headers: Record<string, string> = { ...result.headers };
  const vary = headers.vary;
  headers.vary =
    vary && !/accept-language/i.test(vary) ? `${vary}, Accept-Language` : (vary ?? 'Accept-Language');
  if (typeof b.detail === 'string') {
    const code = matchMessage(b.detail)?.code;
    if (code) headers['x-error-code'] = code;
    b.detail = localized(b.detail, lang);
  } else if (Array.isArray(b.detail) && lang !== 'en') {
    for (const item of b.detail as { msg?: unknown }[])
      if (item && typeof item.msg === 'string') item.msg = localized(item.msg, lang);
  }
  return { ...result, headers, body: JSON.stringify(body) };
}
