// Small grammar helpers shared by the rule families: what word follows a number (so "1" becomes "un", "una" or
// "uno" and "200" becomes "doscientas" before "páginas"), a noun's likely gender, and whether a period that a
// rule consumed also ended the sentence. Heuristics with exception tables, not a dictionary: a wrong guess
// costs one vowel ("un"/"una"), never a misread number.
import type { CardinalOptions, Gender } from './number-words';

/** Words after a number that are not the thing counted: "1 de cada 3", "el 1 y el 2", "21 es impar". */
const FUNCTION_WORDS = new Set(
  (
    'de del a al y e o u ni en con por para que es son fue fueron era eran será serán sea sean ser está están ' +
    'estaba estaban ha han había habían hay más menos entre sobre sin se no si sí como cuando donde pero sino ' +
    'hasta desde hacia tras ante bajo contra según durante lo la el los las le les me te nos ya también aunque ' +
    'porque pues mientras vs x'
  ).split(' '),
);

/** Masculine nouns ending in -a (mostly Greek -ma). */
const MASCULINE_IN_A = new Set(
  (
    'día mapa problema programa sistema tema idioma clima planeta poeta dilema esquema drama teorema síntoma ' +
    'fantasma cometa pijama sofá papá diploma emblema enigma estigma lema poema dogma aroma carisma ' +
    'paradigma prisma trauma crucigrama telegrama diagrama holograma organigrama cronograma panorama ' +
    'pentagrama dólar dálmata acróbata autómata pirata primata atleta profeta idiota patriota ' +
    'compatriota colega guía policía camarada papa tranvía'
  ).split(' '),
);
/** Common-gender nouns in -ista, -crata... are counted in the masculine (generic): "21 turistas" → veintiún. */
const MASCULINE_SUFFIX = /(ista|crata|ópata|nauta|cida)s?$/;
const FEMININE_IN_ISTA = new Set('lista pista vista revista conquista entrevista arista'.split(' '));

/** Feminine nouns that do not end in -a, -ión, -dad, -tad, -tud, -umbre. */
const FEMININE_OTHER = new Set(
  (
    'vez mujer noche tarde clase calle parte gente muerte llave nave fuente mente red ley luz voz cruz paz flor ' +
    'piel sal miel cárcel imagen frase base fase nube torre leche carne sangre suerte madre hambre especie ' +
    'serie superficie catedral señal mano foto moto radio nariz raíz actriz emperatriz lombriz perdiz ' +
    'codorniz cicatriz matriz tesis crisis dosis síntesis hipótesis diócesis sede fe sed pared merced ' +
    'col postal capital corriente clave costumbre labor nieve fiebre frente'
  ).split(' '),
);

/** Masculine nouns that the suffix rule would call feminine. */
const MASCULINE_OTHER = new Set('avión camión gorrión sarampión aluvión millón billón'.split(' '));

function singular(word: string): string[] {
  // Candidates for the singular: "páginas" → página, "ciudades" → ciudad, "veces" → vez, "mujeres" → mujer.
  const out = [word];
  if (word.endsWith('ces')) out.push(word.slice(0, -3) + 'z');
  if (word.endsWith('es')) out.push(word.slice(0, -2));
  if (word.endsWith('s')) out.push(word.slice(0, -1));
  return out;
}

/** A Spanish noun's likely gender (lowercase input). */
export function nounGender(word: string): Gender {
  const w = word.toLowerCase();
  const forms = singular(w);
  if (forms.some((s) => MASCULINE_IN_A.has(s) || MASCULINE_OTHER.has(s))) return 'm';
  if (forms.some((s) => FEMININE_OTHER.has(s) || FEMININE_IN_ISTA.has(s))) return 'f';
  if (MASCULINE_SUFFIX.test(w)) return 'm';
  // -iones: "canciones" → canción (the accent comes back in the singular).
  if (/(ión|iones|dad|dades|tad|tades|tud|tudes|umbre|umbres)$/.test(w)) return 'f';
  if (/(a|as)$/.test(w)) return 'f';
  return 'm';
}

// The word right after `end`, separated by spaces only (a comma, period or line break ends the phrase).
const NEXT_WORD = /[ \u00A0]+([\p{L}]+)/uy;

/** The word right after a number, if it follows on the same phrase. */
export function nextWord(text: string, end: number): string | undefined {
  NEXT_WORD.lastIndex = end;
  return NEXT_WORD.exec(text)?.[1];
}

export interface Counting extends CardinalOptions {
  /** A noun follows the number (so "un"/"una" rather than "uno", and "de" after exact millions). */
  noun: boolean;
}

/** How to read a number at text[..end] given what follows: "1 página" → una, "1 peso" → un, "1 de" → uno. */
export function countingFor(text: string, end: number): Counting {
  const word = nextWord(text, end);
  if (!word) return { noun: false };
  const lower = word.toLowerCase();
  if (lower === 'mil') {
    // "200 mil personas": the noun after "mil" decides the gender; "mil" itself takes "un" ("veintiún mil").
    // "200 mil personas": the noun after "mil" decides the hundreds' gender; the 1 before "mil" is always
    // "un" ("veintiún mil personas").
    const after = nextWord(text, NEXT_WORD.lastIndex);
    const gender = after && !FUNCTION_WORDS.has(after.toLowerCase()) ? nounGender(after) : 'm';
    return { noun: true, gender, apocope: true };
  }
  if (FUNCTION_WORDS.has(lower)) return { noun: false };
  // A single capital letter ("3 B", "1 A") or an all-caps token is a label, not a noun.
  if (word.length === 1 || (word === word.toUpperCase() && word.length > 1)) return { noun: false };
  const gender = nounGender(lower);
  return { noun: true, gender, apocope: gender === 'm' };
}

// After a consumed period: end of text, a line break, or a new sentence starting with a capital.
const SENTENCE_END = /[ \t]*(?:\r?\n|$)|\s+[¿¡"«“'(]*[A-ZÁÉÍÓÚÑÜ]/y;

/** Whether the period a rule consumed at text[end - 1] also closed the sentence (so it must be put back). */
export function sentenceEndsAt(text: string, end: number): boolean {
  SENTENCE_END.lastIndex = end;
  return SENTENCE_END.test(text);
}
