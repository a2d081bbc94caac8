// Client of the Documents API: render any template or your own HTML to any of the ten formats (the file's bytes,
// also when the API answers 303 to a download link), async jobs (Scale: 202 → GET /v1/jobs/{id} polled at its
// Retry-After → download), merges of several documents into one PDF, batches of CFDI (a zip through the presigned
// upload, or a list of XML → one zip of PDFs and summaries), templates, pricing and the webhook endpoint.
import { JobFailedError, type ErrorItem } from './errors';
import { Transport, toBlob, type ClientOptions, type PollOptions } from './http';
import type * as D from './generated/documents';

export type * as DocumentsTypes from './generated/documents';

export const DEFAULT_DOCUMENTS_URL = 'http://127.0.0.1:3001';
export const FORMATS = ['pdf', 'xlsx', 'csv', 'html', 'json', 'md', 'txt', 'png', 'docx', 'zip'] as const;
export type Format = (typeof FORMATS)[number];

export type RenderRequest = D.Render_Request;
export type Job = D.GetJob_200;
export type AcceptedJob = D.Render_202;
export type BatchUploadSlot = D.BatchUpload_201;
export type BatchRequest = D.StartBatch_Request;
export type Batch = D.GetBatch_200;
/** What a batch prints: a zip of CFDI (sent through the upload path) or the XML documents themselves. */
export type BatchInput = { zip: Uint8Array | ArrayBuffer | Blob } | { xml: string[] };

export interface RenderedDocument {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition (e.g. factura.pdf). */
  filename: string;
  /** CFDI warnings (X-CFDI-Avisos), when the API sent any. */
  warnings: string[];
}

export interface JobWaitOptions extends PollOptions {
  onProgress?: (job: Job) => void;
}

export interface BatchWaitOptions extends PollOptions {
  onProgress?: (batch: Batch) => void;
}

export interface RenderOptions extends JobWaitOptions {
  idempotencyKey?: string;
}

function filenameOf(res: Response, fallback: string): string {
  const cd = res.headers.get('content-disposition') ?? '';
  const star = /filename\*=UTF-8''([^;]+)/i.exec(cd);
  if (star) return decodeURIComponent(star[1]!);
  const plain = /filename="?([^";]+)"?/i.exec(cd);
  return plain ? plain[1]! : fallback;
}

export class DocumentsClient {
  readonly http: Transport;

  constructor(options: ClientOptions = {}) {
    this.http = new Transport(DEFAULT_DOCUMENTS_URL, options);
  }

  /**
   * POST /v1/render: the document. With `options.async` (Scale plan) the job is awaited and its document
   * downloaded, so the answer is the same; use renderAsync() to get the job instead.
   */
  async render(req: RenderRequest, opts: RenderOptions = {}): Promise<RenderedDocument> {
    const res = await this.http.request('POST', '/v1/render', {
      json: req,
      idempotent: true,
      idempotencyKey: opts.idempotencyKey,
      headers: { accept: '*/*' },
      signal: opts.signal,
    });
    if (res.status === 202) {
      const job = await this.waitForJob(((await res.json()) as AcceptedJob).id, opts);
      return this.downloadJob(job);
    }
    const fallback = `${req.template ?? 'documento'}.${req.format}`;
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: res.headers.get('content-type') ?? 'application/octet-stream',
      filename: filenameOf(res, req.documents ? 'documentos.pdf' : fallback),
      warnings: (res.headers.get('x-cfdi-avisos') ?? '')
        .split(';')
        .map((s) => s.trim())
        .filter(Boolean),
    };
  }

  /** Merges several documents (1–20 parts) into one PDF, one bookmark per part. */
  merge(
    documents: Record<string, unknown>[],
    options: RenderRequest['options'] = undefined,
    opts: RenderOptions = {},
  ): Promise<RenderedDocument> {
    return this.render({ format: 'pdf', documents, ...(options ? { options } : {}) }, opts);
  }

  /** POST /v1/render with options.async: the accepted job (202), not waited for. */
  renderAsync(req: RenderRequest, opts: { idempotencyKey?: string } = {}): Promise<AcceptedJob> {
    return this.http.json('POST', '/v1/render', {
      json: { ...req, options: { ...req.options, async: true } },
      idempotent: true,
      idempotencyKey: opts.idempotencyKey,
    });
  }

  /** GET /v1/jobs/{id} */
  job(id: string): Promise<Job> {
    return this.http.json('GET', `/v1/jobs/${encodeURIComponent(id)}`);
  }

  /** Polls the job at its Retry-After until done (answers it) or failed (JobFailedError with the problems). */
  waitForJob(id: string, opts: JobWaitOptions = {}): Promise<Job> {
    return this.untilDone<Job>(`/v1/jobs/${encodeURIComponent(id)}`, opts, (job) => ({
      code: job.problems?.[0]?.type ?? 'job_failed',
      detail: job.problems ?? job.reason,
    }));
  }

  /** The document of a finished job (its presigned download_url; no API key goes there). */
  downloadJob(job: Job): Promise<RenderedDocument> {
    return this.download(job, job.content_type, job.filename ?? `documento.${job.format}`);
  }

  /** POST /v1/batches/upload: a presigned upload slot for one zip of CFDI (≤ 100 MiB, ≤ 5,000 files). */
  createBatchUpload(): Promise<BatchUploadSlot> {
    return this.http.json('POST', '/v1/batches/upload');
  }

  /** Sends the zip to a slot's presigned POST (straight to S3; no API key goes there). */
  sendBatchZip(slot: BatchUploadSlot, zip: Uint8Array | ArrayBuffer | Blob): Promise<void> {
    return this.http.sendPresigned(slot.upload, toBlob(zip, 'application/zip'), 'cfdi.zip');
  }

  /** POST /v1/batches ({upload_id} or {xml}): the batch, queued (202). A retry answers the same batch. */
  startBatch(req: BatchRequest, opts: { idempotencyKey?: string } = {}): Promise<Batch> {
    return this.http.json('POST', '/v1/batches', {
      json: req,
      idempotent: true,
      idempotencyKey: opts.idempotencyKey,
    });
  }

  /** GET /v1/batches/{id}: progress (done, failed, refused of total, eta_s) and, when done, the zip's link. */
  batch(id: string): Promise<Batch> {
    return this.http.json('GET', `/v1/batches/${encodeURIComponent(id)}`);
  }

  /** Polls the batch at its Retry-After until done (answers it) or failed (JobFailedError with the reason). */
  waitForBatch(id: string, opts: BatchWaitOptions = {}): Promise<Batch> {
    return this.untilDone<Batch>(`/v1/batches/${encodeURIComponent(id)}`, opts, (batch) => ({
      code: 'batch_failed',
      detail: batch.reason,
    }));
  }

  /** The zip of a finished batch: a PDF and the XML per CFDI, resumen.xlsx and resumen.csv. */
  downloadBatch(batch: Batch): Promise<RenderedDocument> {
    return this.download(batch, 'application/zip', batch.filename ?? `${batch.id}.zip`);
  }

  /**
   * A whole batch: the zip through the upload path (or the XML list in the request) → start → wait → the result
   * zip. `onUpload` tells the stage on the upload path.
   */
  async printBatch(
    input: BatchInput,
    opts: BatchWaitOptions & { idempotencyKey?: string; onUpload?: (stage: 'slot' | 'sending') => void } = {},
  ): Promise<{ batch: Batch; zip: RenderedDocument }> {
    let req: BatchRequest;
    if ('zip' in input) {
      opts.onUpload?.('slot');
      const slot = await this.createBatchUpload();
      opts.onUpload?.('sending');
      await this.sendBatchZip(slot, input.zip);
      req = { upload_id: slot.upload_id };
    } else req = { xml: input.xml };
    const started = await this.startBatch(req, opts);
    const batch = await this.waitForBatch(started.id, opts);
    return { batch, zip: await this.downloadBatch(batch) };
  }

  /** GET /templates: every template with its formats and JSON Schema. */
  templates(): Promise<D.Templates_200> {
    return this.http.json('GET', '/templates');
  }

  /** GET /templates/{slug}/source: the template's HTML/Jinja2. */
  async templateSource(slug: string): Promise<string> {
    const res = await this.http.request('GET', `/templates/${encodeURIComponent(slug)}/source`, {
      headers: { accept: 'text/plain' },
    });
    return res.text();
  }

  /** GET /templates/{slug}/sample.pdf */
  async templateSample(slug: string): Promise<Uint8Array> {
    const res = await this.http.request('GET', `/templates/${encodeURIComponent(slug)}/sample.pdf`, {
      headers: { accept: 'application/pdf' },
    });
    return new Uint8Array(await res.arrayBuffer());
  }

  pricing(): Promise<D.Pricing_200> {
    return this.http.json('GET', '/pricing');
  }

  stats(): Promise<D.DocumentStats_200> {
    return this.http.json('GET', '/stats');
  }

  /** The account's webhook endpoint (Scale: document.rendered / document.failed, signed Docs-Signature). */
  readonly webhooks = {
    get: (): Promise<D.WebhookGet_200> => this.http.json('GET', '/v1/webhook'),
    put: (req: D.WebhookPut_Request): Promise<D.WebhookPut_201 | D.WebhookPut_200> =>
      this.http.json('PUT', '/v1/webhook', { json: req }),
    delete: async (): Promise<void> => {
      await this.http.request('DELETE', '/v1/webhook');
    },
    rotateSecret: (): Promise<D.WebhookRotateSecret_200> =>
      this.http.json('POST', '/v1/webhook/rotate-secret'),
  };

  /** Polls a job or batch at `path` until done; failed → JobFailedError with `failure`'s code and detail. */
  private untilDone<T extends { id: string; status: string; reason?: string }>(
    path: string,
    opts: PollOptions & { onProgress?: (x: T) => void },
    failure: (x: T) => { code: string; detail: string | ErrorItem[] | undefined },
  ): Promise<T> {
    return this.http.poll<T>(path, opts, (_res, body) => {
      const x = body as T;
      if (x.status === 'done') return { done: x };
      if (x.status === 'failed')
        throw new JobFailedError(x.reason ?? `${x.id} failed`, { status: 200, body: x, ...failure(x) });
      opts.onProgress?.(x);
      return { waiting: x.status };
    });
  }

  /** A finished job's file from its presigned download_url (no API key goes there). */
  private async download(
    x: { id: string; download_url?: string },
    contentType: string | undefined,
    filename: string,
  ): Promise<RenderedDocument> {
    if (!x.download_url)
      throw new JobFailedError(`${x.id} has no file to download`, { code: 'no_document', body: x });
    const res = await this.http.request('GET', x.download_url, { auth: false, headers: { accept: '*/*' } });
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: contentType ?? res.headers.get('content-type') ?? 'application/octet-stream',
      filename,
      warnings: [],
    };
  }
}
