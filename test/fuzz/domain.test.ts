// Properties of the pure domain functions, with fast-check (seeded: FUZZ_SEED, FUZZ_DOMAIN_RUNS):
// - chunking (narration): chunks fit, are trimmed, lose no character, come in order, cut inside a word only when the
//   word alone is longer than the limit, and never between a surrogate pair or before a combining mark;
// - reading rules (narration): never throw on any text, keep line breaks, read any integer as words that parse back
//   to it, are stable when applied twice;
// - quota windows (shared): the window holds the instant, resets in the future, keys are stable within a window and
//   differ between windows; RateLimit-Reset stays within the window;
// - money (documents): formatting parses back to the amount rounded half up to the currency's decimals; sums exact;
// - importe con letra (documents): the words parse back to the amount, the cents and the currency are right.
import fc from 'fast-check';
import { splitText } from '../../lambdas/narration/core/chunking';
import { normalizeForSpeech } from '../../lambdas/narration/core/normalize';
import { importeConLetra, numeroALetras } from '../../templates/kit/con-letra';
import { Dec, currencyDigits, dec, formatMoney, moneyText, sum } from '../../templates/kit/money';
import {
  rateLimitHeaders,
  slotsFor,
  windowBounds,
  type Period,
  type QuotaDecision,
} from '../../lambdas/shared/quota/windows';
import { spanishText } from './arbitraries';
import { DOMAIN_RUNS, FUZZ_SEED, replayHint } from './settings';
import { parseSpanishNumber } from './spanish-numbers';

const params = { seed: FUZZ_SEED, numRuns: DOMAIN_RUNS };

beforeAll(() => console.log(`domain properties: ${replayHint()} FUZZ_DOMAIN_RUNS=${DOMAIN_RUNS}`));

// ---- chunking -----------------------------------------------------------------------------------------------

const WS = /\s/u;

/** Text made of words (some long, some with emoji, accents or combining marks) and every kind of whitespace. */
const chunkText = fc
  .array(
    fc.tuple(
      fc.oneof(
        {
          weight: 6,
          arbitrary: fc.constantFrom(
            'la',
            'casa',
            'niño',
            'Sr.',
            'etc.',
            '¿Qué?',
            '¡Ay!',
            '«cita»',
            '1.234,56',
          ),
        },
        {
          weight: 2,
          arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((s) => !WS.test(s)),
        },
        { weight: 1, arbitrary: fc.constantFrom('😀😃😄', '👩‍👩‍👧‍👦', 'e\u0301\u0302\u0303', 'ﬁn', '\u200b') },
        {
          weight: 1,
          arbitrary: fc
            .tuple(fc.constantFrom('a', 'ñ', '😀', 'e\u0301'), fc.integer({ min: 10, max: 400 }))
            .map(([u, n]) => u.repeat(n)),
        },
      ),
      fc.constantFrom(
        ' ',
        ' ',
        ' ',
        '  ',
        '\n',
        '\n\n',
        '\r\n',
        '\r',
        '\t',
        '\u00a0',
        '\u2029',
        '\u3000',
        '. ',
        ', ',
      ),
    ),
    { minLength: 0, maxLength: 80 },
  )
  .map((parts) => parts.map(([w, s]) => w + s).join(''));

function chunkingProblem(text: string, chunks: string[], max: number): string | undefined {
  const noSpace = (s: string) => s.replace(/\s+/gu, '');
  if (noSpace(chunks.join('')) !== noSpace(text)) return 'characters lost or changed';
  let cursor = 0;
  for (const [i, c] of chunks.entries()) {
    if (c.length === 0 || c.length > max) return `chunk ${i} has ${c.length} characters (limit ${max})`;
    if (c !== c.trim()) return `chunk ${i} has whitespace at an edge`;
    const at = text.indexOf(c, cursor);
    if (at < 0 || text.slice(cursor, at).trim() !== '') return `chunk ${i} is not the next piece of the text`;
    const end = at + c.length;
    if (i < chunks.length - 1 && !WS.test(text[end] ?? ' ')) {
      const before = /\S*$/u.exec(text.slice(0, end))![0];
      const after = /^\S*/u.exec(text.slice(end))![0];
      if (before.length + after.length <= max) return `chunk ${i} cuts the word "${before}|${after}"`;
      const code = text.charCodeAt(end);
      if (code >= 0xdc00 && code <= 0xdfff) return `chunk ${i} splits a surrogate pair`;
      if (/\p{M}/u.test(text[end]!) && c.length > 1) return `chunk ${i + 1} starts with a combining mark`;
    }
    cursor = end;
  }
  if (text.slice(cursor).trim() !== '') return 'text after the last chunk';
  return undefined;
}

describe('chunking (narration)', () => {
  test('chunks fit, lose nothing, and cut inside a word only when the word alone is too long', () => {
    fc.assert(
      fc.property(chunkText, fc.integer({ min: 2, max: 300 }), (text, max) => {
        const why = chunkingProblem(text, splitText(text, max), max);
        if (why) throw new Error(`max ${max}: ${why}`);
      }),
      params,
    );
  });

  test('a text within the limit is one chunk (trimmed)', () => {
    fc.assert(
      fc.property(chunkText, (text) => {
        const trimmed = text.trim();
        const chunks = splitText(text, Math.max(1, text.length));
        expect(chunks).toEqual(trimmed ? [trimmed] : []);
      }),
      params,
    );
  });
});

// ---- reading rules -----------------------------------------------------------------------------------------------

const LANGS = ['es-MX', 'es-ES'] as const;

describe('reading rules (narration normalisation)', () => {
  test('never throw, even in strict mode, on any text', () => {
    // Fragments the rules look for (addresses, money, times, ordinals…) glued to any characters, including
    // numerals of other scripts: "www.𑇐" made the web rule throw (fixed in normalize/web.ts).
    const fragment = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 8 }),
      fc.constantFrom(
        ...['1', '23', '1.000', '2,5', '%', '$', '€', '/', ':', '-', '.', ',', ' ', '\n', 'h', 'km', 'a. m.'],
        ...[
          'Sr.',
          'XIV',
          'º',
          'ª',
          '+52',
          '@',
          'http://',
          'www.',
          '1er',
          '3/4',
          '10:30',
          '2024',
          '(55)',
          '²',
          '½',
        ],
        ...['١٢', '𑇐', '৩', 'Ⅻ', '.mx', '.com/', 'RFC', '#'],
      ),
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary', maxLength: 200 }),
          spanishText(60),
          fc.array(fragment, { maxLength: 30 }).map((a) => a.join('')),
        ),
        fc.constantFrom(...LANGS),
        (text, lang) => {
          expect(typeof normalizeForSpeech(text, lang, { strict: true })).toBe('string');
        },
      ),
      params,
    );
  });

  test('keep every line break', () => {
    const lines = (s: string) => (s.match(/\r\n|\n|\r|\u2028|\u2029/g) ?? []).length;
    fc.assert(
      fc.property(spanishText(60), fc.constantFrom(...LANGS), (text, lang) => {
        expect(lines(normalizeForSpeech(text, lang, { strict: true }))).toBe(lines(text));
      }),
      params,
    );
  });

  test('read any integer 0..10^9 as words that parse back to it', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 2_000 })),
        fc.constantFrom(...LANGS),
        (n, lang) => {
          const words = normalizeForSpeech(String(n), lang, { strict: true });
          expect(words).not.toMatch(/\d/);
          expect(parseSpanishNumber(words)).toBe(BigInt(n));
        },
      ),
      params,
    );
  });

  test('are stable: reading the read text again changes nothing', () => {
    fc.assert(
      fc.property(spanishText(40), fc.constantFrom(...LANGS), (text, lang) => {
        const once = normalizeForSpeech(text, lang, { strict: true });
        expect(normalizeForSpeech(once, lang, { strict: true })).toBe(once);
      }),
      params,
    );
  });
});

// ---- quota windows -----------------------------------------------------------------------------------------------

const PERIODS: Period[] = ['hour', 'day', 'month'];
const instant = fc.date({
  min: new Date('1970-01-01T00:00:00Z'),
  max: new Date('2200-12-31T23:59:59Z'),
  noInvalidDate: true,
});

describe('quota windows (shared)', () => {
  test('the window holds the instant, starts on its UTC boundary, and resets in the future', () => {
    fc.assert(
      fc.property(instant, fc.constantFrom(...PERIODS), (now, period) => {
        const { start, end } = windowBounds(period, now);
        expect(start.getTime()).toBeLessThanOrEqual(now.getTime());
        expect(end.getTime()).toBeGreaterThan(now.getTime());
        expect(start.getUTCMinutes() + start.getUTCSeconds() + start.getUTCMilliseconds()).toBe(0);
        if (period !== 'hour') expect(start.getUTCHours()).toBe(0);
        if (period === 'month') expect(start.getUTCDate()).toBe(1);
        const [slot] = slotsFor('ip#x', [{ period, limit: 5 }], now);
        expect(slot!.resetAt * 1000).toBe(end.getTime());
        expect(slot!.resetAt).toBeGreaterThan(Math.floor(now.getTime() / 1000) - 1);
      }),
      params,
    );
  });

  test('keys are the same anywhere in a window and differ between windows and subjects', () => {
    fc.assert(
      fc.property(instant, instant, fc.constantFrom(...PERIODS), (a, b, period) => {
        const rules = [{ period, limit: 5 }];
        const key = (d: Date, subject = 'ip#x') => slotsFor(subject, rules, d)[0]!.key;
        const { start, end } = windowBounds(period, a);
        expect(key(start)).toBe(key(a));
        expect(key(new Date(end.getTime() - 1))).toBe(key(a));
        expect(key(end)).not.toBe(key(a));
        const same = windowBounds(period, b).start.getTime() === start.getTime();
        expect(key(b) === key(a)).toBe(same);
        expect(key(a, 'ip#y')).not.toBe(key(a));
      }),
      params,
    );
  });

  test('RateLimit-Reset and Retry-After point inside the window, never at or before now', () => {
    fc.assert(
      fc.property(
        instant,
        fc.constantFrom(...PERIODS),
        fc.boolean(),
        fc.nat(20),
        (now, period, allowed, used) => {
          const slots = slotsFor('ip#x', [{ period, limit: 20 }], now);
          const binding = { ...slots[0]!, remaining: 20 - used };
          const decision: QuotaDecision = { allowed, charged: [], binding, all: [binding], slots };
          const h = rateLimitHeaders(decision, now);
          const reset = Number(h['ratelimit-reset']);
          const { end } = windowBounds(period, now);
          expect(reset).toBeGreaterThanOrEqual(1);
          expect(reset).toBeLessThanOrEqual(Math.ceil((end.getTime() - now.getTime()) / 1000));
          expect(h['retry-after']).toBe(allowed ? undefined : String(reset));
        },
      ),
      params,
    );
  });
});

// ---- money ---------------------------------------------------------------------------------------------------------

const CURRENCIES = ['MXN', 'USD', 'EUR', 'JPY', 'GBP', 'CLP', 'KWD', 'COP'];

/** Decimal amounts as text: up to 15 integer digits, up to 6 decimals, either sign. */
const amount = fc
  .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 15n }), fc.integer({ min: 0, max: 6 }), fc.nat())
  .map(([neg, int, scale, frac]) => {
    const f = scale ? `.${String(frac % 10 ** scale).padStart(scale, '0')}` : '';
    return `${neg ? '-' : ''}${int}${f}`;
  });

function halfUp(text: string, digits: number): string {
  return new Dec(text).toDecimalPlaces(digits, Dec.ROUND_HALF_UP).toFixed(digits);
}

describe('money (documents)', () => {
  test('formatMoney parses back to the amount rounded half up to the currency decimals', () => {
    fc.assert(
      fc.property(amount, fc.constantFrom(...CURRENCIES), (value, currency) => {
        const text = formatMoney(value, currency);
        const digits = currencyDigits(currency);
        const back = text.replace(/[^\d.-]/g, '');
        const expected = halfUp(value, digits);
        // Intl writes a rounded negative zero as "0.00" (no sign): compare values.
        expect(new Dec(back).eq(new Dec(expected))).toBe(true);
        expect(moneyText(dec(value), currency)).toBe(
          new Dec(expected).isZero() ? (0).toFixed(digits) : expected,
        );
      }),
      params,
    );
  });

  test('sums are exact: n copies of an amount add up to n times it', () => {
    fc.assert(
      fc.property(amount, fc.integer({ min: 1, max: 200 }), (value, n) => {
        expect(sum(Array.from({ length: n }, () => dec(value))).eq(new Dec(value).times(n))).toBe(true);
      }),
      params,
    );
  });
});

// ---- importe con letra -----------------------------------------------------------------------------------------

const SUFFIX: Record<string, RegExp> = {
  MXN: /^(.*?) (DE PESOS|PESOS|PESO) (\d{2})\/100 M\.N\.$/,
  USD: /^(.*?) (DE DÓLARES|DÓLARES|DÓLAR) (\d{2})\/100 USD$/,
  EUR: /^(.*?) (DE EUROS|EUROS|EURO) (\d{2})\/100 EUR$/,
};

describe('importe con letra (documents)', () => {
  test('numeroALetras(n) parses back to n for 0..10^9', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 3_000 })),
        (n) => {
          expect(parseSpanishNumber(numeroALetras(n))).toBe(BigInt(n));
        },
      ),
      params,
    );
  });

  test('importeConLetra writes the rounded amount: words for the units, NN/100 for the cents, the currency', () => {
    fc.assert(
      fc.property(
        fc.tuple(fc.integer({ min: 0, max: 1_000_000_000 }), fc.integer({ min: 0, max: 999 })),
        fc.constantFrom('MXN', 'USD', 'EUR'),
        ([units, thousandths], currency) => {
          const value = `${units}.${String(thousandths).padStart(3, '0')}`;
          const rounded = new Dec(value).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
          const text = importeConLetra(value, currency);
          const m = SUFFIX[currency]!.exec(text);
          if (!m) throw new Error(`unexpected shape: ${text}`);
          const [, words, noun, cents] = m;
          expect(parseSpanishNumber(words!)).toBe(BigInt(rounded.floor().toFixed(0)));
          expect(cents).toBe(rounded.minus(rounded.floor()).times(100).toFixed(0).padStart(2, '0'));
          const whole = rounded.floor();
          // "UN PESO", "DOS PESOS", "UN MILLÓN DE PESOS" (an exact number of millions takes DE).
          const millions = whole.gte(1_000_000) && whole.mod(1_000_000).isZero();
          expect(noun!.startsWith('DE ')).toBe(millions);
          expect(/^(PESO|DÓLAR|EURO)$/.test(noun!)).toBe(whole.eq(1));
        },
      ),
      params,
    );
  });
});
