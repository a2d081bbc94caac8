// Leaves of hostile requests: special, huge and broken strings, Spanish-looking text, hostile numbers and JSON.
import fc from 'fast-check';

export const MiB = 1024 * 1024;

// ---- leaves ------------------------------------------------------------------------------------------------

export const SPECIAL_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n\r ',
  '\u0000',
  'a\u0000b',
  '\u202e\u2066abc',
  '\ufeff',
  '\u200b\u200d',
  '\u2028\u2029',
  'null',
  'undefined',
  'true',
  '0',
  '-1',
  '1e309',
  'NaN',
  '-0',
  '9007199254740993',
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  '{{7*7}}',
  '${7*7}',
  '{% raw %}',
  '<script>alert(1)</script>',
  "' OR '1'='1' --",
  '../../../../etc/passwd',
  '..\\..\\windows\\win.ini',
  '%00',
  '%ff%fe',
  '\\',
  '"',
  "'",
  '\r\n\r\nHTTP/1.1 200 OK',
  'ñandú ÁÉÍÓÚ ü ¿¡',
  '👩‍👩‍👧‍👦🇲🇽',
  `e${'\u0301'.repeat(60)}`,
  '١٢٣٤',
  '１２３',
  'İıßẞ',
  '\ud800',
  '\udfff',
  'ｅｓ－ＭＸ－Ｍｉａ',
  'es-mx-mia',
  ' es-MX-Mia ',
  'MP3',
  'mp3\u0000',
  'file:///etc/passwd',
  'key_',
  'Bearer',
  '1.234.567,89 €',
  '$-0.00',
  '31/02/2024',
  '25:61 h',
];

const loneSurrogates = fc.string({
  unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 4,
});

const controlChars = fc.string({
  unit: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)),
  minLength: 1,
  maxLength: 8,
});

/** 1,000 to `max` characters of a repeated unit: cheap to make, large to handle. */
export function hugeString(max = 70_000): fc.Arbitrary<string> {
  return fc
    .tuple(
      fc.constantFrom(
        'a',
        'ñ',
        '😀',
        ' ',
        '\u0000',
        'palabra ',
        '1.234,56 € ',
        'Sr. ',
        '\n\n',
        '<b>',
        '{{x}}',
      ),
      fc.integer({ min: 1000, max }),
    )
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n));
}

const SPANISH_WORDS = (
  'el la los las un una de del y o que en por para con sin sobre entre hasta desde hola casa perro ciudad ' +
  'México España niño año pingüino acción Sr. Dra. pág. etc. EE.UU. aprox. núm. 1.º 2.ª 1.er XIV siglo'
).split(' ');

const SPANISH_TOKENS = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...SPANISH_WORDS) },
  { weight: 2, arbitrary: fc.integer({ min: -1_000_000, max: 1_000_000_000 }).map(String) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '$1,234.50',
      '1.234,56 €',
      '15 %',
      '03/04/2024',
      '10:30 h',
      '+52 55 1234 5678',
      'https://ejemplo.mx/a?b=1',
      'correo@ejemplo.es',
      'GODE561231GR8',
      '3,5 km',
      '½',
      '1er',
      '—',
      '¿Qué?',
      '¡Ay!',
      '…',
      '«cita»',
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
);

/** Spanish-looking text with numbers, dates, money and abbreviations: reaches the reading rules. */
export function spanishText(maxWords = 40): fc.Arbitrary<string> {
  return fc
    .array(fc.tuple(SPANISH_TOKENS, fc.constantFrom(' ', ' ', ' ', ', ', '. ', '\n', '\n\n', '? ')), {
      minLength: 1,
      maxLength: maxWords,
    })
    .map((parts) => parts.map(([w, s]) => w + s).join(''));
}

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...SPECIAL_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
  { weight: 1, arbitrary: loneSurrogates },
  { weight: 1, arbitrary: controlChars },
  { weight: 1, arbitrary: hugeString(20_000) },
  { weight: 2, arbitrary: spanishText(20) },
);

export const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.1, 1e308, -1e308, 5e-324, 2 ** 53 + 2, -(2 ** 31), 2 ** 32, 1.5),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

const KEY_NAMES = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'valueOf',
  '',
  ' ',
  'a'.repeat(300),
  'ñ',
  '\u0000',
  '$where',
  'polluted',
];

/** Random JSON with hostile leaves and keys, `keys` mixed in so fields of the route appear. */
export function hostileJson(keys: string[] = [], maxDepth = 4): fc.Arbitrary<unknown> {
  const key = fc.oneof(
    { weight: 3, arbitrary: keys.length ? fc.constantFrom(...keys) : fc.constantFrom(...KEY_NAMES) },
    { weight: 1, arbitrary: fc.constantFrom(...KEY_NAMES) },
    { weight: 1, arbitrary: fc.string({ maxLength: 10 }) },
  );
  const { tree } = fc.letrec<{ tree: unknown; leaf: unknown }>((tie) => ({
    leaf: fc.oneof(
      hostileString,
      hostileNumber,
      fc.boolean(),
      fc.constant(null),
      fc.constant([]),
      fc.constant({}),
    ),
    tree: fc.oneof(
      { depthSize: 'small', maxDepth },
      tie('leaf'),
      fc.array(tie('tree'), { maxLength: 4 }),
      fc.dictionary(key, tie('tree'), { maxKeys: 5, noNullPrototype: true }),
    ),
  }));
  return tree;
}
