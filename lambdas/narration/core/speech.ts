// What an engine is asked to say: the caller's text (or SSML) as a flat list of pieces — plain text, lexicon hits,
// pauses — each carrying the spans around it (emphasis, another language). narrate() prepares the pieces (reading
// rules, then the lexicon), cuts them into chunks an engine call accepts, and renders each chunk for its engine:
// plain text when nothing needs markup (the common case, byte for byte what the engine got before SSML existed),
// else SSML in the engine's dialect (Polly's, or espeak-ng's own SSML read with `-m`).
// Pure: no I/O. The SSML parser is ./ssml.ts, the lexicon matcher ./lexicon.ts.
import { splitText } from './chunking';
import { LexiconMatcher, type LexiconEntry } from './lexicon';
import { normalizeForSpeech, type NormalizeOptions } from './normalize';
import { parseSsml } from './ssml';
import type { Engine, Lang, Voice } from './voices';

export type { BreakStrength, EmphasisLevel, Piece, Span } from './pieces';
import type { EmphasisLevel, Piece, Span } from './pieces';

export type TextType = 'text' | 'ssml';

/** How to read a request's text: plain or SSML, and the lexicon entries that apply (lexicon.entriesFor). */
export interface SpeechOptions {
  textType?: TextType;
  lexicon?: LexiconEntry[];
  /** Integrated loudness target (LUFS) of the narration, or 'off' for the engine's own level (default −16). */
  loudness?: number | 'off';
  /** The voice's Polly engine when not its default (core/voices.ts withEngine). */
  engine?: Engine;
}

/** What an engine's markup can express (Polly: by voice engine, docs "Supported SSML tags"). */
export interface EngineMarkup {
  dialect: 'polly' | 'espeak';
  emphasis: boolean;
  phoneme: boolean;
}

export function markupFor(engine: string, voice: Voice): EngineMarkup {
  if (engine === 'polly')
    return {
      dialect: 'polly',
      // Polly: <emphasis> only on standard voices; <phoneme> not on generative ones. Unsupported tags are errors.
      emphasis: voice.polly.engine === 'standard',
      phoneme: voice.polly.engine !== 'generative',
    };
  // espeak-ng -m: <emphasis> works; IPA phonemes do not (it says the alias, or the grapheme).
  return { dialect: 'espeak', emphasis: true, phoneme: false };
}

/** Warnings for what the engine will not do (the request still succeeds). */
export function speechWarnings(pieces: readonly Piece[], markup: EngineMarkup, voice: Voice): string[] {
  const out: string[] = [];
  if (!markup.emphasis && pieces.some((p) => p.kind !== 'break' && p.emphasis))
    out.push(
      `<emphasis> is not supported by the ${voice.polly.engine} voice ${voice.id}: the words are read without emphasis.`,
    );
  if (markup.dialect === 'polly' && !markup.phoneme && pieces.some((p) => p.kind === 'word' && p.phoneme))
    out.push(
      `Lexicon phonemes are not supported by the ${voice.polly.engine} voice ${voice.id}: the alias (or the word as written) is read instead.`,
    );
  return out;
}

/** The caller's text as pieces, before reading rules (plain text is one piece). Throws SsmlError (→ 422). */
export function parsePieces(
  text: string,
  textType: TextType | undefined,
  lang: Lang,
): { pieces: Piece[]; chars: number } {
  if (textType === 'ssml') return parseSsml(text, lang);
  return { pieces: [{ kind: 'text', text }], chars: [...text].length };
}

/** Reading rules, then the lexicon, on every piece in the voice's language that is not already words. */
export function preparePieces(
  pieces: readonly Piece[],
  lang: Lang,
  lexicon: readonly LexiconEntry[] = [],
  normalize: NormalizeOptions = {},
): Piece[] {
  const matcher = new LexiconMatcher(lexicon);
  const out: Piece[] = [];
  for (const p of pieces) {
    if (p.kind !== 'text' || p.said || p.lang) {
      out.push(p);
      continue;
    }
    const spoken = normalizeForSpeech(p.text, lang, normalize);
    const span: Span = p.emphasis ? { emphasis: p.emphasis } : {};
    for (const part of matcher.split(spoken)) {
      if (typeof part === 'string') out.push({ kind: 'text', text: part, ...span });
      else out.push({ kind: 'word', ...part, ...span });
    }
  }
  return out;
}

/** The words spoken, for previews: pauses become spaces, paragraph breaks blank lines. */
export function spokenText(pieces: readonly Piece[]): string {
  return pieces
    .map((p) => (p.kind === 'break' ? (p.strength === 'x-strong' ? '\n\n' : ' ') : p.text))
    .join('')
    .replace(/[^\S\n]+\n/g, '\n')
    .replace(/\n[^\S\n]+/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .replace(/[^\S\n]{2,}/g, ' ')
    .trim();
}

/** What this engine cannot mark up becomes plain text; neighbouring text with equal spans merges. */
export function lower(pieces: readonly Piece[], markup: EngineMarkup): Piece[] {
  const out: Piece[] = [];
  for (const p of pieces) {
    let q: Piece = p;
    if (q.kind !== 'break') {
      const span: Span = {
        ...(q.lang ? { lang: q.lang } : {}),
        ...(q.emphasis && markup.emphasis ? { emphasis: q.emphasis } : {}),
      };
      q =
        q.kind === 'word' && q.phoneme !== undefined && markup.phoneme
          ? { kind: 'word', text: q.text, phoneme: q.phoneme, ...span }
          : { kind: 'text', text: q.text, ...span };
    }
    const prev = out[out.length - 1];
    if (q.kind === 'text' && prev?.kind === 'text' && prev.lang === q.lang && prev.emphasis === q.emphasis)
      out[out.length - 1] = { ...prev, text: prev.text + q.text };
    else out.push(q);
  }
  return out;
}

/** Markup characters a piece adds around its text (conservative), so chunks stay within an engine call. */
function overhead(p: Piece): number {
  if (p.kind === 'break') return 40;
  return (
    (p.lang ? 40 : 0) + (p.emphasis ? 40 : 0) + (p.kind === 'word' && p.phoneme ? 40 + p.phoneme.length : 0)
  );
}

const SPEAK_OVERHEAD = 64;

/**
 * Chunks for one engine call each, at most `maxChars` long as sent. Text with no markup is cut exactly as
 * before (chunking.ts: paragraph, sentence, clause, word); marked-up text is cut between pieces, and long text
 * pieces at those same boundaries.
 */
export function chunkPieces(pieces: readonly Piece[], markup: EngineMarkup, maxChars: number): Piece[][] {
  const flat = lower(pieces, markup);
  if (flat.every((p) => p.kind === 'text' && !p.lang && !p.emphasis))
    return splitText(flat.map((p) => (p.kind === 'break' ? '' : p.text)).join(''), maxChars).map((text) => [
      { kind: 'text', text },
    ]);
  const budget = Math.max(1, maxChars - SPEAK_OVERHEAD);
  const chunks: Piece[][] = [];
  let cur: Piece[] = [];
  let used = 0;
  const flush = () => {
    if (cur.some((p) => p.kind === 'break' || /[\p{L}\p{N}]/u.test(p.text))) chunks.push(cur);
    cur = [];
    used = 0;
  };
  const add = (p: Piece, cost: number) => {
    if (used + cost > budget) flush();
    cur.push(p);
    used += cost;
  };
  for (const p of flat) {
    const extra = overhead(p);
    if (p.kind !== 'text' || used + p.text.length + extra <= budget) {
      add(p, (p.kind === 'break' ? 0 : p.text.length) + extra);
      continue;
    }
    // A long text piece: cut at its natural boundaries, keeping the space that separated it from its neighbours.
    const parts = splitText(p.text, Math.max(1, budget - extra));
    parts.forEach((t, i) => {
      const lead = i === 0 && /^\s/.test(p.text) ? ' ' : '';
      const trail = i === parts.length - 1 && /\s$/.test(p.text) ? ' ' : '';
      add({ ...p, text: lead + t + trail }, t.length + 2 + extra);
    });
  }
  flush();
  return chunks;
}

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};
const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

/** One chunk as the engine receives it: plain text when nothing needs markup, else SSML in its dialect. */
export function renderChunk(chunk: readonly Piece[], markup: EngineMarkup): { text: string; ssml: boolean } {
  if (chunk.every((p) => p.kind === 'text' && !p.lang && !p.emphasis))
    return {
      text: chunk
        .map((p) => (p.kind === 'text' ? p.text : ''))
        .join('')
        .trim(),
      ssml: false,
    };
  let out = '<speak>';
  let lang: string | undefined;
  let emphasis: EmphasisLevel | undefined;
  const langTag = markup.dialect === 'polly' ? 'lang' : 'voice';
  const setSpans = (nextLang: string | undefined, nextEmphasis: EmphasisLevel | undefined) => {
    if (emphasis && (emphasis !== nextEmphasis || lang !== nextLang)) {
      out += '</emphasis>';
      emphasis = undefined;
    }
    if (lang !== nextLang) {
      if (lang) out += `</${langTag}>`;
      if (nextLang) out += `<${langTag} xml:lang="${esc(nextLang)}">`;
      lang = nextLang;
    }
    if (nextEmphasis && emphasis !== nextEmphasis) {
      out += `<emphasis level="${nextEmphasis}">`;
      emphasis = nextEmphasis;
    }
  };
  for (const p of chunk) {
    if (p.kind === 'break') {
      out +=
        p.ms !== undefined ? `<break time="${p.ms}ms"/>` : `<break strength="${p.strength ?? 'medium'}"/>`;
      continue;
    }
    setSpans(p.lang, p.emphasis);
    out +=
      p.kind === 'word' && p.phoneme !== undefined
        ? `<phoneme alphabet="ipa" ph="${esc(p.phoneme)}">${esc(p.text)}</phoneme>`
        : esc(p.text);
  }
  setSpans(undefined, undefined);
  return { text: out + '</speak>', ssml: true };
}

/** Everything narrate() needs from a request's text: the chunks as the engine receives them. */
export function engineInputs(
  text: string,
  voice: Voice,
  engine: string,
  maxChars: number,
  opts: SpeechOptions = {},
  normalize: NormalizeOptions = {},
): { text: string; ssml: boolean }[] {
  const markup = markupFor(engine, voice);
  const pieces = preparePieces(
    parsePieces(text, opts.textType, voice.lang).pieces,
    voice.lang,
    opts.lexicon,
    normalize,
  );
  return chunkPieces(pieces, markup, maxChars).map((c) => renderChunk(c, markup));
}
