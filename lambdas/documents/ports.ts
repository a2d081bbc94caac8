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
import type { Readable } from 'node:stream';
import type { Refused, ResumenRow } from './core/cfdi-resumen';
import type { Marca } from '../../templates/kit/marca';

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
  /**
   * The charge's id (a request with an Idempotency-Key: idempotentId), so a failed job gives back exactly that
   * charge, once, whichever job or retry asks. Absent on jobs charged without one (a plain unit is given back).
   */
  chargeId?: string;
  /**
   * The hold of its charge (ChargeHold.id): committed by the 202 that accepted the job, or, when that request died
   * after queueing it (the hold given back), by its worker when it delivers (jobs-render.ts: once, by chargeId).
   */
  hold?: string;
  /**
   * Units charged (a merge counts one per part; a batch, its CFDI to print, recorded by its split before the charge:
   * BatchRepository.recordBatchUnits); absent: 1.
   */
  units?: number;
  /**
   * A settled batch: the CFDI its end gives back (use-cases/batch-end.ts), decided by the write that settled it (a
   * done batch's CFDI that failed on our side; a failed one's, all it was charged), so only one refund ever runs.
   */
  refundUnits?: number;
  /**
   * Settled, its end (jobs-render.ts endJob: the charge settled, the event queued, the render counted) not finished:
   * written with the settling write, removed last. A delivery that finds a settled job still `ending` ends it again.
   */
  ending?: true;
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
  /** A CFDI batch (POST /v1/batches): its source and, once split, its plan. Absent on single renders. */
  batch?: BatchState;
  /** Batch counters (atomic ADDs as parts finish): CFDI rendered, CFDI that failed, parts counted. */
  batchDone?: number;
  batchFailed?: number;
  partsDone?: number;
  /**
   * The assembly that follows the rendering stopped waiting (parts still rendering after FOLLOW_MS): the count
   * that completes the batch queues the assembly at once (use-cases/batch-part.ts).
   */
  assemblyDeferred?: boolean;
}

/** What a batch job records besides the job's own fields (use-cases/batches.ts). */
export interface BatchState {
  source: 'zip' | 'json';
  /** The uploaded zip or the stored JSON list (bucket key). */
  sourceKey: string;
  /** The quota counter the documents are charged to (plans.quotaSubject of the caller). */
  quotaSubject: string;
  /**
   * The account's brand (PUT /v1/brand) as it was when the batch started, kept beside its parts
   * (BatchFiles.getBrand): printed on its facturas as POST /v1/render prints it.
   */
  branded?: boolean;
  /** Set when split: distinct stamped CFDI to print, files refused, parts queued, when rendering began. */
  total?: number;
  refused?: number;
  parts?: number;
  splitAt?: string;
}

/** A batch's state once split (its counts and when rendering began). */
export type SplitBatch = BatchState & Required<Pick<BatchState, 'total' | 'refused' | 'parts' | 'splitAt'>>;

/** One CFDI of a part: its file, XML, summary row and the template that prints it. */
export interface BatchEntry {
  archivo: string;
  xml: string;
  row: ResumenRow;
  template: 'factura' | 'nomina';
}

/** What became of one CFDI of a part. */
export interface PartOutcome {
  uuid: string;
  ok: boolean;
  /** Why no PDF (failed ones). */
  motivo?: string;
  /** The PDF's size in bytes (printed ones): where it ends in the object that holds it. */
  bytes?: number;
  /** The part's chunk object that holds the PDF (printed ones; none: a part counted before chunks, see PdfSource). */
  chunk?: number;
}

/**
 * Where a printed CFDI's PDF is stored: a chunk of its part (each PDF is written once, in the chunk of the PDFs its
 * part rendered together), or, for a part counted by earlier code, the part's PDF object (outcomes with sizes, no
 * chunk) or the PDF's own object (outcomes without sizes).
 */
export type PdfSource = { chunk: number } | { partObject: true } | { uuid: string };

/** A PDF a run of its part stored: in which chunk and its size. */
export interface StoredPdf {
  uuid: string;
  chunk: number;
  bytes: number;
}

/** A batch's files (S3, under batches/ of the documents bucket; the result zip under results/jobs/). */
export interface BatchFiles {
  /** A presigned POST for one zip of at most `maxBytes` at `key`. */
  presignUpload(
    key: string,
    limits: { maxBytes: number; expiresInS: number },
  ): Promise<{ url: string; fields: Record<string, string> }>;
  /** The stored source (zip or JSON list) as a stream with its size, or undefined when nothing is there. */
  openSource(key: string): Promise<{ body: Readable; bytes: number } | undefined>;
  putSource(key: string, body: string): Promise<void>;
  putPart(jobId: string, part: number, entries: BatchEntry[]): Promise<void>;
  getPart(jobId: string, part: number): Promise<BatchEntry[]>;
  putOutcome(jobId: string, part: number, outcomes: PartOutcome[]): Promise<void>;
  getOutcome(jobId: string, part: number): Promise<PartOutcome[] | undefined>;
  putRefused(jobId: string, refused: Refused[]): Promise<void>;
  getRefused(jobId: string): Promise<Refused[]>;
  /** The account's brand a batch prints (stored when it starts). */
  putBrand(jobId: string, marca: Marca): Promise<void>;
  getBrand(jobId: string): Promise<Marca | undefined>;
  /**
   * Writes PDFs a part rendered, one after another, as chunk `chunk` of the part: each PDF's only write. The chunk
   * names its PDFs and sizes (so a redelivered part finds them without reading them).
   */
  putPdfs(jobId: string, part: number, chunk: number, pdfs: { uuid: string; pdf: Buffer }[]): Promise<void>;
  /** The PDFs earlier runs of the part stored, whatever chunk they are in. */
  storedPdfs(jobId: string, part: number): Promise<StoredPdf[]>;
  /** The stored PDFs of `source`, as one stream (a chunk's PDFs one after another). */
  openPdfs(jobId: string, part: number, source: PdfSource): Promise<Readable>;
  /** Streams `body` to the job's result key (multipart: never whole in memory). */
  uploadResult(jobId: string, filename: string, body: Readable): Promise<JobResult>;
}

/** The batch's counters on its job record (DynamoDB: one conditional update each). */
export interface BatchRepository {
  /**
   * Records the split (queued → rendering) once, keeping the counts of parts counted while the split read; answers
   * the parts counted by then, or undefined when the split was already recorded.
   */
  planBatch(jobId: string, plan: SplitBatch, charged: WindowSlot[]): Promise<Set<number> | undefined>;
  /**
   * Counts part `part` once (the batch rendering, or still queued: a part started while the split reads): its CFDI
   * done and failed; answers the record after the count and the parts counted
   * by then, or undefined when that part was already counted.
   */
  recordPart(
    jobId: string,
    part: number,
    done: number,
    failed: number,
  ): Promise<{ job: JobRecord; parts: Set<number> } | undefined>;
  /**
   * Records the CFDI the split is about to charge (`units`), while the batch is queued, so a batch given up before
   * its split is recorded gives back what was charged (use-cases/batch-end.ts); false when it is no longer queued.
   */
  recordBatchUnits(jobId: string, units: number): Promise<boolean>;
  /** The parts already counted. */
  partsCounted(jobId: string): Promise<Set<number>>;
  /**
   * Marks the batch's assembly deferred, only while fewer than `parts` parts are counted (one conditional update:
   * the count that completes the batch then reads the mark); false when every part was counted first.
   */
  deferAssembly(jobId: string, parts: number): Promise<boolean>;
  /**
   * Marks part `part` started, in the same round trip as reading the batch: the record as it was (undefined
   * unless the batch is rendering, or queued: its split still reads) and whether that part had been started before (a redelivery, or a duplicate
   * message: only then may some of its PDFs be stored already).
   */
  startPart(jobId: string, part: number): Promise<{ job: JobRecord; startedBefore: boolean } | undefined>;
}

/**
 * Async render jobs: the leased-job store of the shared engine (claimed jobs are `rendering`; complete and fail
 * are given completedAt, result, event, problems), plus the job's webhook event and delivery log.
 */
export interface JobRepository extends LeasedJobStore<JobRecord> {
  markEventQueued(jobId: string): Promise<void>;
  /** Appends a delivery attempt (bounded: at most MAX_RECORDED_DELIVERIES are kept). */
  addDelivery(jobId: string, attempt: DeliveryAttempt): Promise<void>;
  /**
   * Settled jobs with a webhook event (the local runtime re-queues those not yet delivered after a restart: its
   * queues live in memory). A table scan: only the local runtime calls it.
   */
  listSettledWithEvents(limit: number): Promise<JobRecord[]>;
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

/**
 * The brand an account stored (PUT /v1/brand): printed on its facturas (data or cfdi_xml, also async and in merges)
 * whenever a request brings no options.marca of its own. The logo is kept as it prints (an SVG already sanitised).
 */
export interface StoredBrand {
  owner: string;
  marca: Marca;
  updatedAt: string;
  /** keyPrefix of the key that last changed it (for support; never the key). */
  changedBy: string;
}

/** One brand per account (the accounts table, `brand#` items: adapters/brand-store.ts). */
export interface BrandStore {
  get(owner: string): Promise<StoredBrand | undefined>;
  /** Creates or replaces; answers whether it existed before. */
  put(brand: StoredBrand): Promise<{ replaced: boolean }>;
  /** False when there was none. */
  remove(owner: string): Promise<boolean>;
}
