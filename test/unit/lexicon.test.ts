// Lexicon matching (core/lexicon.ts) and the lexicon use cases (limits, default, precedence) on an in-memory store.
import { LexiconMatcher, entriesFor, type Lexicon } from '../../lambdas/narration/core/lexicon';
import { findVoice } from '../../lambdas/narration/core/voices';
import { InvalidInput, Unauthenticated } from '../../lambdas/shared/errors';
import type { Caller } from '../../lambdas/shared/auth/resolve-caller';
import { lexiconEntriesFor, putLexicon } from '../../lambdas/narration/use-cases/lexicons';
import { FakeLexiconStore } from '../fakes/narration';

const said = (m: LexiconMatcher, text: string) =>
  m
    .split(text)
    .map((p) => (typeof p === 'string' ? p : `[${p.text}${p.phoneme ? `/${p.phoneme}` : ''}]`))
    .join('');

describe('matching', () => {
  const m = new LexiconMatcher([
    { grapheme: 'IA', alias: 'inteligencia artificial' },
    { grapheme: 'Wi-Fi', alias: 'guaifai', phoneme: 'ˈwaj.faj' },
    { grapheme: 'vozdocs', alias: 'voz docs', match_case: false },
    { grapheme: 'C++', alias: 'ce más más' },
    { grapheme: 'Nueva York', alias: 'Niu York' },
    { grapheme: 'Nueva', alias: 'NUEVA' },
  ]);
  test.each([
    ['whole words only', 'IA, IAS e IA.', '[inteligencia artificial], IAS e [inteligencia artificial].'],
    ['exact case by default', 'ia Ia IA', 'ia Ia [inteligencia artificial]'],
    ['match_case false: any case', 'VozDocs y VOZDOCS', '[voz docs] y [voz docs]'],
    ['punctuation inside the grapheme, phoneme kept', 'el Wi-Fi.', 'el [guaifai/ˈwaj.faj].'],
    ['a grapheme ending in symbols', 'C++ y C+', '[ce más más] y C+'],
    ['longest first', 'Nueva York y Nueva', '[Niu York] y [NUEVA]'],
    ['letters around a hit stop it', 'aIA IAa 2IA', 'aIA IAa 2IA'],
    ['accented neighbours are letters', 'ÁIA', 'ÁIA'],
  ])('%s', (_n, text, expected) => expect(said(m, text)).toBe(expected));

  test('entriesFor: language filter, first lexicon wins per grapheme', () => {
    const lx = (name: string, language: Lexicon['language'], alias: string): Lexicon => ({
      name,
      language,
      default: false,
      updated_at: '',
      entries: [{ grapheme: 'auto', alias }],
    });
    const all = [lx('es', 'es-ES', 'coche'), lx('mx', 'es-MX', 'carro'), lx('todo', '*', 'vehículo')];
    expect(entriesFor(all, 'es-MX')).toEqual([{ grapheme: 'auto', alias: 'carro' }]);
    expect(entriesFor(all, 'es-ES')).toEqual([{ grapheme: 'auto', alias: 'coche' }]);
  });
});

describe('use cases', () => {
  const paid: Caller = {
    kind: 'key',
    subject: 'key#x',
    key: {
      keyHash: 'h'.repeat(64),
      keyPrefix: 'key_',
      plan: 'pro',
      status: 'active',
      email: 'a@b.c',
      createdAt: '',
      accountId: 'cus_1',
    },
  };
  const now = new Date('2026-01-01T00:00:00Z');
  const entry = [{ grapheme: 'IA', alias: 'i a' }];

  test('the free tier gets 401', async () => {
    const store = new FakeLexiconStore();
    await expect(
      putLexicon(
        store,
        { kind: 'anonymous', subject: 'ip#1' },
        'x',
        { language: '*', entries: entry, default: false },
        now,
      ),
    ).rejects.toBeInstanceOf(Unauthenticated);
  });

  test('at most 100 lexicons; replacing one at the limit is fine', async () => {
    const store = new FakeLexiconStore();
    for (let i = 0; i < 100; i++)
      await putLexicon(store, paid, `l${i}`, { language: '*', entries: entry, default: false }, now);
    await expect(
      putLexicon(store, paid, 'l100', { language: '*', entries: entry, default: false }, now),
    ).rejects.toBeInstanceOf(InvalidInput);
    await expect(
      putLexicon(store, paid, 'l5', { language: '*', entries: entry, default: true }, now),
    ).resolves.toMatchObject({
      created: false,
    });
  });

  test('one default; named lexicons override it, in the order named', async () => {
    const store = new FakeLexiconStore();
    await putLexicon(
      store,
      paid,
      'a',
      { language: '*', entries: [{ grapheme: 'IA', alias: 'uno' }], default: true },
      now,
    );
    await putLexicon(
      store,
      paid,
      'b',
      { language: '*', entries: [{ grapheme: 'IA', alias: 'dos' }], default: true },
      now,
    );
    const mia = findVoice('es-MX-Mia')!;
    expect((await lexiconEntriesFor(store, paid, undefined, mia)).applied).toEqual(['b']);
    const named = await lexiconEntriesFor(store, paid, ['a', 'b'], mia);
    expect(named.entries).toEqual([{ grapheme: 'IA', alias: 'uno' }]);
    expect(
      (await lexiconEntriesFor(store, { kind: 'anonymous', subject: 'ip#1' }, undefined, mia)).entries,
    ).toEqual([]);
  });
});
