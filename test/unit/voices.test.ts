// The voice catalogue (lambdas/narration/core/voices.ts): ids as the contract shapes them (`<lang>-<voice_name>`,
// ASCII, what callers send), display names spelled as in Spanish, and an id found whatever its case or accents.
import { VOICES, findVoice, publicVoice } from '../../lambdas/narration/core/voices';

const NG = { engines: ['neural', 'generative'], default_engine: 'neural' };
const LF = { engines: ['long-form'], default_engine: 'long-form' };

test('ids are ASCII and unchanged; names carry their accents', () => {
  expect(VOICES.map(publicVoice)).toEqual([
    { id: 'es-MX-Mia', name: 'Mia (Mexico)', lang: 'es-MX', gender: 'female', ...NG },
    { id: 'es-MX-Andres', name: 'Andrés (Mexico)', lang: 'es-MX', gender: 'male', ...NG },
    { id: 'es-ES-Lucia', name: 'Lucía (Spain)', lang: 'es-ES', gender: 'female', ...NG },
    { id: 'es-ES-Sergio', name: 'Sergio (Spain)', lang: 'es-ES', gender: 'male', ...NG },
    { id: 'es-ES-Alba', name: 'Alba (Spain)', lang: 'es-ES', gender: 'female', ...LF },
    { id: 'es-ES-Raul', name: 'Raúl (Spain)', lang: 'es-ES', gender: 'male', ...LF },
  ]);
  for (const v of VOICES) expect(v.polly.voiceId).toBe(v.id.split('-')[2]);
  for (const v of VOICES) expect(v.id).toMatch(/^[\x21-\x7e]+$/);
});

test.each([
  ['es-MX-Andres', 'es-MX-Andres'],
  ['es-MX-Andrés', 'es-MX-Andres'],
  ['ES-es-LUCÍA', 'es-ES-Lucia'],
  [' es-es-lucia ', 'es-ES-Lucia'],
  ['es-MX-Lucia', undefined],
  ['es-MX-Andrea', undefined],
  ['es-ES-Raúl', 'es-ES-Raul'],
])('findVoice(%p) → %p', (asked, id) => {
  expect(findVoice(asked)?.id).toBe(id);
});
