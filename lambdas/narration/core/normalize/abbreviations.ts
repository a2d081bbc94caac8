// Abbreviations expanded to the words a narrator says. One table; per entry:
//   - `number`: expanded only before a number ("No. 5" → "número 5", but "No." alone is the word "no"),
//   - `end`:    may close a sentence ("etc.", "S.A.", "EE. UU."): the period is put back when a new sentence,
//               a line break or the end of the text follows, so sentence pauses (and the chunker) survive;
//               titles (Sr., Dr., Av.) never close one, so "Sr. García" loses the period,
//   - `only`:   locale-specific ("Col." is colonia in Mexico; "S.A. de C.V." as Mexicans say it).
// Forms are matched case-sensitively as listed; lowercase forms also match capitalised ("Etc.", "Pág.").
// Internal spaces are optional ("EE.UU." = "EE. UU.", "p.ej." = "p. ej.").
import { sentenceEndsAt } from './grammar';
import type { Lang } from './locale';
import type { Rule } from './rule';

interface Abbreviation {
  forms: string[];
  say: string;
  number?: boolean;
  end?: boolean;
  only?: Lang;
}

export const ABBREVIATIONS: readonly Abbreviation[] = [
  // Titles and forms of address
  { forms: ['Sr.'], say: 'señor' },
  { forms: ['Sra.'], say: 'señora' },
  { forms: ['Srta.'], say: 'señorita' },
  { forms: ['Sres.'], say: 'señores' },
  { forms: ['Sras.'], say: 'señoras' },
  { forms: ['Dr.'], say: 'doctor' },
  { forms: ['Dra.'], say: 'doctora' },
  { forms: ['Dres.'], say: 'doctores' },
  { forms: ['Lic.'], say: 'licenciado' },
  { forms: ['Licda.'], say: 'licenciada' },
  { forms: ['Ing.'], say: 'ingeniero' },
  { forms: ['Arq.'], say: 'arquitecto' },
  { forms: ['Mtro.'], say: 'maestro' },
  { forms: ['Mtra.'], say: 'maestra' },
  { forms: ['Prof.'], say: 'profesor' },
  { forms: ['Profa.'], say: 'profesora' },
  { forms: ['Gral.'], say: 'general' },
  { forms: ['Ud.', 'Vd.'], say: 'usted' },
  { forms: ['Uds.', 'Vds.'], say: 'ustedes' },
  { forms: ['Dña.'], say: 'doña' },
  { forms: ['Sto.'], say: 'santo' },
  { forms: ['Sta.'], say: 'santa' },
  { forms: ['Atte.'], say: 'atentamente', end: true },
  // Companies and countries
  { forms: ['S.A. de C.V.'], say: 'ese a de ce ve', end: true, only: 'es-MX' },
  { forms: ['S.A. de C.V.'], say: 'ese a de ce uve', end: true, only: 'es-ES' },
  { forms: ['S. de R.L.'], say: 'ese de erre ele', end: true },
  { forms: ['S.A.B.'], say: 'ese a be', end: true },
  { forms: ['S.A.'], say: 'ese a', end: true },
  { forms: ['S.L.'], say: 'ese ele', end: true },
  { forms: ['S.C.'], say: 'ese ce', end: true },
  { forms: ['Cía.'], say: 'compañía', end: true },
  { forms: ['EE. UU.'], say: 'Estados Unidos', end: true },
  { forms: ['EUA'], say: 'Estados Unidos' },
  { forms: ['CDMX'], say: 'ce de eme equis' },
  // Addresses
  { forms: ['Av.', 'Avda.'], say: 'avenida' },
  { forms: ['Blvd.'], say: 'bulevar' },
  { forms: ['Calz.'], say: 'calzada', only: 'es-MX' },
  { forms: ['Col.'], say: 'colonia', only: 'es-MX' },
  { forms: ['Fracc.'], say: 'fraccionamiento', only: 'es-MX' },
  { forms: ['Edo. Méx.', 'Edo. Mex.'], say: 'Estado de México', end: true },
  { forms: ['Edo.'], say: 'estado' },
  { forms: ['Cd.'], say: 'ciudad' },
  { forms: ['Mpio.'], say: 'municipio' },
  { forms: ['Depto.', 'Dpto.'], say: 'departamento' },
  { forms: ['Esq.', 'esq.'], say: 'esquina' },
  { forms: ['Int.'], say: 'interior', number: true },
  { forms: ['C.P.'], say: 'código postal' },
  // References and numbers
  { forms: ['núm.', 'n.º', 'N.º', 'nº', 'Nº', 'N°', 'n°'], say: 'número' },
  { forms: ['núms.'], say: 'números' },
  { forms: ['No.'], say: 'número', number: true },
  { forms: ['Nos.'], say: 'números', number: true },
  { forms: ['art.'], say: 'artículo', number: true },
  { forms: ['arts.'], say: 'artículos', number: true },
  { forms: ['pág.'], say: 'página' },
  { forms: ['págs.', 'pp.'], say: 'páginas', number: true },
  { forms: ['cap.'], say: 'capítulo', number: true },
  { forms: ['vol.'], say: 'volumen', number: true },
  { forms: ['fig.'], say: 'figura', number: true },
  { forms: ['tel.', 'Tel.', 'Tels.', 'tels.'], say: 'teléfono' },
  { forms: ['cel.'], say: 'celular' },
  { forms: ['ext.'], say: 'extensión', number: true },
  { forms: ['pza.'], say: 'pieza' },
  { forms: ['pzas.'], say: 'piezas' },
  // Latin and connectors
  { forms: ['etc.'], say: 'etcétera', end: true },
  { forms: ['p. ej.'], say: 'por ejemplo' },
  { forms: ['v. gr.'], say: 'verbigracia' },
  { forms: ['ej.'], say: 'ejemplo' },
  { forms: ['aprox.'], say: 'aproximadamente', end: true },
  { forms: ['máx.'], say: 'máximo', end: true },
  { forms: ['mín.'], say: 'mínimo', end: true },
  { forms: ['a. C.'], say: 'antes de Cristo', end: true },
  { forms: ['d. C.'], say: 'después de Cristo', end: true },
  { forms: ['vs.'], say: 'contra' },
  { forms: ['admón.'], say: 'administración' },
];

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Key of a written form: no space after a period, so "EE.UU." and "EE. UU." meet; other spaces single. */
const keyOf = (s: string) => s.replace(/\.\s+/g, '.').replace(/\s+/g, ' ');

interface Compiled {
  re: RegExp;
  byKey: Map<string, Abbreviation>;
}

function compile(lang: Lang): Compiled {
  const byKey = new Map<string, Abbreviation>();
  const forms: string[] = [];
  for (const a of ABBREVIATIONS) {
    if (a.only && a.only !== lang) continue;
    for (const f of a.forms) {
      const variants = /^\p{Ll}/u.test(f) ? [f, f[0]!.toUpperCase() + f.slice(1)] : [f];
      for (const v of variants) {
        if (!byKey.has(keyOf(v))) byKey.set(keyOf(v), a);
        forms.push(v);
      }
    }
  }
  const alternatives = [...new Set(forms)]
    .sort((a, b) => keyOf(b).length - keyOf(a).length)
    .map((f) => {
      // "EE. UU." → EE\.\s?UU\. ; every internal period may or may not be followed by a space.
      const body = escape(keyOf(f))
        .replace(/\\\.(?=.)/g, '\\.[^\\S\\n]?')
        .replace(/ /g, '[^\\S\\n]+');
      const last = f[f.length - 1]!;
      return /[\p{L}\p{N}]/u.test(last) ? `${body}(?![\\p{L}\\p{N}])` : body;
    });
  const re = new RegExp(String.raw`(?<![\p{L}\p{N}.@/])(?:${alternatives.join('|')})`, 'gu');
  return { re, byKey };
}

const COMPILED: Record<Lang, Compiled> = { 'es-MX': compile('es-MX'), 'es-ES': compile('es-ES') };
const NUMBER_AFTER = /[^\S\n]?(?:\d|[IVXLC]+\b)/y;

export const abbreviationsRule: Rule = {
  name: 'abbreviations',
  apply(text, lang) {
    const { re, byKey } = COMPILED[lang];
    return text.replace(re, (m: string, offset: number, s: string) => {
      const a = byKey.get(keyOf(m));
      if (!a) return m;
      const end = offset + m.length;
      if (a.number) {
        NUMBER_AFTER.lastIndex = end;
        if (!NUMBER_AFTER.test(s)) return m;
      }
      const dot = a.end && m.endsWith('.') && sentenceEndsAt(s, end) ? '.' : '';
      return a.say + dot;
    });
  },
};
