// How a convert request is to be read: its SSML parsed (422 naming the line and column of a problem), the lexicon
// entries it applies (the lexicons it names, else the account's default), the characters it is billed for, and
// warnings about what the engine will not do. Shared by /convert/text, /convert/pdf, /convert/url and their
// dry runs.
import type { Caller } from '../../shared/auth/resolve-caller';
import { invalid } from '../../shared/errors';
import {
  markupFor,
  parsePieces,
  preparePieces,
  speechWarnings,
  spokenText,
  type Piece,
  type SpeechOptions,
  type TextType,
} from '../core/speech';
import { SsmlError } from '../core/ssml';
import { breakSeconds, maxBreaksS } from '../core/breaks';
import type { Voice } from '../core/voices';
import type { NarrationDeps } from '../deps';
import { lexiconEntriesFor } from './lexicons';

export interface SpeechRequest {
  /** Undefined for plain text without lexicon entries (the path every conversion took before). */
  speech?: SpeechOptions;
  /** Billed characters: the text's, or for SSML its text content (tags and attributes not counted). */
  chars: number;
  /** Names of the lexicons applied, in precedence order. */
  lexicons: string[];
  warnings: string[];
  /** The pieces after reading rules and lexicon (previews read the spoken text from them). */
  pieces: () => Piece[];
  /** Seconds of silence its <break> elements add (core/breaks.ts): part of the audio's length and estimates. */
  breakS: number;
}

export async function speechRequest(
  deps: Pick<NarrationDeps, 'lexicons' | 'config'>,
  caller: Caller,
  input: { text: string; textType?: TextType; lexicons?: string[]; loudness?: number | 'off' | undefined },
  voice: Voice,
  loc: { text: (string | number)[]; lexicons: (string | number)[] } = {
    text: ['body', 'text'],
    lexicons: ['body', 'lexicons'],
  },
): Promise<SpeechRequest> {
  let parsed: { pieces: Piece[]; chars: number };
  try {
    parsed = parsePieces(input.text, input.textType, voice.lang);
  } catch (err) {
    if (err instanceof SsmlError)
      throw invalid(
        loc.text,
        `Invalid SSML at line ${err.line}, column ${err.column}: ${err.reason}`,
        'value_error',
      );
    throw err;
  }
  const lexicon = await lexiconEntriesFor(deps.lexicons, caller, input.lexicons, voice, loc.lexicons);
  let prepared: Piece[] | undefined;
  const pieces = () => (prepared ??= preparePieces(parsed.pieces, voice.lang, lexicon.entries));
  const ssml = input.textType === 'ssml';
  if (ssml && !/[\p{L}\p{N}]/u.test(spokenText(parsed.pieces)))
    throw invalid(
      loc.text,
      'The SSML has nothing to read aloud: it contains no letters or digits',
      'value_error',
    );
  // Breaks are audio too: their sum is capped per plan (a flood of 10 s breaks is refused, naming the cap).
  const breakS = breakSeconds(parsed.pieces);
  const plan = caller.kind === 'key' ? caller.key.plan : 'free';
  const cap = maxBreaksS(plan);
  if (breakS > cap)
    throw invalid(
      loc.text,
      `The <break> pauses add up to ${Math.round(breakS)} s; a narration may hold at most ${cap} s of pauses on ` +
        `the ${plan === 'free' ? 'free' : plan} plan (each pause at most 10 s).`,
      'value_error',
    );
  const engine = deps.config.SPEECH_ENGINE === 'polly' ? 'polly' : 'espeak';
  // Markup the engine lacks can only come from SSML or lexicon phonemes: skip the extra pass otherwise.
  const markupWarnings =
    ssml || lexicon.entries.some((e) => e.phoneme !== undefined)
      ? speechWarnings(pieces(), markupFor(engine, voice), voice)
      : [];
  // The voice's engine when the caller picked another than its default (resolveVoice), and the loudness asked for.
  const pollyEngine = voice.polly.engine !== voice.engines[0] ? voice.polly.engine : undefined;
  const speech: SpeechOptions | undefined =
    ssml || lexicon.entries.length || pollyEngine || input.loudness !== undefined
      ? {
          ...(ssml ? { textType: 'ssml' as const } : {}),
          ...(lexicon.entries.length ? { lexicon: lexicon.entries } : {}),
          ...(pollyEngine && pollyEngine !== 'standard' ? { engine: pollyEngine } : {}),
          ...(input.loudness !== undefined ? { loudness: input.loudness } : {}),
        }
      : undefined;
  return {
    ...(speech ? { speech } : {}),
    chars: parsed.chars,
    lexicons: lexicon.applied,
    warnings: [...lexicon.warnings, ...markupWarnings],
    pieces,
    breakS,
  };
}

/** Response fields (only when there is something to say): the lexicons applied and the warnings. */
export function speechFields(how: SpeechRequest): { lexicons?: string[]; warnings?: string[] } {
  return {
    ...(how.lexicons.length ? { lexicons: how.lexicons } : {}),
    ...(how.warnings.length ? { warnings: how.warnings } : {}),
  };
}
