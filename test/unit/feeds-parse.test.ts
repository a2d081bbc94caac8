// core/feeds/parse.ts: RSS 2.0, Atom 1.0 and sitemaps into entries with a signature; every refusal names its reason
// (a DTD, not well-formed XML, a sitemap index, another document); real feeds of three publishers. Pure. Also how the
// player's page is matched to its entry (pageKey) and found in the page (letterOffsets).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { FeedParseError, MAX_ENTRIES, decodeFeed, parseFeed } from '../../lambdas/narration/core/feeds/parse';
import { IS_LETTER, letterOffsets } from '../../lambdas/narration/core/reading';
import { pageKey } from '../../lambdas/narration/use-cases/listens';

const BASE = 'https://diario.example/feed.xml';

const rss = (items: string) => `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"><channel>
<title>Diario</title><link>https://diario.example/</link><description>Noticias &amp; más</description><language>es-MX</language>
${items}</channel></rss>`;

test('RSS 2.0: links resolved, dates ISO, newest first, CDATA content in the signature', () => {
  const feed = parseFeed(
    rss(`
<item><title>Uno</title><link>/a/1</link><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate><description>D1</description></item>
<item><title>Dos</title><guid>https://diario.example/a/2</guid><pubDate>Tue, 24 Nov 2026 10:00:00 +0000</pubDate>
<content:encoded><![CDATA[<p>Texto <b>dos</b></p>]]></content:encoded></item>
<item><title>Sin enlace</title></item>
<item><title>Otro esquema</title><link>ftp://diario.example/x</link></item>`),
    BASE,
  );
  expect(feed).toMatchObject({
    kind: 'rss',
    title: 'Diario',
    description: 'Noticias & más',
    language: 'es-MX',
  });
  expect(feed.entries.map((e) => [e.url, e.title, e.published])).toEqual([
    ['https://diario.example/a/2', 'Dos', '2026-11-24T10:00:00.000Z'],
    ['https://diario.example/a/1', 'Uno', '2026-11-23T10:00:00.000Z'],
  ]);
  const changed = parseFeed(
    rss(`<item><title>Dos</title><guid>https://diario.example/a/2</guid><pubDate>Tue, 24 Nov 2026 10:00:00 +0000</pubDate>
<content:encoded><![CDATA[<p>Texto <b>dos</b>, corregido</p>]]></content:encoded></item>`),
    BASE,
  );
  expect(changed.entries[0]!.signature).not.toBe(feed.entries[0]!.signature);
  const same = parseFeed(
    rss(`<item><title>Dos</title><guid>https://diario.example/a/2</guid><pubDate>Tue, 24 Nov 2026 10:00:00 +0000</pubDate>
<content:encoded><![CDATA[<p>Texto <b>dos</b></p>]]></content:encoded></item>`),
    BASE,
  );
  expect(same.entries[0]!.signature).toBe(feed.entries[0]!.signature);
});

test('Atom 1.0: the alternate link, updated in the signature, xml:base', () => {
  const atom = (updated: string) => `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="es">
  <title>Blog</title><subtitle>Notas</subtitle>
  <entry><title>Entrada</title><id>urn:1</id>
    <link rel="self" href="https://blog.example/api/1"/><link rel="alternate" type="text/html" href="https://blog.example/1"/>
    <published>2026-11-20T08:00:00Z</published><updated>${updated}</updated><summary>Resumen</summary></entry>
  <entry><title>Relativa</title><id>urn:2</id><link href="/2"/><updated>2026-11-21T08:00:00Z</updated></entry>
</feed>`;
  const a = parseFeed(atom('2026-11-20T09:00:00Z'), 'https://blog.example/feed.atom');
  expect(a).toMatchObject({ kind: 'atom', title: 'Blog', description: 'Notas' });
  expect(a.entries.map((e) => e.url)).toEqual(['https://blog.example/2', 'https://blog.example/1']);
  const b = parseFeed(atom('2026-11-22T09:00:00Z'), 'https://blog.example/feed.atom');
  expect(b.entries[1]!.signature).not.toBe(a.entries[1]!.signature);
  expect(b.entries[0]!.signature).toBe(a.entries[0]!.signature);
});

test('sitemap: loc + lastmod; at most MAX_ENTRIES, newest first; a repeated URL counts once', () => {
  const urls = Array.from(
    { length: MAX_ENTRIES + 20 },
    (_, i) =>
      `<url><loc>https://diario.example/n/${i}</loc><lastmod>2026-11-${String(1 + (i % 28)).padStart(2, '0')}</lastmod></url>`,
  );
  urls.push('<url><loc>https://diario.example/n/0</loc><lastmod>2026-11-01</lastmod></url>');
  const feed = parseFeed(
    `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls.join('')}</urlset>`,
    BASE,
  );
  expect(feed.kind).toBe('sitemap');
  expect(feed.entries).toHaveLength(MAX_ENTRIES);
  expect(new Set(feed.entries.map((e) => e.url)).size).toBe(MAX_ENTRIES);
  expect(feed.entries[0]!.published).toBe('2026-11-28T00:00:00.000Z');
});

test('refusals name the reason: DTD, not well-formed, sitemap index, HTML, empty', () => {
  const cases: [string, RegExp][] = [
    [
      '<?xml version="1.0"?><!DOCTYPE rss [<!ENTITY x "y">]><rss version="2.0"><channel></channel></rss>',
      /DOCTYPE/,
    ],
    ['<rss version="2.0"><channel><item></channel></rss>', /not well-formed XML/],
    ['<rss><channel><title>&nbsp;</title></channel></rss>', /not well-formed XML/],
    [
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://x/s.xml</loc></sitemap></sitemapindex>',
      /sitemap index/,
    ],
    ['<html><body>Hola</body></html>', /not an RSS 2.0 or Atom feed or a sitemap/],
    ['', /empty|not well-formed/],
  ];
  for (const [xml, reason] of cases) {
    let err: unknown;
    try {
      parseFeed(xml, BASE);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FeedParseError);
    expect((err as Error).message).toMatch(reason);
  }
});

describe('real feeds (rss-parser test inputs, MIT: test/fixtures/feeds/README.md)', () => {
  const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'feeds', name));

  test('The Guardian (RSS 2.0, 55 items)', () => {
    const feed = parseFeed(decodeFeed(fixture('guardian.rss')), 'https://www.theguardian.com/');
    expect(feed.kind).toBe('rss');
    expect(feed.title).toBe('The Guardian');
    expect(feed.entries).toHaveLength(55);
    expect(feed.entries.every((e) => e.url.startsWith('https://www.theguardian.com/') && e.published)).toBe(
      true,
    );
    expect(new Set(feed.entries.map((e) => e.signature)).size).toBe(55);
  });

  test('heise (Atom 1.0)', () => {
    const feed = parseFeed(decodeFeed(fixture('heise.atom')), 'https://www.heise.de/');
    expect(feed.kind).toBe('atom');
    expect(feed.entries).toHaveLength(15);
    expect(feed.entries[0]!.title).toBe('Java-Anwendungsserver: Red Hat gibt WildFly 10 frei');
  });

  test('UOL (Latin-1 bytes, no XML declaration, CDATA links): decoded as windows-1252', () => {
    const bytes = fixture('uolNoticias.rss');
    const feed = parseFeed(decodeFeed(bytes), 'https://noticias.uol.com.br/');
    expect(feed.entries).toHaveLength(15);
    expect(feed.entries[0]!.title).toContain('simulações de 2º turno');
    // Negative control: read as UTF-8 the same bytes give replacement characters.
    expect(parseFeed(bytes.toString('utf8'), 'https://x/').entries[0]!.title).toContain('\uFFFD');
  });
});

// ── The player on a publisher's page (use-cases/listens.ts, core/reading.ts letterOffsets) ──

test('a page and its feed entry match without fragment, tracking parameters or trailing slash; others do not', () => {
  const entry = pageKey('https://Diario.example:443/a/1/?id=7')!;
  for (const seen of [
    'https://diario.example/a/1?id=7#comentarios',
    'https://diario.example/a/1/?utm_source=boletin&id=7&fbclid=x',
  ])
    expect(pageKey(seen)).toBe(entry);
  // Negative controls: another article, another query, another scheme, not an address.
  for (const other of [
    'https://diario.example/a/2?id=7',
    'https://diario.example/a/1?id=8',
    'http://diario.example/a/1?id=7',
  ])
    expect(pageKey(other)).not.toBe(entry);
  expect(pageKey('javascript:alert(1)')).toBeUndefined();
  expect(pageKey('no es una dirección')).toBeUndefined();
});

test("letter offsets: a URL narration (blank lines, a full stop after the heading) points at the page's letters", () => {
  const narrated = 'Sequía en la comarca.\n\nLos agricultores esperan. ¿Lloverá?';
  const page = 'Sequía en la comarca Los agricultores esperan. ¿Lloverá?';
  const sentences = [
    { start: 0, end: 23 },
    { start: 23, end: 49 },
    { start: 49, end: narrated.length },
  ];
  const cues = sentences.map((s) => narrated.slice(s.start, s.end));
  const letters = [...page].flatMap((c, i) => (IS_LETTER.test(c) ? [i] : []));
  const onPage = (s: { start: number; end: number }) => page.slice(letters[s.start], letters[s.end - 1]! + 1);
  const out = letterOffsets(sentences, sentences, cues);
  expect(out.map(onPage)).toEqual(['Sequía en la comarca', 'Los agricultores esperan', 'Lloverá']);
  // A word inside the second sentence, and the UTF-16 offsets as a control: they miss on the page.
  const word = { start: narrated.indexOf('esperan'), end: narrated.indexOf('esperan') + 7 };
  expect(onPage(letterOffsets([word], sentences, cues)[0]!)).toBe('esperan');
  expect(page.slice(word.start, word.end)).not.toBe('esperan');
});
