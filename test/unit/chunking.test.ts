import { sentenceSpans, splitText } from '../../lambdas/narration/core/chunking';
import { ABBREVIATIONS as READ_AS } from '../../lambdas/narration/core/normalize/abbreviations';

const noSpace = (s: string) => s.replace(/\s+/gu, '');

/** What is wrong with a split (undefined when nothing): plain code, so the property loop stays fast. */
function problem(text: string, chunks: string[], max: number): string | undefined {
  if (noSpace(chunks.join('')) !== noSpace(text)) return 'characters lost or changed';
  let cursor = 0;
  for (const [i, c] of chunks.entries()) {
    if (c.length === 0) return `chunk ${i} is empty`;
    if (c.length > max) return `chunk ${i} has ${c.length} > ${max} characters`;
    if (c !== c.trim()) return `chunk ${i} has whitespace at an edge`;
    const at = text.indexOf(c, cursor);
    if (at < 0 || text.slice(cursor, at).trim() !== '') return `chunk ${i} is not the next piece of the text`;
    const end = at + c.length;
    if (i < chunks.length - 1 && !/\s/u.test(text[end] ?? ' ')) {
      // Cut inside a word: allowed only when that word alone is longer than the limit.
      const before = /\S*$/u.exec(text.slice(0, end))![0];
      const after = /^\S*/u.exec(text.slice(end))![0];
      if (before.length + after.length <= max) return `chunk ${i} cuts the word "${before}|${after}"`;
    }
    cursor = end;
  }
  if (text.slice(cursor).trim() !== '') return 'text after the last chunk';
  return undefined;
}

function checked(text: string, max: number): string[] {
  const chunks = splitText(text, max);
  expect(problem(text, chunks, max)).toBeUndefined();
  return chunks;
}

describe('splitText', () => {
  it('returns the trimmed text when it fits', () => {
    expect(checked('  Hola, mundo.  \n', 100)).toEqual(['Hola, mundo.']);
  });

  it('returns nothing for empty or whitespace-only text', () => {
    expect(splitText('', 10)).toEqual([]);
    expect(splitText(' \n\t \r\n ', 10)).toEqual([]);
  });

  it('rejects a limit that is not a positive integer', () => {
    expect(() => splitText('hola', 0)).toThrow(RangeError);
    expect(() => splitText('hola', 2.5)).toThrow(RangeError);
  });

  it('splits at paragraphs first, packing whole paragraphs together', () => {
    const p1 = 'Primer párrafo, con una frase. Y otra más.';
    const p2 = 'Segundo párrafo.';
    const p3 = 'Tercer párrafo, algo más largo.';
    const text = `${p1}\n\n${p2}\n\n${p3}`;
    expect(checked(text, Math.max(p1.length + p2.length + 2, p3.length))).toEqual([`${p1}\n\n${p2}`, p3]);
    expect(checked(text, p1.length + 5)).toEqual([p1, p2, p3]);
  });

  it('treats CRLF blank lines and blank lines with spaces as paragraphs', () => {
    const text = 'Uno dos, tres. Cuatro.\r\n \r\nCinco seis.';
    expect(checked(text, 20)).toEqual(['Uno dos, tres.', 'Cuatro.', 'Cinco seis.']);
    expect(checked('Uno, dos tres.\r\n\r\nCuatro cinco.', 25)).toEqual(['Uno, dos tres.', 'Cuatro cinco.']);
  });

  it('prefers a paragraph break over a later sentence end', () => {
    const text = 'Título\n\nLa historia empieza aquí. Y sigue mucho tiempo después.';
    expect(checked(text, 40)[0]).toBe('Título');
  });

  it('splits at sentence ends when a paragraph is too long', () => {
    const text = 'La casa es grande. El jardín es verde! ¿Vienes mañana? Claro que sí… Nos vemos.';
    expect(checked(text, 38)).toEqual([
      'La casa es grande. El jardín es verde!',
      '¿Vienes mañana? Claro que sí…',
      'Nos vemos.',
    ]);
  });

  it('keeps closing quotes and brackets with their sentence', () => {
    const text = 'Dijo: «Me voy ya.» Luego salió (sin mirar atrás.) Fin de la historia.';
    expect(checked(text, 30)).toEqual([
      'Dijo: «Me voy ya.»',
      'Luego salió (sin mirar atrás.)',
      'Fin de la historia.',
    ]);
  });

  it('does not end a sentence after an abbreviation or before a lowercase word', () => {
    const text = 'Visitó al Sr. García en su casa. Después comió.';
    expect(checked(text, 34)).toEqual(['Visitó al Sr. García en su casa.', 'Después comió.']);
    const q = '¿Vienes? preguntó ella, muy seria. Sí.';
    // The '?' followed by a lowercase word is only a clause break; the sentence ends after "seria.".
    expect(checked(q, 36)).toEqual(['¿Vienes? preguntó ella, muy seria.', 'Sí.']);
  });

  it('does not treat numbers with separators as sentence ends', () => {
    const text = 'Pagó 1.234,56 euros el día 3. Luego 2.500 más.';
    expect(checked(text, 30)).toEqual(['Pagó 1.234,56 euros el día 3.', 'Luego 2.500 más.']);
  });

  it('starts a new chunk before ¿ or ¡ when the sentence before has ended', () => {
    const text = 'Hola a todos. ¿Qué tal están? ¡Muy bien!';
    expect(checked(text, 30)).toEqual(['Hola a todos. ¿Qué tal están?', '¡Muy bien!']);
  });

  it('falls back to clause punctuation inside a long sentence', () => {
    const text = 'Compramos pan, leche y huevos; luego fuimos al parque: hacía sol';
    expect(checked(text, 36)).toEqual([
      'Compramos pan, leche y huevos;',
      'luego fuimos al parque: hacía sol',
    ]);
  });

  it('may pause before an opening ¿ inside a sentence', () => {
    const text = 'Entonces él me preguntó ¿vienes con nosotros o te quedas';
    expect(checked(text, 32)).toEqual(['Entonces él me preguntó', '¿vienes con nosotros o te quedas']);
  });

  it('falls back to whitespace, never cutting a word', () => {
    const text = 'uno dos tres cuatro cinco seis siete ocho nueve diez';
    const chunks = checked(text, 12);
    expect(chunks).toEqual(['uno dos tres', 'cuatro cinco', 'seis siete', 'ocho nueve', 'diez']);
  });

  it('hard-splits only a word longer than the limit', () => {
    const word = 'supercalifragilisticoespialidoso';
    const chunks = checked(`Es ${word} y ya`, 10);
    expect(chunks).toEqual(['Es', 'supercalif', 'ragilistic', 'oespialido', 'so y ya']);
  });

  it('never splits a surrogate pair or a combining accent', () => {
    const emoji = '😀'.repeat(5); // 10 code units
    for (const piece of checked(emoji, 3)) expect(piece).toBe(piece.normalize()); // well-formed pieces
    expect(checked(emoji, 3)).toEqual(['😀', '😀', '😀', '😀', '😀']);
    const nfd = 'cafe\u0301cafe\u0301';
    expect(checked(nfd, 5)).toEqual(['cafe\u0301', 'cafe\u0301']);
  });

  it('uses a single line break as a sentence boundary (headings, lists)', () => {
    const text = 'Ingredientes\n- dos huevos, frescos\n- harina';
    expect(checked(text, 34)).toEqual(['Ingredientes\n- dos huevos, frescos', '- harina']);
  });

  it('packs as much as fits at the best available level', () => {
    const s = 'Frase corta. ';
    const text = s.repeat(10).trim();
    const chunks = checked(text, 40);
    expect(chunks).toEqual([
      'Frase corta. Frase corta. Frase corta.',
      'Frase corta. Frase corta. Frase corta.',
      'Frase corta. Frase corta. Frase corta.',
      'Frase corta.',
    ]);
  });

  it('handles a limit of one character', () => {
    expect(checked('a b\n\ncd', 1)).toEqual(['a', 'b', 'c', 'd']);
  });

  describe('property: any text, any limit', () => {
    // Deterministic PRNG (mulberry32) so a failure is reproducible from the seed.
    function rng(seed: number): () => number {
      let a = seed >>> 0;
      return () => {
        a = (a + 0x6d2b79f5) >>> 0;
        let t = a;
        t = Math.imul(t ^ (t >>> 15), t | 1);
        t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
        return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
      };
    }
    const WORDS = [
      'el',
      'niño',
      'comió',
      'pan',
      'Sr.',
      'año',
      'corazón',
      '1.234,56',
      'EE.UU.',
      'ÑANDÚ',
      'canción',
      'a',
      'y',
      '😀',
      'e\u0301',
      'pingüino',
      '¿qué',
      'así?',
      '¡ay!',
      '«hola»',
      '(nota)',
    ];
    const PUNCT = ['', '', '', '', '.', ',', ';', ':', '!', '?', '…', '...', '.»', '?)', ' —'];
    const SPACE = [' ', ' ', ' ', ' ', '  ', '\n', '\n\n', ' \n \n ', '\t', '\r\n\r\n', '\u00a0', '\u2029'];

    function randomText(r: () => number): string {
      const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
      const n = Math.floor(r() * 300);
      let s = r() < 0.3 ? pick(SPACE) : '';
      for (let i = 0; i < n; i++) {
        let w = pick(WORDS);
        if (r() < 0.03) w = 'x'.repeat(1 + Math.floor(r() * 120)); // a monster word
        s += w + pick(PUNCT) + pick(SPACE);
      }
      return r() < 0.5 ? s.trimEnd() : s;
    }

    it('keeps every character, every chunk within the limit, no word cut unless too long', () => {
      for (let seed = 1; seed <= 400; seed++) {
        const r = rng(seed);
        const text = randomText(r);
        const max = 1 + Math.floor(r() * r() * 200);
        const why = problem(text, splitText(text, max), max);
        if (why) throw new Error(`seed ${seed}, max ${max}: ${why}`);
      }
    });
  });

  it('splits 100,000 characters into Polly-sized pieces ending at sentences', () => {
    const para =
      'La narración de textos largos requiere dividirlos en partes, y cada parte debe terminar en una pausa natural. ';
    const text = Array.from({ length: 120 }, (_, i) => `Capítulo ${i + 1}.\n\n${para.repeat(7)}`)
      .join('\n\n')
      .slice(0, 100_000);
    const chunks = checked(text, 3000);
    expect(chunks.length).toBeGreaterThanOrEqual(34);
    // Every chunk ends at a sentence end (the text has one at least every ~110 characters).
    for (const c of chunks.slice(0, -1)) expect(c).toMatch(/[.]$|^Capítulo \d+\.$/u);
  });
});

describe('sentenceSpans: an abbreviation the voice reads as a word never ends a sentence', () => {
  // Every abbreviation the reading rules expand that never closes a sentence (core/normalize/abbreviations.ts).
  const forms = READ_AS.filter((a) => !a.end && !a.number)
    .flatMap((a) => a.forms)
    .filter((f) => f.endsWith('.'));

  test('the reading rules list some, "Col." among them', () => {
    expect(forms).toEqual(expect.arrayContaining(['Col.', 'Blvd.', 'Esq.', 'Dr.']));
  });

  test.each(forms)('%s Roma: one sentence, as it is read', (form) => {
    const text = `Vive en la ${form} Roma Norte desde hace años. Después se mudó.`;
    expect(sentenceSpans(text).map((s) => text.slice(s.start, s.end))).toEqual([
      `Vive en la ${form} Roma Norte desde hace años.`,
      'Después se mudó.',
    ]);
  });

  test('negative controls: a sentence end, and "no" before a capital, still split', () => {
    const text = 'Llegó a la colonia. Roma era otra cosa. Dijo que no. Luego se fue.';
    expect(sentenceSpans(text)).toHaveLength(4);
  });
});
