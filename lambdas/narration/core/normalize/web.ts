// Web addresses, e-mail addresses and @handles, read the way people dictate them:
//   www.ejemplo.com.mx/precios → "ejemplo punto com punto eme equis diagonal precios" (es-ES: "barra")
//   ana.lopez@correo.mx        → "ana punto lopez arroba correo punto eme equis"
// The scheme (https://) and "www." are not read, nor are query strings and fragments (tracking noise nobody
// dictates). Country-code domains are spelled; com/org/net/gob/edu... are said as words. Digits inside are
// numbers ("pagina2" → "pagina dos"), short vowel-less names are spelled ("bbva", "html").
import { LOCALES, type Lang, letterName } from './locale';
import { cardinal, spellDigits } from './number-words';
import type { Rule } from './rule';

/** Top-level domains said as words rather than spelled ("punto com", not "punto ce o eme"). */
const WORD_TLDS = [
  'com',
  'net',
  'org',
  'edu',
  'gob',
  'gov',
  'info',
  'biz',
  'app',
  'dev',
  'es',
  'online',
  'site',
  'store',
  'tech',
  'blog',
  'news',
  'lat',
  'cat',
  'shop',
];
/** Top-level domains recognised in bare addresses ("ejemplo.com.mx" without www or https): those, and the spelled ones. */
const TLDS = [
  ...WORD_TLDS,
  'io',
  'ai',
  'mx',
  'ar',
  'co',
  'cl',
  'pe',
  've',
  'uy',
  'py',
  'bo',
  'ec',
  'gt',
  'cr',
  'pa',
  'hn',
  'sv',
  'ni',
  'pr',
  'us',
  'uk',
  'fr',
  'it',
  'pt',
  'eu',
  'tv',
  'me',
  'ly',
];
/** Domain labels said as words rather than spelled. */
const SAID = new Set([...WORD_TLDS, 'web', 'mail']);

const STOP = String.raw`[.,;:!?)\]}»"'”’]+$`;
const TRAILING_PUNCT = new RegExp(STOP, 'u');

const EMAIL =
  /(?<![\p{L}\p{N}._%+-])([A-Za-z0-9._%+-]{1,64})@((?:[A-Za-z0-9-]{1,63}\.)+[A-Za-z]{2,24})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])/gu;
const URL_EXPLICIT = /(?<![\p{L}\p{N}])(?:https?:\/\/|www\.)[^\s<>"«»“”]+/giu;
const URL_BARE = new RegExp(
  String.raw`(?<![\p{L}\p{N}@._%+/-])(?:[a-z0-9-]{1,63}\.)+(?:${TLDS.join('|')})(?![\p{L}\p{N}_-]|\.[\p{L}\p{N}])(?:/[^\s<>"«»“”]*)?`,
  'giu',
);
const HANDLE = /(?<![\p{L}\p{N}_.@])@([A-Za-z0-9_]{1,30})(?![\p{L}\p{N}_@])/gu;

const SYMBOL_WORDS: Record<string, string> = {
  '.': 'punto',
  '-': 'guion',
  _: 'guion bajo',
  '+': 'más',
  '~': 'tilde',
  '=': 'igual',
  '&': 'y',
  '%': 'por ciento',
  ':': 'dos puntos',
};

function spell(s: string, lang: Lang): string {
  return Array.from(s.toUpperCase(), (c) => letterName(c, lang)).join(' ');
}

/** One piece of an address: letters as a word (or spelled when unpronounceable), digits as a number, symbols named. */
function pieceWords(piece: string, lang: Lang): string {
  const out: string[] = [];
  // Digits are ASCII: other numerals (², ½, ١, 𑇐) are symbols here, and skipped like them.
  for (const [run] of piece.matchAll(/\p{L}+|[0-9]+|[^\p{L}0-9]/gu)) {
    if (/^\p{L}/u.test(run)) {
      const lower = run.toLowerCase();
      out.push(!/[aeiouáéíóúü]/.test(lower) && lower.length <= 6 ? spell(lower, lang) : lower);
    } else if (/^[0-9]/.test(run)) {
      out.push(run.length <= 4 && !run.startsWith('0') ? cardinal(run) : spellDigits(run));
    } else if (SYMBOL_WORDS[run]) out.push(SYMBOL_WORDS[run]);
    // Other symbols (percent-encoding, quotes) are skipped.
  }
  return out.join(' ');
}

function hostWords(host: string, lang: Lang): string {
  const [name = '', port] = host.split(':');
  const labels = name
    .toLowerCase()
    .replace(/^www\./, '')
    .split('.')
    .filter(Boolean);
  const words = labels.map((l, i) =>
    i === labels.length - 1 && labels.length > 1
      ? SAID.has(l)
        ? l
        : /^[a-z]{2,3}$/.test(l)
          ? spell(l, lang)
          : pieceWords(l, lang)
      : pieceWords(l, lang),
  );
  const said = words.join(' punto ');
  return port && /^\d+$/.test(port) ? `${said} dos puntos ${cardinal(port)}` : said;
}

/** A web address in words (scheme, www, query and fragment dropped). */
export function urlWords(url: string, lang: Lang): string {
  const bare = url.replace(/^https?:\/\//i, '');
  const cut = bare.search(/[/?#]/);
  const host = cut < 0 ? bare : bare.slice(0, cut);
  const path = cut < 0 ? '' : bare.slice(cut).replace(/[?#].*$/s, '');
  const segments = path
    .split('/')
    .filter(Boolean)
    .map((s) => pieceWords(safeDecode(s), lang));
  const slash = LOCALES[lang].slashWord;
  return [hostWords(host, lang), ...segments].filter(Boolean).join(` ${slash} `);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

export function emailWords(local: string, domain: string, lang: Lang): string {
  return `${pieceWords(local, lang)} arroba ${hostWords(domain, lang)}`;
}

/** Splits trailing sentence punctuation off a greedy address match. */
function trimTail(match: string): [string, string] {
  const m = TRAILING_PUNCT.exec(match);
  if (!m) return [match, ''];
  return [match.slice(0, m.index), m[0]];
}

export const webRule: Rule = {
  name: 'web',
  apply(text, lang) {
    if (!/[@.]/.test(text)) return text;
    return text
      .replace(EMAIL, (_m, local: string, domain: string) => emailWords(local, domain, lang))
      .replace(URL_EXPLICIT, (m) => {
        const [url, tail] = trimTail(m);
        const words = urlWords(url, lang);
        return words ? words + tail : m;
      })
      .replace(URL_BARE, (m) => {
        const [url, tail] = trimTail(m);
        return urlWords(url, lang) + tail;
      })
      .replace(HANDLE, (_m, name: string) => `arroba ${pieceWords(name, lang)}`);
  },
};
