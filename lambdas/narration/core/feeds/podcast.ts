// The podcast feed of a publisher feed (GET /feeds/{id}/podcast.xml): RSS 2.0 with the iTunes namespace (what Apple
// Podcasts and most apps read) and Podcasting 2.0's (transcripts, chapters, guid). Pure: the handler gathers the
// episodes. Built with xmlbuilder2 (escaping and well-formedness are the serializer's, never string concatenation).
import { create } from 'xmlbuilder2';

export const NS_ITUNES = 'http://www.itunes.com/dtds/podcast-1.0.dtd';
export const NS_PODCAST = 'https://podcastindex.org/namespace/1.0';
export const NS_ATOM = 'http://www.w3.org/2005/Atom';

export interface PodcastShow {
  title: string;
  /** The publisher's site (the feed's address when nothing better is known). */
  link: string;
  description: string;
  language: string;
  author?: string;
  category?: string;
  image?: string;
  explicit: boolean;
  /** This feed's own address (atom:link rel=self). */
  selfUrl: string;
  /** podcast:guid: a UUIDv5-like stable id of the show. */
  guid: string;
}

export interface PodcastEpisode {
  /** Stable per article (feed id + article key): apps never list an article twice. */
  guid: string;
  title: string;
  link: string;
  published?: string;
  enclosure: { url: string; bytes: number; type: string };
  durationS: number;
  transcriptUrl?: string;
  chaptersUrl?: string;
}

/** itunes:duration as HH:MM:SS (whole seconds, rounded). */
export function itunesDuration(seconds: number): string {
  const s = Math.round(seconds);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(Math.floor(s / 3600))}:${pad(Math.floor((s % 3600) / 60))}:${pad(s % 60)}`;
}

export function podcastXml(show: PodcastShow, episodes: PodcastEpisode[]): string {
  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  const rss = doc
    .ele('rss', { version: '2.0' })
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:itunes', NS_ITUNES)
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:podcast', NS_PODCAST)
    .att('http://www.w3.org/2000/xmlns/', 'xmlns:atom', NS_ATOM);
  const ch = rss.ele('channel');
  ch.ele('title').txt(show.title);
  ch.ele('link').txt(show.link);
  ch.ele('description').txt(show.description);
  ch.ele('language').txt(show.language);
  ch.ele(NS_ATOM, 'atom:link', { href: show.selfUrl, rel: 'self', type: 'application/rss+xml' });
  ch.ele(NS_PODCAST, 'podcast:guid').txt(show.guid);
  ch.ele(NS_ITUNES, 'itunes:explicit').txt(show.explicit ? 'true' : 'false');
  if (show.author) ch.ele(NS_ITUNES, 'itunes:author').txt(show.author);
  if (show.category) ch.ele(NS_ITUNES, 'itunes:category', { text: show.category });
  if (show.image) {
    ch.ele(NS_ITUNES, 'itunes:image', { href: show.image });
    const img = ch.ele('image');
    img.ele('url').txt(show.image);
    img.ele('title').txt(show.title);
    img.ele('link').txt(show.link);
  }
  for (const e of episodes) {
    const item = ch.ele('item');
    item.ele('title').txt(e.title);
    item.ele('link').txt(e.link);
    item.ele('guid', { isPermaLink: 'false' }).txt(e.guid);
    if (e.published) item.ele('pubDate').txt(new Date(e.published).toUTCString());
    item.ele('enclosure', {
      url: e.enclosure.url,
      length: String(e.enclosure.bytes),
      type: e.enclosure.type,
    });
    item.ele(NS_ITUNES, 'itunes:duration').txt(itunesDuration(e.durationS));
    item.ele(NS_ITUNES, 'itunes:episodeType').txt('full');
    if (e.transcriptUrl)
      item.ele(NS_PODCAST, 'podcast:transcript', {
        url: e.transcriptUrl,
        type: 'text/vtt',
        language: show.language,
      });
    if (e.chaptersUrl)
      item.ele(NS_PODCAST, 'podcast:chapters', { url: e.chaptersUrl, type: 'application/json+chapters' });
  }
  return doc.end({ prettyPrint: true });
}

/** Podcasting 2.0 JSON chapters (version 1.2.0) from the timings' chapters (headings and their real start). */
export function jsonChapters(
  chapters: { title: string; start_s: number }[],
  title?: string,
): { version: '1.2.0'; title?: string; chapters: { startTime: number; title: string }[] } {
  return {
    version: '1.2.0',
    ...(title ? { title } : {}),
    chapters: chapters.map((c) => ({ startTime: Math.round(c.start_s * 1000) / 1000, title: c.title })),
  };
}
