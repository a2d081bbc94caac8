// Client of the Narration API: narrate text, an article URL or a PDF (the presigned upload path for PDFs too large
// for one request), wait for long narrations (202 → GET /audio/{id} polled at its Retry-After), download the audio,
// timings (JSON or WebVTT), pronunciation lexicons, the completion webhook endpoint and publisher feeds (RSS, Atom
// or a sitemap narrated as it publishes, with the podcast feed of its audio).
import { JobFailedError, ConflictError, PayloadTooLargeError, VozError } from './errors';
import { Transport, toBlob, type ClientOptions, type PollOptions } from './http';
import type * as N from './generated/narration';

export type * as NarrationTypes from './generated/narration';

export const DEFAULT_NARRATION_URL = 'http://127.0.0.1:3000';
/**
 * PDFs above this go through the upload path: a synchronous Lambda invoke carries 6 MB with the body base64-encoded
 * (~4.5 MB of file, the API's 413 limit), less a margin for the multipart envelope.
 */
export const DIRECT_PDF_MAX_BYTES = 4_600_000;

export type Voice = N.Voices_200[number];
/** A finished conversion. */
export type Conversion = Extract<N.ConvertText_200, { audio_id: string }> | N.GetAudio_200;
/** A conversion still being made (202). */
export type PendingConversion = N.ConvertText_202;
export type Preview = Extract<N.ConvertText_200, { dry_run: true }>;
export type UploadSlot = N.ConvertPdfUpload_201;
export type Timings = N.GetTimings_200;
export type Lexicon = N.LexiconGet_200;
export type WebhookEndpoint = N.WebhookGet_200;
export type Feed = N.FeedCreate_201;
export type FeedWithArticles = N.FeedGet_200;

export interface Progress {
  status: string;
  progress: number;
}

export interface WaitOptions extends PollOptions {
  /** Called at each poll while the audio is being made. */
  onProgress?: (p: Progress) => void;
}

export interface NarrateOptions extends WaitOptions {
  /** Wait for a long narration (202) to finish (default true); false answers the 202 body. */
  wait?: boolean;
  /** Your own Idempotency-Key (default: a new one per call, repeated on its retries). */
  idempotencyKey?: string;
}

export type PdfInput = Uint8Array | ArrayBuffer | Blob;
export interface PdfOptions extends NarrateOptions {
  voice?: string;
  fmt?: 'mp3' | 'wav' | 'ogg';
  retention_days?: number;
  filename?: string;
  /** `auto` (default): the upload path above DIRECT_PDF_MAX_BYTES or when the API answers 413. */
  via?: 'auto' | 'direct' | 'upload';
  /** Called with the upload's stage (slot, sending, converting) on the upload path. */
  onUpload?: (stage: 'slot' | 'sending' | 'converting', bytes: number) => void;
}

/** The audio id in an id, `/audio/<id>.mp3` or a full audio URL. */
export function audioIdOf(idOrUrl: string): string {
  const m = /\/audio\/([^/?#]+)/.exec(idOrUrl);
  return (m ? m[1]! : idOrUrl).replace(/\.(mp3|wav|ogg)$/, '');
}

export class NarrationClient {
  readonly http: Transport;

  constructor(options: ClientOptions = {}) {
    this.http = new Transport(DEFAULT_NARRATION_URL, options);
  }

  /** GET /voices */
  voices(): Promise<Voice[]> {
    return this.http.json('GET', '/voices');
  }

  /** POST /convert/text (waits for a long text unless `wait: false`). */
  narrateText(req: N.ConvertText_Request, opts?: NarrateOptions & { wait?: true }): Promise<Conversion>;
  narrateText(req: N.ConvertText_Request, opts: NarrateOptions): Promise<Conversion | PendingConversion>;
  narrateText(req: N.ConvertText_Request, opts: NarrateOptions = {}) {
    return this.convert('/convert/text', req, opts);
  }

  /** POST /convert/url: the article at `req.url` (its title in the result). */
  narrateUrl(req: N.ConvertUrl_Request, opts?: NarrateOptions & { wait?: true }): Promise<Conversion>;
  narrateUrl(req: N.ConvertUrl_Request, opts: NarrateOptions): Promise<Conversion | PendingConversion>;
  narrateUrl(req: N.ConvertUrl_Request, opts: NarrateOptions = {}) {
    return this.convert('/convert/url', req, opts);
  }

  /** ?dry_run=true: what would be read (reading rules applied), chapters and estimates; nothing is charged. */
  preview(req: N.ConvertText_Request): Promise<Preview> {
    return this.http.json('POST', '/convert/text', { json: req, query: { dry_run: true } });
  }

  /** POST /convert/pdf: a PDF of up to 20 MB; large ones through the presigned upload path. */
  async narratePdf(file: PdfInput, opts: PdfOptions = {}): Promise<Conversion | PendingConversion> {
    const blob = toBlob(file, 'application/pdf');
    const via = opts.via ?? 'auto';
    if (via === 'upload' || (via === 'auto' && blob.size > DIRECT_PDF_MAX_BYTES))
      return this.narratePdfUpload(blob, opts);
    const form = new FormData();
    form.set('file', blob, opts.filename ?? 'documento.pdf');
    if (opts.voice) form.set('voice', opts.voice);
    if (opts.fmt) form.set('fmt', opts.fmt);
    if (opts.retention_days !== undefined) form.set('retention_days', String(opts.retention_days));
    try {
      const res = await this.http.request('POST', '/convert/pdf', {
        body: form,
        idempotent: true,
        idempotencyKey: opts.idempotencyKey,
      });
      return this.settle((await res.json()) as Conversion | PendingConversion, res.status, opts);
    } catch (err) {
      if (via === 'auto' && err instanceof PayloadTooLargeError) return this.narratePdfUpload(blob, opts);
      throw err;
    }
  }

  /** POST /convert/pdf/upload: an upload slot (a presigned S3 POST) for one PDF. */
  createPdfUpload(idempotencyKey?: string): Promise<UploadSlot> {
    return this.http.json('POST', '/convert/pdf/upload', { idempotent: true, idempotencyKey });
  }

  /** Sends a PDF to a slot's presigned POST (straight to S3; no API key goes there). */
  sendToSlot(slot: UploadSlot, file: PdfInput): Promise<void> {
    return this.http.sendPresigned(slot.upload, toBlob(file, 'application/pdf'), 'documento.pdf');
  }

  /** The upload path: slot → file to S3 → POST /convert/pdf {upload_id}. */
  async narratePdfUpload(file: PdfInput, opts: PdfOptions = {}): Promise<Conversion | PendingConversion> {
    const blob = toBlob(file, 'application/pdf');
    opts.onUpload?.('slot', blob.size);
    const slot = await this.createPdfUpload();
    opts.onUpload?.('sending', blob.size);
    await this.sendToSlot(slot, blob);
    opts.onUpload?.('converting', blob.size);
    const body: N.ConvertPdf_Request = { upload_id: slot.upload_id };
    if (opts.voice) body.voice = opts.voice;
    if (opts.fmt) body.fmt = opts.fmt;
    if (opts.retention_days !== undefined) body.retention_days = opts.retention_days;
    return this.convert('/convert/pdf', body, opts);
  }

  /** GET /audio/{id} as JSON until the audio exists (202 → wait Retry-After → again); 409 → JobFailedError. */
  async waitForAudio(idOrUrl: string, opts: WaitOptions = {}): Promise<N.GetAudio_200> {
    const id = audioIdOf(idOrUrl);
    try {
      return await this.http.poll<N.GetAudio_200>(
        `/audio/${encodeURIComponent(id)}`,
        { ...opts, allow: [202] },
        (res, b) => {
          if (res.status === 200) return { done: b as N.GetAudio_200 };
          const body = b as N.GetAudio_202;
          opts.onProgress?.({ status: body.status, progress: body.progress });
          return { waiting: body.status };
        },
      );
    } catch (err) {
      if (err instanceof ConflictError)
        throw new JobFailedError(err.message, {
          status: 409,
          code: err.code,
          detail: err.detail,
          requestId: err.requestId,
          body: err.body,
        });
      throw err;
    }
  }

  /** The audio file's bytes (waits for it first). */
  async download(idOrUrl: string, opts: WaitOptions = {}): Promise<Uint8Array> {
    const done = await this.waitForAudio(idOrUrl, opts);
    const res = await this.http.request('GET', done.url, {
      auth: false,
      headers: { accept: '*/*' },
      signal: opts.signal,
    });
    return new Uint8Array(await res.arrayBuffer());
  }

  /** GET /audio/{id}/timings: sentence and word timings (JSON), waiting for the audio first. */
  async timings(idOrUrl: string, opts?: WaitOptions & { format?: 'json' }): Promise<Timings>;
  async timings(idOrUrl: string, opts: WaitOptions & { format: 'vtt' }): Promise<string>;
  async timings(idOrUrl: string, opts: WaitOptions & { format?: 'json' | 'vtt' } = {}) {
    const id = audioIdOf(idOrUrl);
    await this.waitForAudio(id, opts);
    const res = await this.http.request('GET', `/audio/${encodeURIComponent(id)}/timings`, {
      query: { format: opts.format },
      headers: { accept: opts.format === 'vtt' ? 'text/vtt' : 'application/json' },
    });
    return opts.format === 'vtt' ? res.text() : res.json();
  }

  /** DELETE /audio/{id}: the audio and its files (owner only). */
  async deleteAudio(idOrUrl: string): Promise<void> {
    await this.http.request('DELETE', `/audio/${encodeURIComponent(audioIdOf(idOrUrl))}`);
  }

  /** Pronunciation lexicons (paid keys). */
  readonly lexicons = {
    list: (): Promise<N.LexiconList_200> => this.http.json('GET', '/v1/lexicons'),
    get: (name: string): Promise<Lexicon> =>
      this.http.json('GET', `/v1/lexicons/${encodeURIComponent(name)}`),
    put: (name: string, lexicon: N.LexiconPut_Request): Promise<N.LexiconPut_200 | N.LexiconPut_201> =>
      this.http.json('PUT', `/v1/lexicons/${encodeURIComponent(name)}`, { json: lexicon }),
    delete: async (name: string): Promise<void> => {
      await this.http.request('DELETE', `/v1/lexicons/${encodeURIComponent(name)}`);
    },
  };

  /** The account's completion webhook (audio.completed / audio.failed, signed Voz-Signature). */
  readonly webhooks = {
    get: (): Promise<WebhookEndpoint> => this.http.json('GET', '/v1/webhook'),
    /** Registers (201, with `secret` once) or changes (200) the endpoint. */
    put: (req: N.WebhookPut_Request): Promise<N.WebhookPut_201 | N.WebhookPut_200> =>
      this.http.json('PUT', '/v1/webhook', { json: req }),
    delete: async (): Promise<void> => {
      await this.http.request('DELETE', '/v1/webhook');
    },
    rotateSecret: (): Promise<N.WebhookRotateSecret_200> =>
      this.http.json('POST', '/v1/webhook/rotate-secret'),
  };

  /**
   * Publisher feeds (paid keys): an RSS, Atom or sitemap address polled every 15 minutes; each new or changed
   * article is narrated, and the feed's narrations are a podcast (the feed's `podcast_url`: absolute, public).
   */
  readonly feeds = {
    /** POST /v1/feeds: registers the feed and polls it at once. */
    create: (req: N.FeedCreate_Request): Promise<Feed> => this.http.json('POST', '/v1/feeds', { json: req }),
    list: (): Promise<N.FeedList_200> => this.http.json('GET', '/v1/feeds'),
    /** The feed, its last poll and the articles it lists now (status, audio_id, narrations). */
    get: (feedId: string): Promise<FeedWithArticles> => this.http.json('GET', this.feedPath(feedId)),
    /** Pauses (audio and podcast stay) or resumes polling. */
    setStatus: (feedId: string, status: N.FeedUpdate_Request['status']): Promise<N.FeedUpdate_200> =>
      this.http.json('PATCH', this.feedPath(feedId), { json: { status } }),
    /** POST /v1/feeds/{id}/poll: a poll now (e.g. right after publishing); answered before it runs. */
    poll: (feedId: string): Promise<N.FeedPoll_202> =>
      this.http.json('POST', `${this.feedPath(feedId)}/poll`),
    /** Deletes the feed; `audio: 'delete'` also deletes the narrations it made (default: kept to retention). */
    delete: (feedId: string, opts: { audio?: 'keep' | 'delete' } = {}): Promise<N.FeedDelete_200> =>
      this.http.json('DELETE', this.feedPath(feedId), { query: { audio: opts.audio } }),
    /** The podcast RSS itself (RSS 2.0, iTunes and Podcasting 2.0). */
    podcast: async (feedId: string): Promise<string> => {
      const res = await this.http.request('GET', `/feeds/${encodeURIComponent(feedId)}/podcast.xml`, {
        headers: { accept: 'application/rss+xml' },
      });
      return res.text();
    },
  };

  private feedPath(feedId: string): string {
    return `/v1/feeds/${encodeURIComponent(feedId)}`;
  }

  private async convert(
    path: string,
    req: unknown,
    opts: NarrateOptions,
  ): Promise<Conversion | PendingConversion> {
    const res = await this.http.request('POST', path, {
      json: req,
      idempotent: true,
      idempotencyKey: opts.idempotencyKey,
      signal: opts.signal,
    });
    return this.settle((await res.json()) as Conversion | PendingConversion, res.status, opts);
  }

  private async settle(
    body: Conversion | PendingConversion,
    status: number,
    opts: NarrateOptions,
  ): Promise<Conversion | PendingConversion> {
    if (status !== 202 || opts.wait === false) return body;
    const done = await this.waitForAudio(body.audio_id, opts);
    return { ...body, ...done };
  }
}

export { VozError };
