// The SSML subset /convert/text accepts with `text_type: "ssml"`, parsed by saxes (strict XML 1.0, no DTD
// processing at all): a DOCTYPE is refused as soon as it is seen, so no external DTD is fetched, no entity is ever
// declared, and XXE or "billion laughs" cannot expand; any entity but XML's five predefined ones (and numeric
// character references) is a well-formedness error. Every refusal names its line and column.
//
//   <speak>                       root, required (attributes version, xmlns, xml:lang)
//   <p>, <s>                      paragraph / sentence (a pause around them)
//   <break time="2s|500ms" strength="none|x-weak|weak|medium|strong|x-strong"/>   at most 10 s
//   <say-as interpret-as="characters|digits|date|telephone" format="dmy|mdy|ymd">  read here, by our rules
//   <sub alias="…">               the alias is said instead of the content
//   <emphasis level="strong|moderate|reduced">   dropped with a warning where the engine lacks it
//   <lang xml:lang="en-US">       words in another language (no Spanish reading rules or lexicon inside)
//
// `chars` is what Polly bills: the characters of the text content, tags and attributes not counted.
import { SaxesParser, type SaxesTag } from 'saxes';
import { dateWords } from './normalize/dates';
import { spellOut } from './normalize/ids';
import { phonesRule } from './normalize/phones';
import { spellDigits } from './normalize/number-words';
import type { BreakStrength, EmphasisLevel, Piece, Span } from './pieces';
import type { Lang } from './voices';

/** Malformed or unsupported markup, at a 1-based line and column of the caller's text. */
export class SsmlError extends Error {
  constructor(
    readonly line: number,
    readonly column: number,
    readonly reason: string,
  ) {
    super(`line ${line}, column ${column}: ${reason}`);
    this.name = 'SsmlError';
  }
}

export const SSML_ELEMENTS = ['speak', 'p', 's', 'break', 'say-as', 'sub', 'emphasis', 'lang'] as const;
type Element = (typeof SSML_ELEMENTS)[number];

export const SAY_AS = ['characters', 'digits', 'date', 'telephone'] as const;
export const BREAK_STRENGTHS: readonly BreakStrength[] = [
  'none',
  'x-weak',
  'weak',
  'medium',
  'strong',
  'x-strong',
];
export const EMPHASIS_LEVELS: readonly EmphasisLevel[] = ['strong', 'moderate', 'reduced'];
/** Languages `<lang>` may name (Polly's and espeak-ng's common ground). */
export const SSML_LANGS = [
  'en-US',
  'en-GB',
  'en-AU',
  'en-IN',
  'fr-FR',
  'fr-CA',
  'de-DE',
  'it-IT',
  'pt-BR',
  'pt-PT',
  'ca-ES',
  'es-ES',
  'es-MX',
  'es-US',
] as const;
export const MAX_BREAK_MS = 10_000;
const MAX_ELEMENTS = 10_000;
const MAX_DEPTH = 16;

const ATTRIBUTES: Record<Element, readonly string[]> = {
  speak: ['version', 'xmlns', 'xml:lang', 'xmlns:xsi', 'xsi:schemaLocation'],
  p: [],
  s: [],
  break: ['time', 'strength'],
  'say-as': ['interpret-as', 'format'],
  sub: ['alias'],
  emphasis: ['level'],
  lang: ['xml:lang'],
};

/** Where each element may appear. */
const PARENTS: Record<Element, readonly (Element | null)[]> = {
  speak: [null],
  p: ['speak'],
  s: ['speak', 'p'],
  break: ['speak', 'p', 's', 'emphasis', 'lang'],
  'say-as': ['speak', 'p', 's', 'emphasis', 'lang'],
  sub: ['speak', 'p', 's', 'emphasis', 'lang'],
  emphasis: ['speak', 'p', 's', 'lang'],
  lang: ['speak', 'p', 's', 'emphasis'],
};

const isElement = (name: string): name is Element => (SSML_ELEMENTS as readonly string[]).includes(name);

interface Open {
  name: Element;
  attrs: Record<string, string>;
  line: number;
  column: number;
  span: Span;
  /** say-as / sub: their text, read as a whole at the close tag. */
  text: string;
}

function breakMs(time: string): number | undefined {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s)\s*$/.exec(time);
  if (!m) return undefined;
  return Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : 1));
}

/** A date's day, month and year in the order `format` gives (default day-month-year). */
function readDate(text: string, format: string, lang: Lang): string | undefined {
  const parts = text.trim().split(/[/.-]/);
  if (parts.length < 2 || parts.length > 3 || !parts.every((p) => /^\d{1,4}$/.test(p))) return undefined;
  const order = format.split('');
  if (order.length !== parts.length) return undefined;
  const get = (k: string) => parts[order.indexOf(k)];
  const d = Number(get('d'));
  const m = Number(get('m'));
  const y = get('y');
  if (!(d >= 1 && d <= 31 && m >= 1 && m <= 12) || (y !== undefined && !/^(\d{2}|\d{4})$/.test(y)))
    return undefined;
  return dateWords(d, m, y, lang);
}

function sayAs(kind: string, format: string | undefined, text: string, lang: Lang): string | undefined {
  const t = text.trim();
  switch (kind) {
    case 'characters':
      return spellOut(t.replace(/\s+/g, ''), lang);
    case 'digits':
      return /^[\d\s]+$/.test(t) ? spellDigits(t.replace(/\s+/g, '')) : undefined;
    case 'date':
      return readDate(t, format ?? (t.split(/[/.-]/).length === 2 ? 'dm' : 'dmy'), lang);
    case 'telephone': {
      if (!/^\+?[\d\s().-]{3,30}$/.test(t) || !/\d/.test(t)) return undefined;
      // The phone rule reads a number after a phone word in the groups people say; the word is removed again.
      const read = phonesRule.apply(`tel. ${t}`, lang, lang === 'es-ES' ? 'ES' : 'MX');
      return read.replace(/^tel\. /, '');
    }
    default:
      return undefined;
  }
}

/**
 * Parses SSML into speech pieces (before reading rules) and counts its billed characters.
 * Throws SsmlError naming the position of the first problem.
 */
export function parseSsml(xml: string, lang: Lang = 'es-MX'): { pieces: Piece[]; chars: number } {
  const parser = new SaxesParser({ position: true });
  const pieces: Piece[] = [];
  const stack: Open[] = [];
  let chars = 0;
  let elements = 0;
  let sawRoot = false;
  let tagLine = 1;
  let tagColumn = 1;

  const fail: (reason: string, line?: number, column?: number) => never = (
    reason,
    line = parser.line,
    column = parser.column,
  ) => {
    throw new SsmlError(line, Math.max(1, column), reason);
  };
  const top = () => stack[stack.length - 1];
  const boundary = (strength: BreakStrength) => {
    const last = pieces[pieces.length - 1];
    if (last && last.kind !== 'break') pieces.push({ kind: 'break', strength });
  };
  // A paragraph or a sentence is a pause where it opens and where it closes.
  const edge = (name: string) => {
    if (name === 'p') boundary('x-strong');
    else if (name === 's') boundary('strong');
  };
  const addText = (text: string) => {
    const open = top();
    if (!open) return; // whitespace outside the root (saxes refuses anything else there)
    if (open.name === 'break' && text.trim()) fail('<break/> must be empty');
    chars += [...text].length;
    if (open.name === 'say-as' || open.name === 'sub') {
      open.text += text;
      return;
    }
    const last = pieces[pieces.length - 1];
    if (
      last?.kind === 'text' &&
      !last.said &&
      last.lang === open.span.lang &&
      last.emphasis === open.span.emphasis
    )
      last.text += text;
    else pieces.push({ kind: 'text', text, ...open.span });
  };

  parser.on('doctype', () =>
    fail('a DOCTYPE is not accepted (SSML needs no DTD; entities and external DTDs are refused)'),
  );
  parser.on('processinginstruction', (pi) => {
    if (pi.target !== 'xml') fail(`processing instruction <?${pi.target}?> is not accepted`);
  });
  parser.on('opentagstart', (tag) => {
    tagLine = parser.line;
    tagColumn = parser.column - tag.name.length - 1; // back to the '<'
  });
  parser.on('opentag', (tag: SaxesTag) => {
    const at: (reason: string) => never = (reason) => fail(reason, tagLine, tagColumn);
    const name = tag.name;
    if (++elements > MAX_ELEMENTS) at(`more than ${MAX_ELEMENTS} elements`);
    if (stack.length >= MAX_DEPTH) at(`elements nested deeper than ${MAX_DEPTH}`);
    if (!isElement(name))
      at(`<${name}> is not supported; use only ${SSML_ELEMENTS.map((e) => `<${e}>`).join(', ')}`);
    const parent = top();
    if (!parent && name !== 'speak') at(`the root element must be <speak>, not <${name}>`);
    if (parent && (parent.name === 'say-as' || parent.name === 'sub'))
      at(`<${parent.name}> may contain only text, not <${name}>`);
    if (parent && parent.name === 'break') at('<break/> must be empty');
    if (!PARENTS[name].includes(parent?.name ?? null))
      at(
        name === 'speak'
          ? '<speak> may only be the root element'
          : `<${name}> may not appear inside <${parent!.name}>`,
      );
    const attrs = tag.attributes as Record<string, string>;
    for (const a of Object.keys(attrs))
      if (!ATTRIBUTES[name].includes(a))
        at(
          `<${name}> has no attribute "${a}"` +
            (ATTRIBUTES[name].length ? ` (allowed: ${ATTRIBUTES[name].join(', ')})` : ''),
        );
    const span: Span = { ...(parent?.span ?? {}) };
    edge(name);
    switch (name) {
      case 'speak':
        sawRoot = true;
        break;
      case 'break': {
        const time = attrs['time'];
        const strength = attrs['strength'];
        if (time !== undefined) {
          const ms = breakMs(time);
          if (ms === undefined) at(`<break time="${time}">: write a duration such as "2s" or "500ms"`);
          if (ms! > MAX_BREAK_MS) at(`<break time="${time}"> is longer than ${MAX_BREAK_MS / 1000}s`);
          pieces.push({ kind: 'break', ms: ms! });
        } else if (strength !== undefined) {
          if (!BREAK_STRENGTHS.includes(strength as BreakStrength))
            at(`<break strength="${strength}">: use one of ${BREAK_STRENGTHS.join(', ')}`);
          pieces.push({ kind: 'break', strength: strength as BreakStrength });
        } else pieces.push({ kind: 'break', strength: 'medium' });
        break;
      }
      case 'say-as': {
        const kind = attrs['interpret-as'];
        if (kind === undefined) at('<say-as> needs interpret-as (characters, digits, date or telephone)');
        if (!(SAY_AS as readonly string[]).includes(kind!))
          at(`<say-as interpret-as="${kind}"> is not supported; use ${SAY_AS.join(', ')}`);
        const format = attrs['format'];
        if (format !== undefined && (kind !== 'date' || !/^(dmy|mdy|ymd|dm|md)$/.test(format)))
          at(`<say-as format="${format}">: only interpret-as="date" takes a format (dmy, mdy, ymd, dm, md)`);
        break;
      }
      case 'sub': {
        const alias = attrs['alias'];
        if (alias === undefined || !/[\p{L}\p{N}]/u.test(alias))
          at('<sub> needs an alias with the words to say');
        if (alias!.length > 200) at('<sub alias> is longer than 200 characters');
        break;
      }
      case 'emphasis': {
        const level = attrs['level'] ?? 'moderate';
        if (!EMPHASIS_LEVELS.includes(level as EmphasisLevel))
          at(`<emphasis level="${level}">: use one of ${EMPHASIS_LEVELS.join(', ')}`);
        span.emphasis = level as EmphasisLevel;
        break;
      }
      case 'lang': {
        const code = attrs['xml:lang'];
        if (code === undefined) at('<lang> needs xml:lang, e.g. xml:lang="en-US"');
        const known = SSML_LANGS.find((l) => l.toLowerCase() === code!.toLowerCase());
        if (!known) at(`<lang xml:lang="${code}"> is not supported; use one of ${SSML_LANGS.join(', ')}`);
        // Spanish inside a Spanish voice is the voice's own language: the reading rules apply.
        if (known!.startsWith('es-')) delete span.lang;
        else span.lang = known!;
        break;
      }
    }
    stack.push({ name, attrs, line: tagLine, column: tagColumn, span, text: '' });
  });
  parser.on('text', addText);
  parser.on('cdata', addText);
  parser.on('closetag', () => {
    const open = stack.pop()!;
    edge(open.name);
    switch (open.name) {
      case 'sub':
        if (open.text.trim() === '') fail('<sub> needs the written words as content', open.line, open.column);
        pieces.push({ kind: 'text', text: ` ${open.attrs['alias']!} `, said: true, ...open.span });
        break;
      case 'say-as': {
        const kind = open.attrs['interpret-as']!;
        const words = sayAs(kind, open.attrs['format'], open.text, lang);
        if (words === undefined)
          fail(
            `<say-as interpret-as="${kind}"> cannot read "${open.text.trim().slice(0, 40)}"` +
              (kind === 'date' ? ' (write it as 03/04/2024, or give format="mdy" / "ymd")' : ''),
            open.line,
            open.column,
          );
        pieces.push({ kind: 'text', text: ` ${words!} `, said: true, ...open.span });
        break;
      }
      default:
        break;
    }
  });
  parser.on('error', (err) => {
    // saxes prefixes its messages with "line:column: "; ours says it in words.
    const why = err.message.replace(/^\d+:\d+: /, '');
    fail(
      /undefined entity/.test(why)
        ? `${why} Only &amp; &lt; &gt; &quot; &apos; and numeric references (&#233;) are allowed`
        : `not well-formed XML: ${why}`,
    );
  });
  if (!xml.trimStart().startsWith('<'))
    fail('SSML must start with <speak>: wrap the text in <speak>…</speak> (or send text_type "text")', 1, 1);
  try {
    parser.write(xml).close();
  } catch (err) {
    if (err instanceof SsmlError) throw err;
    fail(`not well-formed XML: ${err instanceof Error ? err.message : String(err)}`);
  }
  if (!sawRoot) fail('no <speak> element: wrap the text in <speak>…</speak>');
  const last = pieces[pieces.length - 1];
  if (last?.kind === 'break' && last.ms === undefined) pieces.pop(); // a closing </p>'s pause ends nothing
  return { pieces, chars };
}
