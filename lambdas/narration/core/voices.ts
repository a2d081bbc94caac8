// Voice catalogue: the ids callers send (contract: `<lang>-<Name>`), and what each maps to in every speech engine.
// Polly voices and engines per the Polly voice list (neural is available for all four; see docs/architecture.md).
// Local espeak-ng: `es` sounds Castilian, `es-419` Latin American; `+f3` / `+m3` pick a female / male variant.

export type Lang = 'es-MX' | 'es-ES';
export type Gender = 'female' | 'male';

export interface Voice {
  /** Public id, e.g. `es-MX-Mia`. */
  id: string;
  /** Display name, e.g. `Mia (Mexico)`, `Andrés (Mexico)`: the name spelled as it is (accents included). */
  name: string;
  lang: Lang;
  gender: Gender;
  polly: { voiceId: string; engine: 'neural' | 'standard' | 'generative' };
  espeak: { voice: string; variant: string };
}

const COUNTRY: Record<Lang, string> = { 'es-MX': 'Mexico', 'es-ES': 'Spain' };
const ESPEAK_VOICE: Record<Lang, string> = { 'es-MX': 'es-419', 'es-ES': 'es' };

/** Letters without their accents: ids are ASCII (`es-MX-Andres`), names are spelled right (`Andrés`). */
const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

// The contract: `id` is `<lang>-<voice_name>` and is what callers send, so it stays ASCII as Polly's own VoiceId
// (Andres, Lucia) and as every existing client has it; `name` is a display name `<Name> (<country>)`, so it carries
// the name as written in Spanish (Polly's voice list, too, says Andrés and Lucía). docs/architecture.md, Voices.
function voice(lang: Lang, name: string, pollyId: string, gender: Gender, variant: string): Voice {
  return {
    id: `${lang}-${plain(name)}`,
    name: `${name} (${COUNTRY[lang]})`,
    lang,
    gender,
    polly: { voiceId: pollyId, engine: 'neural' },
    espeak: { voice: ESPEAK_VOICE[lang], variant },
  };
}

export const VOICES: readonly Voice[] = Object.freeze([
  voice('es-MX', 'Mia', 'Mia', 'female', 'f3'),
  voice('es-MX', 'Andrés', 'Andres', 'male', 'm3'),
  voice('es-ES', 'Lucía', 'Lucia', 'female', 'f4'),
  voice('es-ES', 'Sergio', 'Sergio', 'male', 'm2'),
]);

/** Used when a request names no voice: the product's main market is Mexico. */
export const DEFAULT_VOICE_ID = 'es-MX-Mia';

const BY_ID = new Map(VOICES.map((v) => [v.id.toLowerCase(), v]));

/** Case- and accent-insensitive lookup (`es-mx-mia`, `es-MX-Andrés` work); undefined when unknown. */
export function findVoice(id: string): Voice | undefined {
  return BY_ID.get(plain(id.trim()).toLowerCase());
}

/** The public shape of GET /voices. */
export function publicVoice(v: Voice): { id: string; name: string; lang: Lang; gender: Gender } {
  return { id: v.id, name: v.name, lang: v.lang, gender: v.gender };
}
