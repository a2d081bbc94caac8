// Error messages in the caller's language. The services throw their errors in English (the default, and what the
// logs hold); `translateMessage` finds a message's entry in the one catalogue (./error-catalogue.ts) and gives its
// Spanish, `matchMessage` its stable code, `preferredLanguage` reads Accept-Language (es, es-MX, es-ES…; q-values
// honoured, negotiated by the `negotiator` library). The HTTP chain applies them to every error answer just before
// it leaves (lambdas/shared/http/localize.ts); this module knows nothing of HTTP answers.
import Negotiator from 'negotiator';
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
