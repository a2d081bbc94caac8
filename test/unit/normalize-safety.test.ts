// Reading rules (lambdas/narration/core/normalize): safety properties (prose unchanged, paragraphs kept, 100,000
// characters, seeded random strings) and one integration check that narrate() hands the engine the normalised
// text. The table-driven cases per rule family and voice locale are in normalize.test.ts.
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { normalizeForSpeech, RULES } from '../../lambdas/narration/core/normalize';
import type { Pcm, Synthesizer } from '../../lambdas/narration/ports';
import { findVoice, type Lang } from '../../lambdas/narration/core/voices';

const norm = (text: string, lang: Lang) => normalizeForSpeech(text, lang, { strict: true });

describe('safety', () => {
  const fixture = readFileSync(join(__dirname, '../fixtures/texto-2000.txt'), 'utf8');

  it.each(['es-MX', 'es-ES'] as const)(
    'leaves prose without numbers or abbreviations unchanged (%s)',
    (lang) => {
      const prose = [
        fixture,
        'Lo vi ayer. Le di mi libro a Mi hermana. ¿Vienes? ¡Claro que sí! No. No quiero.',
        'Compré una col. Después fui al mar y a la playa; el día era largo.',
        'Yo también. La X marca el lugar. «Había una vez» — dijo.',
        'Mi Casa Es Tu Casa. VIVA MÉXICO. YO VI EL MAR. Vi a Isabel y a Carlos en la plaza.',
      ].join('\n\n');
      expect(norm(prose, lang)).toBe(prose);
    },
  );

  it('keeps line breaks and paragraphs where they were', () => {
    const text = 'Pagó $20\n\nel 3 de\nabril\n\n10:30\nh\n\nsiglo\nXXI\n\nSr.\nPérez';
    const out = norm(text, 'es-MX');
    expect(out.split('\n').length).toBe(text.split('\n').length);
    expect(out).toContain('veinte pesos');
  });

  it('puts back a sentence period it consumed, and only then', () => {
    expect(norm('Llegó el Sr. García a las 10 hrs. Luego se fue.', 'es-MX')).toBe(
      'Llegó el señor García a las diez horas. Luego se fue.',
    );
    expect(norm('Vive en EE. UU.\nTrabaja mucho.', 'es-ES')).toBe('Vive en Estados Unidos.\nTrabaja mucho.');
    expect(norm('Vive en EE. UU. desde 2020.', 'es-ES')).toBe('Vive en Estados Unidos desde dos mil veinte.');
  });

  const big = (() => {
    const sample =
      'El 03/04/2024 a las 10:30 h el Sr. Pérez pagó $1,234.56 MXN (15 % menos) al tel. 55 1234 5678; ' +
      'visita www.ejemplo.com.mx/precios, escribe a ana.lopez@correo.mx. Felipe II vivió en el siglo XVI. ' +
      'RFC GODE561231GR8. Del 1.er al 3.er piso hay 1,234 escalones y 21 páginas.\n\n';
    let t = '';
    while (t.length < 100_000) t += sample + fixture.slice(0, 600) + '\n\n';
    return t.slice(0, 100_000);
  })();

  it.each(['es-MX', 'es-ES'] as const)('normalises 100,000 characters without failing (%s)', (lang) => {
    const out = norm(big, lang);
    expect(out.length).toBeGreaterThan(big.length);
    expect(out).not.toMatch(/\$\d|\d{2}:\d{2}|\bSr\.|@/);
    expect(out.split('\n\n').length).toBe(big.split('\n\n').length);
  });

  it.each([
    ['digits', '7'.repeat(100_000)],
    ['separated digits', '1.'.repeat(50_000)],
    ['spaced pairs', '12 '.repeat(33_000)],
    ['dotted letters', 'a.'.repeat(50_000) + '@x'],
    ['roman letters', 'I '.repeat(50_000)],
  ])('survives a pathological 100,000-character input (%s)', (_name, text) => {
    const out = norm(text, 'es-MX');
    expect(out.length).toBeGreaterThan(0);
  });

  it('never throws on random strings and never loses the letters (seeded)', () => {
    // mulberry32: a tiny seeded PRNG, so a failure reproduces.
    let seed = 0x5eed1234;
    const rand = () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = seed;
      t = Math.imul(t ^ (t >>> 15), t | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
    const atoms = [
      ...'0123456789'.split(''),
      ...' .,:;-/–()+$€£%‰#&@º°ª¿?¡!\n'.split(''),
      ...'aeiouxyzAEIOUXYZñÑáé'.split(''),
      'I', 'V', 'X', 'XXI', 'II', 'Sr.', 'etc.', 'No.', 'a. m.', 'p. m.', 'h', 'hrs', 'de', ' de abril ', 'abr',
      'siglo ', 'Felipe ', 'www.', '.com', '.mx', 'https://', 'MXN', 'USD', 'er', 'os', 'km', 'x', 'EE. UU.',
      'S.A. de C.V.', 'GODE561231GR8', 'tel. ', '+52 ', '(55) ', '1,234.56', '1.234,56', '03/04/2024', '10:30',
    ]; // prettier-ignore
    for (let i = 0; i < 1500; i++) {
      const len = 1 + Math.floor(rand() * 25);
      let s = '';
      for (let k = 0; k < len; k++) s += atoms[Math.floor(rand() * atoms.length)]!;
      for (const lang of ['es-MX', 'es-ES'] as const) {
        let out = '';
        expect(() => (out = norm(s, lang))).not.toThrow();
        if (/\p{L}/u.test(s)) expect(out).toMatch(/\p{L}/u);
        if (/\S/.test(s)) expect(out.trim()).not.toBe('');
        expect(out.split(/\n\s*\n/).length).toBe(s.split(/\n\s*\n/).length);
      }
    }
  });

  it('skips a failing rule instead of failing the narration, and reports it', () => {
    const rule = RULES[0]!;
    const original = rule.apply;
    const errors: string[] = [];
    (rule as { apply: typeof original }).apply = () => {
      throw new Error('boom');
    };
    try {
      expect(normalizeForSpeech('Pagó $20', 'es-MX', { onRuleError: (name) => errors.push(name) })).toBe(
        'Pagó veinte pesos',
      );
      expect(errors).toEqual([rule.name]);
      expect(() => normalizeForSpeech('x', 'es-MX', { strict: true })).toThrow('boom');
    } finally {
      (rule as { apply: typeof original }).apply = original;
    }
  });
});

describe('narrate() applies the reading rules', () => {
  class CapturingEngine implements Synthesizer {
    readonly engine = 'capture';
    readonly maxChars = 3000;
    readonly concurrency = 1;
    readonly texts: string[] = [];
    async synthesize(text: string): Promise<Pcm> {
      this.texts.push(text);
      return { samples: new Int16Array(80), sampleRate: 8000 };
    }
  }
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'normalize-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each([
    ['es-MX-Mia', 'El 03/04/2024 pagué $20.', 'El tres de abril de dos mil veinticuatro pagué veinte pesos.'],
    [
      'es-ES-Lucia',
      'El 03/04/2024 pagué $20.',
      'El tres de abril de dos mil veinticuatro pagué veinte dólares.',
    ],
  ])('the engine receives the %s reading', async (voiceId, text, spoken) => {
    const engine = new CapturingEngine();
    await narrate({
      text,
      voice: findVoice(voiceId)!,
      fmt: 'wav',
      synthesizer: engine,
      outPath: join(dir, `${voiceId}.wav`),
    });
    expect(engine.texts).toEqual([spoken]);
  });
});
