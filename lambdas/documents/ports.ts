// Ports of the documents service: the records and stores its use cases talk to (adapters in ./adapters, in-memory
// fakes in test/fakes/documents.ts), and the renderer the render pipeline is given (RenderDeps) with the document it
// yields (RenderedDocument). The queue and webhook-store ports are the platform's (lambdas/shared/webhooks). Ports
// import no use case (.dependency-cruiser.cjs `ports-import-no-use-case`).
import type { LeasedJobStore } from '../shared/jobs/leased-job';
import type { WindowSlot } from '../shared/quota/windows';
import type { DeliveryAttempt as SharedDeliveryAttempt } from '../shared/webhooks/delivery';
import type { DocumentsPlan } from './core/plans';
import type { WebhookEventType } from './core/webhook-events';
import type { DocumentProblem } from './errors';
import type { PdfOptions, PngOptions } from './render/page-options';

/** How a template renders: its name in messages, where its errors point, the partials it may include. */
export interface TemplateRenderOptions {
  /** Name shown in messages (the request field). */
  name?: string;
  /** Where errors point in the request body. */
  loc?: (string | number)[];
  /** Built-in partials the template may include/import/extend, name → source. */
  partials?: Record<string, string>;
}

/** Renders a caller's Jinja2 template in isolation (templating/sandbox.ts `TemplateSandbox`). */
export interface TemplateRenderer {
  render(source: string, data: unknown, options?: TemplateRenderOptions): Promise<string>;
}

/** What the render pipeline needs: Chromium (injected, so the pipeline and its tests run without a browser). */
export interface RenderDeps {
  /** Chromium: HTML → PDF bytes (Renderer.renderPdf of lambdas/documents/render/chromium.ts). */
  renderPdf(html: string, options: PdfOptions): Promise<Buffer>;
  /** Chromium: HTML → PNG bytes (Renderer.renderPng). */
  renderPng(html: string, options: PngOptions): Promise<Buffer>;
  /** The sandbox for callers' templates; defaults to the process-wide one. */
  sandbox?: TemplateRenderer;
  /**
   * How built-in templates render: 'trusted' (in-process node:vm realm, compiled once; default) or 'sandbox'
   * (the same isolate as callers' templates). See bench/template-sandbox.bench.ts.
   */
  builtInEngine?: 'trusted' | 'sandbox';
}

/** A rendered document: what POST /v1/render answers and an async job stores. */
export interface RenderedDocument {
  bytes: Buffer;
  contentType: string;
  /** For Content-Disposition, e.g. `factura.pdf`. */
  filename: string;
  /** What the re-checks of an XML input found (the X-CFDI-Avisos header); absent when nothing. */
  warnings?: string[];
  /** Complements of an XML input printed as generic sections (X-CFDI-Complementos-No-Reconocidos); absent when none. */
  unknownComplements?: string[];
}

export type JobStatus = 'queued' | 'rendering' | 'done' | 'failed';
export type { WebhookEventType };

/** Where a finished document is stored. */
export interface JobResult {
  key: string;
  filename: string;
  contentType: string;
  bytes: number;
}

/** One webhook delivery attempt, as recorded on the job (GET /v1/jobs/{id} shows them). */
export type DeliveryAttempt = SharedDeliveryAttempt<WebhookEventType>;

export interface JobRecord {
  jobId: string;
  /** The account (or, for keys without one, the key) the job belongs to: see ownerOf(). */
  owner: string;
  plan: DocumentsPlan;
  status: JobStatus;
  /** 0..1 */
  progress: number;
  /** Built-in template slug, or null for custom_html. */
  template: string | null;
  format: string;
  createdAt: string;
  updatedAt: string;
  completedAt?: string;
  /**
   * Epoch seconds: DynamoDB's TTL removes the record (and the bucket's results/ lifecycle the file). A day after
   * `resultExpiresAt` for jobs made since expires_in exists, so a late caller learns 410 rather than 404.
   */
  expiresAt: number;
  /**
   * Epoch seconds: until when the job and its result are available (options.expires_in, default a day); after
   * it GET /v1/jobs/{id} answers 410 and deletes the file. Absent on older jobs: expiresAt.
   */
  resultExpiresAt?: number;
  /** Render attempts so far (SQS receive count seen). */
  attempts?: number;
  /** Epoch seconds until which the current render worker owns the job. */
  leaseUntil?: number;
  result?: JobResult;
  /** Why it failed, in words the caller can act on. */
  error?: string;
  /** The caller's problems when the request could not be rendered as sent (like a synchronous 400's detail). */
  problems?: DocumentProblem[];
  /** The quota windows charged at acceptance (given back once if the job fails). */
  charged: WindowSlot[];
  /** The webhook event of this job's outcome (only when an endpoint subscribed to it when the job finished). */
  event?: { id: string; type: WebhookEventType; queued: boolean };
  deliveries?: DeliveryAttempt[];
  /**
   * The caller's `metadata` of the render request as JSON text, echoed on the job and its webhook events. Text, not
   * a map: DynamoDB numbers cannot hold every JSON number (1e200, integers beyond 2^53 lose digits or fail).
   */
  metadata?: string;
  /**
   * The key that opens the sealed secrets (options.password) of the stored request (use-cases/job-secrets.ts):
   * only here, never in S3 next to what it opens. Never shown to callers.
   */
  requestSecret?: string;
}

/**
 * Async render jobs: the leased-job store of the shared engine (claimed jobs are `rendering`; complete and fail
 * are given completedAt, result, event, problems), plus the job's webhook event and delivery log.
 */
export interface JobRepository extends LeasedJobStore<JobRecord> {
  markEventQueued(jobId: string): Promise<void>;
  /** Appends a delivery attempt (bounded: at most MAX_RECORDED_DELIVERIES are kept). */
  addDelivery(jobId: string, attempt: DeliveryAttempt): Promise<void>;
}

/** Render requests of queued jobs and finished documents (S3: jobs/ and results/ in the documents bucket). */
export interface JobFiles {
  putRequest(jobId: string, body: string): Promise<void>;
  getRequest(jobId: string): Promise<string | undefined>;
  deleteRequest(jobId: string): Promise<void>;
  putResult(jobId: string, doc: RenderedDocument): Promise<JobResult>;
  /** A URL that GETs the document for `expiresInS` seconds. */
  presignResult(result: JobResult, expiresInS: number): Promise<string>;
  /** Removes a finished document (its job expired); a missing object is fine. */
  deleteResult(result: JobResult): Promise<void>;
}

/** Keeps a redriven, repeatedly failing delivery from growing the job record without bound. */
export const MAX_RECORDED_DELIVERIES = 50;
