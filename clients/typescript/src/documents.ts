// Client of the Documents API: render any template or your own HTML to any of the ten formats (the file's bytes,
// also when the API answers 303 to a download link), async jobs (Scale: 202 → GET /v1/jobs/{id} polled at its
// Retry-After → download), merges of several documents into one PDF, templates, pricing and the webhook endpoint.
import { JobFailedError, WaitTimeoutError } from './errors';
import { Transport, sleep, type ClientOptions } from './http';
import type * as D from './generated/documents';

export type * as DocumentsTypes from './generated/documents';

export const DEFAULT_DOCUMENTS_URL = 'http://127.0.0.1:3001';
export const FORMATS = ['pdf', 'xlsx', 'csv', 'html', 'json', 'md', 'txt', 'png', 'docx', 'zip'] as const;
export type Format = (typeof FORMATS)[number];

export type RenderRequest = D.Render_Request;
export type Job = D.GetJob_200;
export type AcceptedJob = D.Render_202;

export interface RenderedDocument {
  bytes: Uint8Array;
  contentType: string;
  /** From Content-Disposition (e.g. factura.pdf). */
  filename: string;
  /** CFDI warnings (X-CFDI-Avisos), when the API sent any. */
  warnings: string[];
}

export interface JobWaitOptions {
  timeoutMs?: number;
  onProgress?: (job: Job) => void;
  signal?: AbortSignal;
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
  async waitForJob(id: string, opts: JobWaitOptions = {}): Promise<Job> {
    const deadline = Date.now() + (opts.timeoutMs ?? 600_000);
    for (;;) {
      const res = await this.http.request('GET', `/v1/jobs/${encodeURIComponent(id)}`, {
        signal: opts.signal,
      });
      const job = (await res.json()) as Job;
      if (job.status === 'done') return job;
      if (job.status === 'failed')
        throw new JobFailedError(job.reason ?? `job ${id} failed`, {
          status: 200,
          code: job.problems?.[0]?.type ?? 'job_failed',
          detail: job.problems ?? job.reason,
          body: job,
        });
      opts.onProgress?.(job);
      const left = deadline - Date.now();
      if (left <= 0)
        throw new WaitTimeoutError(`job ${id} still ${job.status}`, { code: 'wait_timeout', body: job });
      await sleep(Math.min((Number(res.headers.get('retry-after')) || 1) * 1000, left), opts.signal);
    }
  }

  /** The document of a finished job (its presigned download_url; no API key sent there). */
  async downloadJob(job: Job): Promise<RenderedDocument> {
    if (!job.download_url)
      throw new JobFailedError(`job ${job.id} has no document`, { code: 'no_document', body: job });
    const res = await this.http.request('GET', job.download_url, { auth: false, headers: { accept: '*/*' } });
    return {
      bytes: new Uint8Array(await res.arrayBuffer()),
      contentType: job.content_type ?? res.headers.get('content-type') ?? 'application/octet-stream',
      filename: job.filename ?? `documento.${job.format}`,
      warnings: [],
    };
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
}
