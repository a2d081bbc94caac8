// Reads a publisher's feed: RSS 2.0, Atom 1.0 or a sitemap (urlset), into the articles it lists. Pure.
//
// Parsed by saxes: strict XML with namespaces and no DTD processing (a DOCTYPE is refused, so no entity expands and
// nothing external is fetched); elements are matched by namespace URI and local name. Bounded: 50,000 elements,
// depth 32, and the newest MAX_ENTRIES entries are kept (by date when the feed gives dates, else its order).
// Each entry gets a `signature`: a hash of what the feed says about it (title, dates, summary/content), so a poll
// can tell a changed entry from an unchanged one without fetching its page.
import { createHash } from 'node:crypto';
import { SaxesParser, type SaxesTagNS } from 'saxes';

export const MAX_ENTRIES = 100;
const MAX_ELEMENTS = 50_000;
const MAX_DEPTH = 32;

const NS_ATOM = 'http://www.w3.org/2005/Atom';
const NS_SITEMAP = 'http://www.sitemaps.org/schemas/sitemap/0.9';
const NS_CONTENT = 'http://purl.org/rss/1.0/modules/content/';

export type FeedKind = 'rss' | 'atom' | 'sitemap';

export interface FeedEntry {
  /** The article's address (absolute, http/https). */
  url: string;
  title?: string;
  /** ISO 8601, when the feed dates it (pubDate/published/updated/lastmod). */
  published?: string;
  /** SHA-256 (hex, 32 chars) of what the feed says about the entry. */
  signature: string;
}

export interface ParsedFeed {
  kind: FeedKind;
  title?: string;
  description?: string;
  language?: string;
  entries: FeedEntry[];
}

/** Not a feed we can read; `message` says why, in words a publisher can act on. */
export class FeedParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FeedParseError';
  }
}

interface El {
  uri: string;
  local: string;
  attrs: Record<string, string>;
  children: El[];
  text: string;
}

function tree(xml: string): El {
  const parser = new SaxesParser({ xmlns: true });
  const stack: El[] = [];
  let root: El | undefined;
  let count = 0;
  parser.on('doctype', () => {
    throw new FeedParseError('The feed declares a DOCTYPE: feeds have no DTD, and DTDs are refused.');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    if (++count > MAX_ELEMENTS)
      throw new FeedParseError(`The feed has more than ${MAX_ELEMENTS} XML elements.`);
    if (stack.length >= MAX_DEPTH)
      throw new FeedParseError(`The feed nests deeper than ${MAX_DEPTH} elements.`);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (!a.uri) attrs[a.local] = a.value;
    const el: El = { uri: tag.uri, local: tag.local, attrs, children: [], text: '' };
    if (stack.length) stack[stack.length - 1]!.children.push(el);
    else root = el;
    stack.push(el);
  });
  const onText = (t: string) => {
    const el = stack[stack.length - 1];
    if (el) el.text += t;
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  parser.on('closetag', () => void stack.pop());
  try {
    parser.write(xml).close();
  } catch (err) {
    if (err instanceof FeedParseError) throw err;
    throw new FeedParseError(`The feed is not well-formed XML (${(err as Error).message.slice(0, 200)}).`);
  }
  if (!root) throw new FeedParseError('The feed is empty.');
  return root;
}

const kids = (el: El, local: string, uri?: string) =>
  el.children.filter((c) => c.local === local && (uri === undefined || c.uri === uri));
const kid = (el: El, local: string, uri?: string) => kids(el, local, uri)[0];
const text = (el: El | undefined) => el?.text.trim() || undefined;

/** An absolute http(s) address, resolved against `base`; undefined otherwise. */
function absolute(href: string | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const u = new URL(href.trim(), base);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
    u.hash = '';
    return u.href;
  } catch {
    return undefined;
  }
}

function isoDate(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  const t = Date.parse(raw);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

const hash = (parts: (string | undefined)[]) =>
  createHash('sha256')
    .update(parts.map((p) => p ?? '').join('\u0000'))
    .digest('hex')
    .slice(0, 32);

/** The newest MAX_ENTRIES, one per URL (the first listed wins), newest first when dated. */
function newest(entries: FeedEntry[]): FeedEntry[] {
  const seen = new Set<string>();
  const unique = entries.filter((e) => !seen.has(e.url) && seen.add(e.url));
  const dated = unique.every((e) => e.published);
  const ordered = dated
    ? [...unique].sort((a, b) => Date.parse(b.published!) - Date.parse(a.published!))
    : unique;
  return ordered.slice(0, MAX_ENTRIES);
}

/** One entry: its address, title and date when the feed gives them, and the signature of what it says. */
function entryOf(
  url: string,
  title: string | undefined,
  published: string | undefined,
  said: (string | undefined)[],
): FeedEntry {
  return { url, ...(title ? { title } : {}), ...(published ? { published } : {}), signature: hash(said) };
}

/** The parsed feed: the channel's title, description and language when given, the entries newest first. */
function feedOf(
  kind: FeedKind,
  channel: { title?: string | undefined; description?: string | undefined; language?: string | undefined },
  entries: FeedEntry[],
): ParsedFeed {
  const { title, description, language } = channel;
  return {
    kind,
    ...(title ? { title } : {}),
    ...(description ? { description } : {}),
    ...(language ? { language } : {}),
    entries: newest(entries),
  };
}

/**
 * The feed's bytes as text: the charset of its Content-Type, else its XML declaration's encoding, else UTF-8 — and
 * windows-1252 when the bytes are not valid UTF-8 (old feeds served as Latin-1 with no declaration).
 */
export function decodeFeed(bytes: Uint8Array, charset?: string): string {
  const head = new TextDecoder('latin1').decode(bytes.subarray(0, 200));
  const declared = charset ?? /^\s*<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  const label = declared?.toLowerCase() ?? 'utf-8';
  try {
    return new TextDecoder(label, { fatal: true }).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** Parses a feed fetched from `base` (relative links resolve against it). Throws FeedParseError. */
export function parseFeed(xml: string, base: string): ParsedFeed {
  const root = tree(xml);
  if (root.local === 'rss' || root.local === 'RDF') {
    const channel = kid(root, 'channel');
    if (!channel && root.local === 'rss') throw new FeedParseError('The RSS feed has no <channel>.');
    // RSS 1.0 (RDF) lists its items next to the channel.
    const items = root.local === 'rss' ? kids(channel!, 'item') : kids(root, 'item');
    const entries: FeedEntry[] = [];
    for (const item of items) {
      const guid = kid(item, 'guid');
      const permalink = guid && guid.attrs.isPermaLink !== 'false' ? text(guid) : undefined;
      const url = absolute(text(kid(item, 'link')) ?? permalink, base);
      if (!url) continue;
      const title = text(kid(item, 'title'));
      const published = isoDate(text(kid(item, 'pubDate')) ?? text(kid(item, 'date')));
      const said = [title, published, text(kid(item, 'description')), text(kid(item, 'encoded', NS_CONTENT))];
      entries.push(entryOf(url, title, published, said));
    }
    return feedOf(
      'rss',
      channel
        ? {
            title: text(kid(channel, 'title')),
            description: text(kid(channel, 'description')),
            language: text(kid(channel, 'language')),
          }
        : {},
      entries,
    );
  }
  if (root.local === 'feed' && root.uri === NS_ATOM) {
    const entries: FeedEntry[] = [];
    for (const entry of kids(root, 'entry', NS_ATOM)) {
      const links = kids(entry, 'link', NS_ATOM);
      const link =
        links.find(
          (l) => (l.attrs.rel ?? 'alternate') === 'alternate' && /html/.test(l.attrs.type ?? 'html'),
        ) ?? links.find((l) => (l.attrs.rel ?? 'alternate') === 'alternate');
      const url = absolute(link?.attrs.href, root.attrs['base'] ?? base);
      if (!url) continue;
      const title = text(kid(entry, 'title', NS_ATOM));
      const updated = isoDate(text(kid(entry, 'updated', NS_ATOM)));
      const published = isoDate(text(kid(entry, 'published', NS_ATOM))) ?? updated;
      const said = [
        title,
        updated ?? published,
        text(kid(entry, 'summary', NS_ATOM)),
        text(kid(entry, 'content', NS_ATOM)),
      ];
      entries.push(entryOf(url, title, published, said));
    }
    const channel = {
      title: text(kid(root, 'title', NS_ATOM)),
      description: text(kid(root, 'subtitle', NS_ATOM)),
      language: root.attrs['lang'],
    };
    return feedOf('atom', channel, entries);
  }
  if (root.local === 'urlset' && root.uri === NS_SITEMAP) {
    const entries: FeedEntry[] = [];
    for (const u of kids(root, 'url', NS_SITEMAP)) {
      const url = absolute(text(kid(u, 'loc', NS_SITEMAP)), base);
      if (!url) continue;
      const published = isoDate(text(kid(u, 'lastmod', NS_SITEMAP)));
      entries.push(entryOf(url, undefined, published, [url, published]));
    }
    return feedOf('sitemap', {}, entries);
  }
  if (root.local === 'sitemapindex')
    throw new FeedParseError(
      'This is a sitemap index: register one of the sitemaps it lists (the one with your articles).',
    );
  throw new FeedParseError(
    `The document is <${root.local}>, not an RSS 2.0 or Atom feed or a sitemap (<rss>, <feed>, <urlset>).`,
  );
}
