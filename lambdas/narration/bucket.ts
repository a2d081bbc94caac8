// The narration bucket's key layout, defined once (like lib/tables.ts): the stack's lifecycle rules (through the
// manifest, lambdas/narration/routes.ts) expire these prefixes, and the S3 adapter stores under them.
import type { BucketSpec } from '../shared/manifest';

/** Finished audio, downloadable for `days` (the runtime reads the same number as AUDIO_TTL_DAYS). */
export const AUDIO_PREFIX = { prefix: 'audio/', days: 30 } as const;
/**
 * The retention class of a conversion's objects (audio, segments, timings): tagged `retention-days=<n>` when
 * written, so S3 itself deletes them n days after (one lifecycle rule per allowed value below AUDIO_PREFIX.days,
 * which the prefix rule covers). S3 cannot expire a single object at an arbitrary moment: the first request after
 * the record expires deletes them too (use-cases/data-control.ts), and the rule is the backstop.
 */
export const RETENTION_TAG = 'retention-days';
/** `retention_days` a request may ask for (the plan's maximum is the audio prefix's lifecycle). */
export const RETENTION_DAYS = Array.from({ length: AUDIO_PREFIX.days }, (_, i) => i + 1);

/** Texts of queued jobs: they only live until the worker has read them (plus retries). */
export const JOB_TEXT_PREFIX = { prefix: 'jobs/', days: 2 } as const;

/**
 * PDFs sent with a presigned POST (POST /convert/pdf/upload), read once by POST /convert/pdf {upload_id}, which
 * deletes them; whatever is never converted goes after a day.
 */
export const UPLOAD_PREFIX = { prefix: 'uploads/', days: 1 } as const;

/**
 * What a conversion writes and deletes (IAM `bucketPrefixes`): its audio, segments and timings under audio/, a queued
 * job's text under jobs/. Also what deleting an audio removes (AudioStore.removeAll), so the GET routes that delete an
 * expired audio's files get the same two.
 */
export const CONVERSION_PREFIXES = [AUDIO_PREFIX.prefix, JOB_TEXT_PREFIX.prefix] as const;

export const audioKey = (audioId: string, fmt: string): string => `${AUDIO_PREFIX.prefix}${audioId}.${fmt}`;
export const jobTextKey = (audioId: string): string => `${JOB_TEXT_PREFIX.prefix}${audioId}.txt`;
export const uploadKey = (uploadId: string): string => `${UPLOAD_PREFIX.prefix}${uploadId}.pdf`;
/** Segment n (from 0) of a job's audio, written as it lands (MP3 for the HLS playlist); expires with the audio. */
export const segmentKey = (audioId: string, n: number, fmt = 'mp3'): string =>
  `${AUDIO_PREFIX.prefix}${audioId}/seg/${n}.${fmt}`;
/** The job's word/sentence timings (GET /audio/{id}/timings). */
export const timingsKey = (audioId: string): string => `${AUDIO_PREFIX.prefix}${audioId}/timings.json`;

export const narrationBucket: BucketSpec = {
  id: 'AudioBucket',
  envVar: 'AUDIO_BUCKET',
  accessLogPrefix: 'audio-bucket/',
  expire: [
    { id: 'expire-audio', ...AUDIO_PREFIX },
    // One rule per shorter retention (30 of S3's 1,000 rules): objects tagged retention-days=<n> go after n days.
    ...RETENTION_DAYS.filter((d) => d < AUDIO_PREFIX.days).map((d) => ({
      id: `expire-audio-retention-${d}d`,
      prefix: AUDIO_PREFIX.prefix,
      days: d,
      tag: { key: RETENTION_TAG, value: String(d) },
    })),
    { id: 'expire-job-texts', ...JOB_TEXT_PREFIX },
    { id: 'expire-uploads', ...UPLOAD_PREFIX },
  ],
  // The embeddable player (/embed.js on any site) fetches audio through the presigned URL GET /audio/{id}
  // redirects to. Objects stay private: CORS only lets pages read what a presigned URL already grants, and (uploads)
  // send the presigned POST of POST /convert/pdf/upload from a browser.
  cors: {
    allowedHeaders: ['Range'],
    exposedHeaders: ['Content-Length', 'Content-Range', 'Accept-Ranges', 'ETag'],
    uploads: true,
  },
  environment: { AUDIO_TTL_DAYS: String(AUDIO_PREFIX.days) },
};
