// The podcast side of publisher feeds (public, no key: podcast apps fetch them): the RSS feed of a feed's narrated
// articles and each audio's JSON chapters. Handlers: podcast.ts, audio-chapters.ts. routes.ts lists them.
import { z } from 'zod';
import type { RouteSpec } from '../../shared/manifest';
import { CONVERSION_PREFIXES } from '../bucket';
import { ErrorDetail } from '../api/schemas';

export const podcastRoute = {
  id: 'FeedPodcast',
  method: 'GET',
  path: '/feeds/{feed_id}/podcast.xml',
  handler: 'lambdas/narration/handlers/podcast.ts',
  memoryMb: 256,
  timeoutS: 10,
  access: { tables: { feeds: 'r', audio: 'r' } },
  docs: {
    summary: 'Podcast RSS of a feed',
    tags: ['feeds'],
    description:
      'RSS 2.0 with the iTunes and Podcasting 2.0 namespaces: one item per narrated article the feed lists now ' +
      '(newest first): enclosure (the audio, exact byte length and type), itunes:duration, a guid stable per ' +
      'article, podcast:transcript (WebVTT from the timings), podcast:chapters (JSON chapters from the headings); ' +
      "the show's title, author, category, language and artwork as the publisher set them. Cache-Control public, " +
      'max-age=300; weak ETag (304 on If-None-Match).',
    params: [{ name: 'feed_id', in: 'path', required: true, description: 'The feed id (fd_…)' }],
    responses: {
      200: { description: 'The podcast feed', contentType: 'application/rss+xml' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
      404: { description: 'No such feed', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;

export const JsonChapters = z.object({
  version: z.literal('1.2.0'),
  title: z.string().optional(),
  chapters: z.array(z.object({ startTime: z.number(), title: z.string() })),
});

export const audioChaptersRoute = {
  id: 'AudioChapters',
  method: 'GET',
  path: '/audio/{audio_id}/chapters.json',
  handler: 'lambdas/narration/handlers/audio-chapters.ts',
  memoryMb: 256,
  timeoutS: 5,
  access: { tables: { audio: 'r' }, bucket: 'r+delete', bucketPrefixes: CONVERSION_PREFIXES },
  docs: {
    summary: 'Chapters of an audio (Podcasting 2.0 JSON)',
    tags: ['narration'],
    description:
      'The headings of the narrated text with their real start, as Podcasting 2.0 JSON chapters ' +
      '(`application/json+chapters`, version 1.2.0): what podcast:chapters points at.',
    params: [{ name: 'audio_id', in: 'path', required: true, description: 'audio_id (no extension)' }],
    responses: {
      200: { description: 'The chapters', schema: JsonChapters, contentType: 'application/json+chapters' },
      202: { description: 'Still being made' },
      404: { description: 'Unknown audio', schema: ErrorDetail },
      409: { description: 'The conversion failed', schema: ErrorDetail },
      410: { description: 'Past its retention', schema: ErrorDetail },
    },
  },
} satisfies RouteSpec;
