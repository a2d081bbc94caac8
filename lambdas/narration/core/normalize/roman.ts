// Roman numerals, only where they are certainly numerals (never "MI", "DI", "VI" as words):
//   after a context word:   siglo XXI → "siglo veintiuno", capítulo IV → "capítulo cuarto", s. XV → "siglo
//                           quince", fase II → "fase dos", siglos XV y XVI → "siglos quince y dieciséis"
//   after a capitalised name: Felipe II → "Felipe segundo", Isabel II → "Isabel segunda", Luis XIV → "Luis
//                           catorce", Juan Pablo II → "Juan Pablo segundo"
//   before an event noun:   II Guerra Mundial → "segunda Guerra Mundial", XXV Aniversario → "vigésimo quinto
//                           Aniversario", III Jornadas → "terceras Jornadas"
// Convention (RAE): after a noun, ordinals up to ten and cardinals from eleven ("Alfonso X" décimo, "Alfonso
// XIII" trece); some nouns always take cardinals (tipo, fase, nivel...); before a noun, always an ordinal.
import { nounGender } from './grammar';
import { cardinal, type Gender, ordinal } from './number-words';
import type { Rule } from './rule';

type Reading = 'ordinal10' | 'cardinal';

interface Context {
  /** Forms as written (lowercase; matched case-insensitively). */
  forms: string[];
  /** What an abbreviated form is read as ("s." → "siglo"); full forms are kept as written. */
  expand?: Record<string, string>;
  reading: Reading;
  gender: Gender;
}

const CONTEXTS: Context[] = [
  {
    forms: ['siglo', 'siglos', 's.'],
    expand: { 's.': 'siglo' },
    reading: 'ordinal10',
    gender: 'm',
  },
  {
    forms: [
      'capítulo',
      'capítulos',
      'cap.',
      'tomo',
      'tomos',
      'volumen',
      'volúmenes',
      'vol.',
      'libro',
      'libros',
      'acto',
      'canto',
      'título',
      'milenio',
    ],
    expand: { 'cap.': 'capítulo', 'vol.': 'volumen' },
    reading: 'ordinal10',
    gender: 'm',
  },
  {
    forms: ['parte', 'escena', 'sección', 'jornada', 'legislatura', 'dinastía', 'cruzada', 'olimpiada'],
    reading: 'ordinal10',
    gender: 'f',
  },
  {
    forms: [
      'tipo',
      'fase',
      'nivel',
      'grado',
      'clase',
      'categoría',
      'etapa',
      'grupo',
      'anexo',
      'apartado',
      'zona',
      'distrito',
      'región',
      'estadio',
      'división',
      'tabla',
      'figura',
      'lección',
      'unidad',
      'bloque',
      'módulo',
    ],
    reading: 'cardinal',
    gender: 'm',
  },
];
const CONTEXT_BY_FORM = new Map(CONTEXTS.flatMap((c) => c.forms.map((f) => [f, c] as const)));

/** Nouns after which a roman numeral before them is an ordinal: "XV Congreso", "II Guerra Mundial". */
const EVENT_NOUNS = new Set(
  (
    'congreso jornada jornadas encuentro festival guerra feria bienal cumbre centenario aniversario edición ' +
    'concurso foro simposio coloquio premio informe juegos olimpiada reunión conferencia asamblea plan certamen ' +
    'semana torneo copa campeonato seminario curso salón muestra convención exposición carrera maratón república ' +
    'legislatura distrito festival gira temporada cruzada bienal trienal sínodo concilio'
  ).split(' '),
);

/** Given names not ending in -a that are feminine (for "Isabel II" → "segunda"). */
const FEMININE_NAMES = new Set(
  'isabel beatriz leonor mercedes pilar carmen inés raquel ester rut margarita juana catalina cristina'.split(
    ' ',
  ),
);

/** Capitalised words that precede a numeral without being a name ("En", "De"...). */
const NOT_NAMES = new Set(
  (
    'el la los las en de del y e o u a al con por para un una se no si es lo le mi tu su sus mis tus ' +
    'este esta estos estas ese esa aquel aquella entre sobre sin desde hasta yo tú él ella nosotros ellos ' +
    'pero como que cuando donde según ante tras hacia contra durante ' +
    // Words before a letter that is not a numeral: "Rayos X", "Generación X", "Malcolm X", "Modelo S".
    'rayos generación modelo model malcolm proyecto factor vitamina programa sistema versión windows mac ' +
    'formato talla serie iphone misión mission plan'
  ).split(' '),
);

const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100, D: 500, M: 1000 };
const STRICT_ROMAN = /^M{0,3}(?:CM|CD|D?C{0,3})(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})$/;

/** The value of a well-formed roman numeral (upper or lower case), else undefined. */
export function romanValue(s: string): number | undefined {
  const r = s.toUpperCase();
  if (!r || !STRICT_ROMAN.test(r)) return undefined;
  let total = 0;
  for (let i = 0; i < r.length; i++) {
    const v = ROMAN_VALUES[r[i]!]!;
    const next = ROMAN_VALUES[r[i + 1] ?? ''] ?? 0;
    total += v < next ? -v : v;
  }
  return total;
}

function read(value: number, reading: Reading, gender: Gender): string {
  if (reading === 'cardinal' || value > 10) return cardinal(value, { gender });
  return ordinal(value, { gender });
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const CONTEXT_FORMS = [...CONTEXT_BY_FORM.keys()].sort((a, b) => b.length - a.length).map(escape);
const ROMAN = String.raw`(?:[IVXLCDM]{1,12}|[ivxlc]{1,8})`;
/** Context word, numeral, then optionally more numerals joined by y / a / al / - / , ("siglos XV y XVI"). */
const AFTER_CONTEXT = new RegExp(
  String.raw`(?<![\p{L}\p{N}])(${CONTEXT_FORMS.join('|')})([^\S\n]+)(${ROMAN}(?:(?:[^\S\n]*[-–,][^\S\n]*|[^\S\n]+(?:y|e|o|u|a|al)[^\S\n]+)${ROMAN}){0,5})(?![\p{L}\p{N}])`,
  'giu',
);
const AFTER_NAME = /(?<![\p{L}\p{N}])(\p{Lu}\p{Ll}+)([^\S\n]+)([IVX]{1,7})(?![\p{L}\p{N}])/gu;
const BEFORE_NOUN = /(?<![\p{L}\p{N}])([IVX]{1,7})([^\S\n]+)(\p{Lu}\p{Ll}+)(?![\p{L}\p{N}])/gu;

export const romanRule: Rule = {
  name: 'roman',
  apply(text) {
    if (!/[IVXLCDMivxlc]/.test(text)) return text;
    return text
      .replace(AFTER_CONTEXT, (m, word: string, space: string, numerals: string) => {
        const ctx = CONTEXT_BY_FORM.get(word.toLowerCase());
        if (!ctx) return m;
        let ok = true;
        const said = numerals.replace(new RegExp(ROMAN, 'gi'), (r) => {
          const v = romanValue(r);
          const lower = r === r.toLowerCase();
          // Lowercase numerals only from i, v, x and up to 39 ("siglo xxi"), never "di", "mi", "cl".
          const lowerOk = !lower || (/^[ivx]+$/.test(r) && v !== undefined && v <= 39);
          if (v === undefined || !lowerOk || (r !== r.toUpperCase() && !lower)) {
            ok = false;
            return r;
          }
          return read(v, ctx.reading, ctx.gender);
        });
        if (!ok) return m;
        const lead = ctx.expand?.[word.toLowerCase()] ?? word;
        return `${lead}${space}${said.replace(/\s*[-–]\s*/g, ' a ')}`;
      })
      .replace(AFTER_NAME, (m, name: string, space: string, r: string) => {
        const lower = name.toLowerCase();
        const v = romanValue(r);
        if (v === undefined || v > 39 || NOT_NAMES.has(lower) || CONTEXT_BY_FORM.has(lower)) return m;
        const gender: Gender = FEMININE_NAMES.has(lower) || /a$/.test(lower) ? 'f' : 'm';
        return `${name}${space}${read(v, 'ordinal10', gender)}`;
      })
      .replace(BEFORE_NOUN, (m, r: string, space: string, noun: string) => {
        const lower = noun.toLowerCase();
        const v = romanValue(r);
        if (v === undefined || v > 39 || !EVENT_NOUNS.has(lower)) return m;
        const gender = nounGender(lower);
        const plural = lower.endsWith('s');
        return `${ordinal(v, { gender, plural, apocope: !plural && gender === 'm' })}${space}${noun}`;
      });
  },
};
