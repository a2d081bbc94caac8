// Article extraction for POST /convert/url: web page HTML → the text a listener wants to hear.
// @mozilla/readability (Firefox Reader View's own algorithm, 7 M downloads a month) finds the article; we then walk
// its content and build narration text: the title, then one paragraph per block, headings as paragraphs of their
// own (and listed with their offsets for a later chapters/preview feature), lists and table rows as sentences,
// no navigation, ads, share bars, forms, images or (by default) figure captions.
//
// DOM: linkedom, not jsdom. Measured on the Spanish fixtures in test/fixtures/articles with Readability 0.6.0:
// identical article text and titles from both; linkedom parses + extracts in 8–14 ms vs jsdom's 42–67 ms and
// loads in ~235 ms vs ~390 ms (cold starts matter on Lambda); jsdom ≥ 27 needs Node ≥ 20.19/22 and its sync-XHR
// worker file breaks esbuild bundling, while linkedom bundles as plain JS. Readability only needs the DOM core
// (no layout, no scripts), which linkedom implements, with one gap we work around: getElementsByTagName('*') is
// empty, so Readability's element cap is enforced here. Pinned to 0.18.12: 0.18.13+ pull ESM-only css-select 7,
// which the Jest CommonJS runtime cannot load, and 0.18.15 depends on a package the registry mirror lacks.
// Measured: an 8 KiB page in ~20 ms, 320 KiB in ~250 ms, 1.3 MiB in ~460 ms (the fetch cap is 5 MiB).
import { Readability } from '@mozilla/readability';
import { parseHTML } from 'linkedom';

export interface Heading {
  /** 1–6, as in <h1>–<h6>. */
  level: number;
  text: string;
  /** Where the heading's paragraph starts in `text`, in characters (code points, as `chars` counts). */
  offset: number;
}

export interface Article {
  title: string;
  /** Title, then the article's paragraphs, separated by blank lines. */
  text: string;
  /** Characters (code points) of `text`. */
  chars: number;
  headings: Heading[];
  byline?: string;
  siteName?: string;
  lang?: string;
  excerpt?: string;
}

export type NoArticleReason = 'script_only' | 'no_article' | 'too_complex';

/** The page has nothing to narrate. `message` tells the caller why and what to send instead. */
export class NoArticleError extends Error {
  constructor(
    readonly reason: NoArticleReason,
    message: string,
  ) {
    super(message);
    this.name = 'NoArticleError';
  }
}

export interface ExtractOptions {
  /** Read <figcaption> text too (off by default: "Foto: EFE" out of context is noise to a listener). */
  includeCaptions?: boolean;
}

/** Fewer characters of body text than this is not an article (a teaser, a login page, a cookie wall). */
export const MIN_ARTICLE_CHARS = 200;
/** Share of the extracted text inside links above which it is a list of links (a home page), not an article. */
const MAX_LINK_DENSITY = 0.5;
/** Pages with more elements than this are refused before extraction: a bound on CPU for pathological pages. */
const MAX_ELEMENTS = 40_000;

// Minimal structural view of the DOM nodes we touch (the project compiles without the DOM lib).
interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  parentNode: DomNode | null;
  getAttribute?(name: string): string | null;
  hasAttribute?(name: string): boolean;
  remove?(): void;
  querySelectorAll?(selector: string): ArrayLike<DomNode>;
}

const TEXT_NODE = 3;
const ELEMENT_NODE = 1;

/** Never read: not text, or not part of an article. */
const SKIP = new Set([
  'SCRIPT',
  'STYLE',
  'NOSCRIPT',
  'TEMPLATE',
  'IFRAME',
  'OBJECT',
  'EMBED',
  'SVG',
  'CANVAS',
  'VIDEO',
  'AUDIO',
  'IMG',
  'PICTURE',
  'SOURCE',
  'MATH',
  'BUTTON',
  'INPUT',
  'SELECT',
  'TEXTAREA',
  'FORM',
  'NAV',
  'ASIDE',
  'FOOTER',
  'HEAD',
]);

/** Each starts a new paragraph. */
const BLOCK = new Set([
  'P',
  'DIV',
  'SECTION',
  'ARTICLE',
  'MAIN',
  'HEADER',
  'UL',
  'OL',
  'LI',
  'DL',
  'DT',
  'DD',
  'BLOCKQUOTE',
  'PRE',
  'TABLE',
  'THEAD',
  'TBODY',
  'TFOOT',
  'TR',
  'CAPTION',
  'FIGURE',
  'FIGCAPTION',
  'HR',
  'ADDRESS',
  'DETAILS',
  'SUMMARY',
  'CENTER',
]);

const HEADING = /^H([1-6])$/;

/**
 * Class/id words of page furniture Readability may keep inside an article container: share bars, bylines and
 * post metadata, newsletter boxes, ad slots, "read also" boxes, tag lists, author bios. Matched as whole words of
 * the class or id (`ad` matches `ad-slot`, never `header` or `leading`).
 */
const FURNITURE =
  /(?:^|[\s_-])(?:ad|ads|advert|advertisement|publicidad|anuncio|banner|cookies?|consent|gdpr|share|sharing|compartir|social|newsletter|subscribe|suscripcion|suscribete|paywall|related|relacionad[oa]s|lee-tambien|te-puede-interesar|recomendad[oa]s|post-meta|entry-meta|byline|author-box|author-bio|tags|etiquetas|breadcrumbs?|comments?|comentarios)(?:$|[\s_-])/i;

/** Drops furniture before Readability scores the page (so it neither scores nor survives), keeping any element
 * that holds much of the page's text (a container whose class merely mentions "share" must not take the article). */
function removeFurniture(document: DomNode, bodyChars: number): void {
  const candidates = Array.from(document.querySelectorAll!('[class], [id], [hidden], [aria-hidden="true"]'));
  for (const el of candidates) {
    if (!el.parentNode) continue; // already removed with an ancestor
    const hidden = el.hasAttribute!('hidden') || el.getAttribute!('aria-hidden') === 'true';
    const names = `${el.getAttribute!('class') ?? ''} ${el.getAttribute!('id') ?? ''}`;
    if (!hidden && !FURNITURE.test(names)) continue;
    if ((el.textContent ?? '').length > bodyChars * 0.4) continue;
    el.remove!();
  }
}

function cleanInline(s: string): string {
  return (
    s
      // soft hyphens and zero-width characters would be read as nothing or as noise
      .replace(/[\u00AD\u200B-\u200D\u2060\uFEFF]/g, '')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

/** A paragraph that does not end a sentence gets a full stop, so the voice pauses (headings, list items). */
function endSentence(p: string): string {
  return /[.!?…:;»"'”’)\]]$/.test(p) ? p : `${p}.`;
}

interface Block {
  text: string;
  heading?: number;
}

/** Walks the article content and returns its paragraphs in order. */
function blocksOf(root: DomNode, opts: ExtractOptions): { blocks: Block[]; linkChars: number } {
  const blocks: Block[] = [];
  let buf = '';
  let linkChars = 0;
  const flush = () => {
    const text = cleanInline(buf);
    buf = '';
    if (/[\p{L}\p{N}]/u.test(text)) blocks.push({ text });
  };
  const walk = (node: DomNode, inLink: boolean): void => {
    if (node.nodeType === TEXT_NODE) {
      const t = node.textContent ?? '';
      buf += t;
      if (inLink) linkChars += cleanInline(t).length;
      return;
    }
    if (node.nodeType !== ELEMENT_NODE) return;
    const tag = node.nodeName.toUpperCase();
    if (SKIP.has(tag)) return;
    if (node.hasAttribute?.('hidden')) return;
    if (tag === 'FIGCAPTION' && !opts.includeCaptions) return;
    const h = HEADING.exec(tag);
    if (h) {
      flush();
      for (const c of Array.from(node.childNodes)) walk(c, inLink);
      const text = cleanInline(buf);
      buf = '';
      if (/[\p{L}\p{N}]/u.test(text)) blocks.push({ text, heading: Number(h[1]) });
      return;
    }
    if (tag === 'BR') return flush();
    if ((tag === 'TD' || tag === 'TH') && cleanInline(buf)) buf = `${cleanInline(buf)}, `;
    const block = BLOCK.has(tag);
    if (block) flush();
    for (const c of Array.from(node.childNodes)) walk(c, inLink || tag === 'A');
    if (block) flush();
  };
  walk(root, false);
  flush();
  return { blocks, linkChars };
}

const normTitle = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

/** "Crónica de una ciudad | Revista" → "Crónica de una ciudad" when the page's h1 or og:title is that part. */
function siteFreeTitle(title: string, candidates: string[]): string {
  const parts = title.split(/\s+[|\-–—·:»/]\s+/);
  if (parts.length < 2) return title;
  for (const c of candidates) if (parts.some((p) => normTitle(p) === normTitle(c))) return c;
  return title;
}

function countChars(s: string): number {
  let n = 0;
  for (const _ of s) n++;
  return n;
}

/**
 * Extracts the article from a page. Throws NoArticleError when there is none (a home page, a list of links, a
 * form, a page built by JavaScript in the browser).
 */
export function extractArticle(html: string, opts: ExtractOptions = {}): Article {
  // linkedom builds no <html> element for a fragment (or nothing): give it a document to hang on.
  const source = /<html[\s>]/i.test(html)
    ? html
    : `<!DOCTYPE html><html><head></head><body>${html}</body></html>`;
  const { document } = parseHTML(source) as unknown as { document: DomNode & { title?: string } };
  const body = (document as unknown as { body?: DomNode }).body;
  const bodyText = cleanInline(
    Array.from(body?.childNodes ?? [])
      .filter((n) => !(n.nodeType === ELEMENT_NODE && SKIP.has(n.nodeName.toUpperCase())))
      .map((n) => n.textContent ?? '')
      .join(' '),
  );
  const hasScripts = /<script\b/i.test(html);
  if (bodyText.length < MIN_ARTICLE_CHARS && hasScripts) {
    throw new NoArticleError(
      'script_only',
      'The page builds its content with JavaScript in the browser, so it holds no article text to read. ' +
        'Copy the article text and send it to /convert/text instead.',
    );
  }
  // Title candidates Readability does not weigh: it keeps "Short title | Site" when the short part has ≤ 4 words.
  const titleCandidates = [
    ...Array.from(document.querySelectorAll!('meta[property="og:title"], meta[name="twitter:title"]')).map(
      (m) => m.getAttribute!('content') ?? '',
    ),
    ...Array.from(document.querySelectorAll!('h1')).map((h) => h.textContent ?? ''),
  ]
    .map(cleanInline)
    .filter(Boolean);
  removeFurniture(document, bodyText.length);

  const noArticle = () =>
    new NoArticleError(
      'no_article',
      'No article was found on this page: it looks like a home page, a list of links, a form or a page behind a login. ' +
        'Give the address of the article itself, or send its text to /convert/text.',
    );
  // Readability's own maxElemsToParse counts getElementsByTagName('*'), which linkedom answers with nothing:
  // the CPU bound is enforced here instead.
  if (document.querySelectorAll!('*').length > MAX_ELEMENTS)
    throw new NoArticleError(
      'too_complex',
      `The page has more than ${MAX_ELEMENTS.toLocaleString('en')} elements, too many to look for an article in. Give the address of the article itself (a "print" or "AMP" version helps), or send its text to /convert/text.`,
    );
  let parsed: ReturnType<Readability<DomNode>['parse']>;
  try {
    parsed = new Readability<DomNode>(document as never, {
      // The content element itself: we walk it instead of re-parsing serialized HTML.
      serializer: (node) => node as unknown as DomNode,
    }).parse();
  } catch {
    // Hostile or broken markup Readability cannot walk: no article, not a server error.
    throw noArticle();
  }
  if (!parsed?.content) throw noArticle();

  const { blocks, linkChars } = blocksOf(parsed.content, opts);
  const title = siteFreeTitle(
    cleanInline(parsed.title ?? '') || cleanInline(document.title ?? ''),
    titleCandidates,
  );
  // Readability sometimes keeps the page's own <h1>: the title is read once, first.
  const bodyBlocks = blocks.filter(
    (b, i) => !(i < 3 && b.heading !== undefined && normTitle(b.text) === normTitle(title)),
  );
  const bodyChars = bodyBlocks.reduce((n, b) => n + b.text.length, 0);
  if (bodyChars < MIN_ARTICLE_CHARS || linkChars > bodyChars * MAX_LINK_DENSITY) throw noArticle();

  const paragraphs: string[] = [];
  const headings: Heading[] = [];
  let offset = 0;
  const push = (p: string) => {
    paragraphs.push(p);
    offset += countChars(p) + 2; // the blank line that follows
  };
  if (title) push(endSentence(title));
  for (const b of bodyBlocks) {
    if (b.heading !== undefined) headings.push({ level: b.heading, text: b.text, offset });
    push(endSentence(b.text));
  }
  const text = paragraphs.join('\n\n');
  const opt = (v: string | null | undefined) => {
    const c = cleanInline(v ?? '');
    return c ? c : undefined;
  };
  return {
    title,
    text,
    chars: countChars(text),
    headings,
    ...(opt(parsed.byline) ? { byline: opt(parsed.byline) } : {}),
    ...(opt(parsed.siteName) ? { siteName: opt(parsed.siteName) } : {}),
    ...(opt(parsed.lang) ? { lang: opt(parsed.lang) } : {}),
    ...(opt(parsed.excerpt) ? { excerpt: opt(parsed.excerpt) } : {}),
  };
}

// ───────────────────────────── length limit ─────────────────────────────

/** Spoken at the end of a narration that had to stop early: a listener must never be cut short in silence. */
export const TRUNCATION_NOTE =
  'Aquí termina esta narración. El artículo continúa, pero solo se narran sus primeros cien mil caracteres.';

export interface NarrationText {
  text: string;
  chars: number;
  truncated: boolean;
  /** Characters of the whole article text. */
  articleChars: number;
  /** Headings that made it into `text`. */
  headings: Heading[];
}

/**
 * Fits an article into `maxChars` (the same 100,000 that bounds /convert/text: about two hours of speech, what one
 * worker run finishes). Longer articles are cut at the last paragraph (else sentence, else word) boundary that
 * leaves room for TRUNCATION_NOTE, which is appended so the listener hears that the article goes on.
 */
export function fitForNarration(article: Article, maxChars: number): NarrationText {
  if (article.chars <= maxChars)
    return {
      text: article.text,
      chars: article.chars,
      truncated: false,
      articleChars: article.chars,
      headings: article.headings,
    };
  const budget = maxChars - countChars(TRUNCATION_NOTE) - 2;
  const points = Array.from(article.text);
  const head = points.slice(0, budget).join('');
  let cut = head.lastIndexOf('\n\n');
  if (cut < head.length / 2) {
    let sentenceEnd = -1;
    for (const m of head.matchAll(/[.!?…]["»”’)]*\s/g)) sentenceEnd = m.index + m[0].length - 1;
    cut = sentenceEnd > 0 ? sentenceEnd : head.lastIndexOf(' ');
  }
  if (cut <= 0) cut = head.length;
  const kept = head.slice(0, cut).trimEnd();
  const text = `${kept}\n\n${TRUNCATION_NOTE}`;
  const keptChars = countChars(kept);
  return {
    text,
    chars: countChars(text),
    truncated: true,
    articleChars: article.chars,
    headings: article.headings.filter((h) => h.offset < keptChars),
  };
}

// ───────────────────────────── bytes → HTML ─────────────────────────────

/**
 * Decodes a page's bytes: BOM, then the Content-Type charset, then a <meta charset> / http-equiv in the first
 * 4 KiB, then UTF-8 if the bytes are valid UTF-8, else windows-1252 (older Spanish-language sites still serve
 * Latin-1 without saying so). Labels are WHATWG encoding labels (TextDecoder, full ICU in Node and Lambda).
 */
export function decodeHtml(bytes: Uint8Array, charset?: string): string {
  const tryDecoder = (label: string, fatal = false): string | undefined => {
    try {
      return new TextDecoder(label, { fatal }).decode(bytes);
    } catch {
      return undefined;
    }
  };
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return tryDecoder('utf-8')!;
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return tryDecoder('utf-16be')!;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return tryDecoder('utf-16le')!;
  if (charset) {
    const s = tryDecoder(charset.trim().toLowerCase());
    if (s !== undefined) return s;
  }
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('latin1');
  const meta =
    /<meta[^>]+charset\s*=\s*["']?\s*([\w.:-]+)/i.exec(head)?.[1] ??
    /<meta[^>]+content\s*=\s*["'][^"']*charset\s*=\s*([\w.:-]+)/i.exec(head)?.[1];
  if (meta) {
    const s = tryDecoder(meta.toLowerCase());
    if (s !== undefined) return s;
  }
  return tryDecoder('utf-8', true) ?? tryDecoder('windows-1252')!;
}
