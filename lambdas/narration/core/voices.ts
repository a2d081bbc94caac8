// Voice catalogue: the ids callers send (contract: `<lang>-<Name>`), and what each maps to in every speech engine.
// Polly voices and engines per the Polly voice list (2026): Mia, Andres, Lucia and Sergio have neural and
// generative versions; es-ES Alba and Raúl exist only as long-form voices. A request's `engine` picks one of the
// voice's engines (withEngine), default neural where the voice has it.
// Local espeak-ng: `es` sounds Castilian, `es-419` Latin American; `+f3` / `+m3` pick a female / male variant.

export type Lang = 'es-MX' | 'es-ES';
export type Gender = 'female' | 'male';
/** Polly's engines a request may ask for (`engine`). */
export const ENGINES = ['neural', 'generative', 'long-form'] as const;
export type Engine = (typeof ENGINES)[number];

export interface Voice {
  /** Public id, e.g. `es-MX-Mia`. */
  id: string;
  /** Display name, e.g. `Mia (Mexico)`, `Andrés (Mexico)`: the name spelled as it is (accents included). */
  name: string;
  lang: Lang;
  gender: Gender;
  /** The Polly voice and the engine this narration uses (the default one until withEngine picks another). */
  polly: { voiceId: string; engine: Engine | 'standard' };
  /** Every engine the voice has, the default first. */
  engines: readonly Engine[];
  espeak: { voice: string; variant: string };
}

const COUNTRY: Record<Lang, string> = { 'es-MX': 'Mexico', 'es-ES': 'Spain' };
const ESPEAK_VOICE: Record<Lang, string> = { 'es-MX': 'es-419', 'es-ES': 'es' };

/** Letters without their accents: ids are ASCII (`es-MX-Andres`), names are spelled right (`Andrés`). */
const plain = (s: string) => s.normalize('NFD').replace(/\p{M}/gu, '');

// The contract: `id` is `<lang>-<voice_name>` and is what callers send, so it stays ASCII as Polly's own VoiceId
// (Andres, Lucia, Raul) and as every existing client has it; `name` is a display name `<Name> (<country>)`, so it
// carries the name as written in Spanish (Polly's voice list, too, says Andrés, Lucía and Raúl). docs/architecture.md,
// Voices. `engines`: the voice's Polly engines, its default first.
function voice(
  lang: Lang,
  name: string,
  pollyId: string,
  gender: Gender,
  variant: string,
  engines: readonly Engine[] = ['neural', 'generative'],
): Voice {
  return {
    id: `${lang}-${plain(name)}`,
    name: `${name} (${COUNTRY[lang]})`,
    lang,
    gender,
    polly: { voiceId: pollyId, engine: engines[0]! },
    engines,
    espeak: { voice: ESPEAK_VOICE[lang], variant },
  };
}

export const VOICES: readonly Voice[] = Object.freeze([
  voice('es-MX', 'Mia', 'Mia', 'female', 'f3'),
  voice('es-MX', 'Andrés', 'Andres', 'male', 'm3'),
  voice('es-ES', 'Lucía', 'Lucia', 'female', 'f4'),
  voice('es-ES', 'Sergio', 'Sergio', 'male', 'm2'),
  // Long-form only: made for reading long texts (articles, chapters).
  voice('es-ES', 'Alba', 'Alba', 'female', 'f2', ['long-form']),
  voice('es-ES', 'Raúl', 'Raul', 'male', 'm4', ['long-form']),
]);

/** `voice` read by `engine` (its default when undefined); undefined when the voice does not have that engine. */
export function withEngine(voice: Voice, engine: Engine | undefined): Voice | undefined {
  if (engine === undefined || engine === voice.polly.engine) return voice;
  if (!voice.engines.includes(engine)) return undefined;
  return { ...voice, polly: { ...voice.polly, engine } };
}

/** Used when a request names no voice: the product's main market is Mexico. */
export const DEFAULT_VOICE_ID = 'es-MX-Mia';

const BY_ID = new Map(VOICES.map((v) => [v.id.toLowerCase(), v]));

/** Case- and accent-insensitive lookup (`es-mx-mia`, `es-MX-Andrés` work); undefined when unknown. */
export function findVoice(id: string): Voice | undefined {
  return BY_ID.get(plain(id.trim()).toLowerCase());
}

/** The public shape of GET /voices: the contract's fields, then the engines (the default first). */
export function publicVoice(v: Voice): {
  id: string;
  name: string;
  lang: Lang;
  gender: Gender;
  engines: Engine[];
  default_engine: Engine;
} {
  return {
    id: v.id,
    name: v.name,
    lang: v.lang,
    gender: v.gender,
    engines: [...v.engines],
    default_engine: v.engines[0]!,
  };
}
