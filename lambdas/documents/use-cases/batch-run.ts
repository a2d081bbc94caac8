// CFDI batches, the worker side (handlers/batch-worker.ts; the API side is ./batches.ts). Three steps, each one
// SQS message of the batch queue and each idempotent, because SQS delivers at least once and a worker may die:
//   split    — reads the zip (streamed: fflate's Unzip, one entry at a time) or the JSON list; reads each XML
//              (core/cfdi-resumen.ts), refuses what cannot be printed, keeps one CFDI per UUID, writes parts of
//              PART_SIZE CFDI to S3, charges the month once (units = CFDI to print, charge id per batch), records
//              the plan (queued → rendering, one conditional write) and queues one message per part.
//   part     — renders its CFDI with the same renderDocument() as POST /v1/render, skipping any whose PDF is
//              already stored (looked for when the part ran before: a redelivered part renders nothing twice;
//              its start is recorded in the update that reads the batch). Each PDF is stored as it is made; at the
//              end the part's PDFs go again into one object, the one the assembly reads (one GET per part, not
//              per CFDI). Then it stores the outcomes (each PDF's size) and counts the part once (a string set on
//              the job record); the part that completes the count queues the assembly. A
//              fault on our side fails the message (SQS retries it after the backoff); on the last attempt the
//              CFDI still without a PDF are reported failed, one by one, and the rest of the batch goes on.
//   assemble — streams the result zip to S3 (PDF + XML per CFDI, resumen.xlsx, resumen.csv) part by part, each
//              part's PDF object cut at the sizes its outcomes give, the next part's opening meanwhile; memory
//              holds two parts' entries and the upload's two 5 MiB parts, whatever the batch's size. Gives back
//              the quota of CFDI that failed, completes the job and queues its webhook event (Scale).
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { Unzip, UnzipInflate, Zip, ZipDeflate, ZipPassThrough, type UnzipFile } from 'fflate';
import { DomainError, Unavailable } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { readForBatch, baseName, type Refused } from '../core/cfdi-resumen';
import { BATCH_LIMITS, monthlyRules } from '../core/plans';
import { DocumentRequestError } from '../errors';
import { resumenWriters } from '../formats/resumen';
import type { BatchEntry, JobRecord, PartOutcome } from '../ports';
import { MAX_UNZIPPED_BYTES, PART_SIZE, type BatchDeps, type BatchStep } from './batches';
import { outcomeEvent, queueEvent, type RenderJobDeps } from './jobs-render';
import { withAccountBrand } from './brand';
import { parseRenderRequest, renderDocument, type RenderDeps } from './render-request';

export interface BatchRunDeps extends BatchDeps {
  renderer(): Promise<RenderDeps>;
  /** Counts rendered documents in the service's stats (as a single render does; one update per part). */
  recordRender(format: string, count: number): Promise<void>;
  /** The webhook side of a finished job (the async renders'): subscribed() and the delivery queue. */
  events: Pick<RenderJobDeps, 'subscribed' | 'deliveryQueue' | 'jobs'>;
  maxAttempts: number;
}

const XML_MAX_BYTES = 1_500_000 * 4;

/** A file of the source: its name and text. */
interface SourceFile {
  archivo: string;
  xml?: string;
  /** Why it was not read (too large). */
  motivo?: string;
}

/** Part writes a split keeps under way at once: each S3 PUT's latency overlaps the reading of the next files. */
const PART_WRITES = 4;

/** Parts written so far and refusals, as the split goes. */
class Splitter {
  readonly refused: Refused[] = [];
  private readonly seen = new Map<string, string>();
  private part: BatchEntry[] = [];
  private readonly writing = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;
  parts = 0;
  total = 0;
  files = 0;

  constructor(
    private readonly deps: BatchRunDeps,
    private readonly jobId: string,
  ) {}

  async add(file: SourceFile): Promise<void> {
    this.files++;
    if (file.xml === undefined) {
      this.refused.push({ archivo: file.archivo, motivo: file.motivo ?? 'No se pudo leer' });
      return;
    }
    const read = readForBatch(file.xml, file.archivo);
    if (!read.ok) {
      this.refused.push({ archivo: file.archivo, motivo: read.motivo });
      return;
    }
    const first = this.seen.get(read.row.uuid);
    if (first !== undefined) {
      this.refused.push({
        archivo: file.archivo,
        motivo: `UUID repetido: ${read.row.uuid} ya viene en ${first} (one PDF per UUID)`,
      });
      return;
    }
    this.seen.set(read.row.uuid, file.archivo);
    this.total++;
    this.part.push({ archivo: file.archivo, xml: file.xml, row: read.row, template: read.template });
    if (this.part.length >= PART_SIZE) await this.flush();
  }

  /** Starts writing the part read so far; waits while PART_WRITES are under way. */
  async flush(): Promise<void> {
    if (!this.part.length) return;
    while (this.writing.size >= PART_WRITES) await Promise.race(this.writing);
    if (this.failure) throw this.failure.error;
    const write: Promise<void> = this.deps.batchFiles.putPart(this.jobId, this.parts++, this.part).then(
      () => void this.writing.delete(write),
      (error: unknown) => {
        this.failure ??= { error };
        this.writing.delete(write);
      },
    );
    this.part = [];
    this.writing.add(write);
  }

  /** Writes the last part and waits for every write: throws the first that failed. */
  async written(): Promise<void> {
    await this.flush();
    await Promise.all(this.writing);
    if (this.failure) throw this.failure.error;
  }
}

class BatchRefused extends Error {}

/** Streams the zip's entries into `splitter` (directories and macOS metadata skipped), at most `maxFiles`. */
async function splitZip(body: Readable, splitter: Splitter, limit: { plan: string; maxFiles: number }) {
  const ready: SourceFile[] = [];
  let unzipped = 0;
  let entries = 0;
  let failure: Error | undefined;
  const unzip = new Unzip();
  unzip.register(UnzipInflate);
  unzip.onfile = (file: UnzipFile) => {
    const name = file.name;
    if (name.endsWith('/') || name.startsWith('__MACOSX/') || /(^|\/)\._/.test(name)) return;
    if (++entries > limit.maxFiles) {
      failure ??= new BatchRefused(
        `The zip holds more than ${limit.maxFiles} files, the most a batch holds on the ${limit.plan} plan: split ` +
          'it into several batches (GET /pricing shows each plan’s limit). Nothing was charged.',
      );
      return;
    }
    const chunks: Uint8Array[] = [];
    let size = 0;
    let over = false;
    file.ondata = (err, chunk, final) => {
      if (err) {
        ready.push({ archivo: name, motivo: `Entrada del zip ilegible: ${err.message}` });
        return;
      }
      size += chunk.length;
      unzipped += chunk.length;
      if (unzipped > MAX_UNZIPPED_BYTES)
        failure ??= new BatchRefused(`The zip expands to more than ${MAX_UNZIPPED_BYTES} bytes.`);
      if (size > XML_MAX_BYTES) over = true;
      else chunks.push(chunk);
      if (!final) return;
      ready.push(
        over
          ? { archivo: name, motivo: `Archivo de más de ${XML_MAX_BYTES} bytes: no es un CFDI` }
          : { archivo: name, xml: Buffer.concat(chunks).toString('utf8') },
      );
    };
    file.start();
  };
  const drain = async () => {
    while (ready.length) await splitter.add(ready.shift()!);
    if (failure) throw failure;
  };
  try {
    for await (const chunk of body) {
      unzip.push(chunk as Uint8Array);
      await drain();
    }
    unzip.push(new Uint8Array(0), true);
  } catch (err) {
    if (err instanceof BatchRefused) throw err;
    throw new BatchRefused(`The upload is not a readable zip: ${(err as Error).message}`);
  }
  await drain();
  if (entries === 0) throw new BatchRefused('The upload is not a zip of XML files (no file found in it).');
}

async function failBatch(deps: BatchRunDeps, job: JobRecord, reason: string): Promise<void> {
  const event = await outcomeEvent(deps.events, job, 'document.failed');
  if (await deps.jobs.fail(job.jobId, reason, { event, completedAt: deps.now().toISOString() }))
    await queueEvent(deps.events, { jobId: job.jobId, event });
}

/**
 * Sends the messages of the first `window` parts not counted yet (or the assembly when all are). The plan's
 * parallelParts is the window: each part, when done, queues the one `window` places after it (renderPart), so at
 * most that many parts of one batch render at once.
 */
async function queueParts(deps: BatchRunDeps, jobId: string, parts: number, window: number): Promise<void> {
  const counted = await deps.jobs.partsCounted(jobId);
  const missing = Array.from({ length: parts }, (_, i) => i).filter((i) => !counted.has(i));
  // Sent at once: each send's latency overlaps the others' (50 one after another are most of a second in AWS).
  await Promise.all(
    missing
      .slice(0, window)
      .map((part) => deps.batchQueue.send({ jobId, step: 'part', part } satisfies BatchStep)),
  );
  if (!missing.length) await deps.batchQueue.send({ jobId, step: 'assemble' } satisfies BatchStep);
}

export async function splitBatch(deps: BatchRunDeps, jobId: string): Promise<'split' | 'skipped' | 'failed'> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch) return 'skipped';
  if (job.status === 'rendering' && job.batch.parts !== undefined) {
    // Split before (a redelivery, or the parts' messages were lost with a crash): queue what is not counted.
    await queueParts(deps, jobId, job.batch.parts, BATCH_LIMITS[job.plan].parallelParts);
    return 'skipped';
  }
  if (job.status !== 'queued') return 'skipped';
  const splitter = new Splitter(deps, jobId);
  const source = await deps.batchFiles.openSource(job.batch.sourceKey);
  if (!source) {
    await failBatch(
      deps,
      job,
      'The batch source could not be read back (it expired). Please start it again.',
    );
    return 'failed';
  }
  try {
    if (job.batch.source === 'zip')
      await splitZip(source.body, splitter, { plan: job.plan, maxFiles: BATCH_LIMITS[job.plan].maxFiles });
    else {
      const chunks: Buffer[] = [];
      for await (const c of source.body) chunks.push(c as Buffer);
      const list = JSON.parse(Buffer.concat(chunks).toString('utf8')) as string[];
      for (const [i, xml] of list.entries()) await splitter.add({ archivo: `xml[${i}]`, xml });
    }
    await splitter.written();
  } catch (err) {
    if (!(err instanceof BatchRefused)) throw err;
    await failBatch(deps, job, err.message);
    return 'failed';
  }
  await deps.batchFiles.putRefused(jobId, splitter.refused);
  // Per document, once per batch (the charge id makes a repeated split count once).
  let charged: JobRecord['charged'] = [];
  if (splitter.total > 0) {
    const decision = await deps.quotas.consume(job.batch.quotaSubject, monthlyRules(job.plan), deps.now(), {
      id: `batch:${jobId}`,
      units: splitter.total,
    });
    if (!decision.allowed) {
      await failBatch(
        deps,
        job,
        `The batch has ${splitter.total} CFDI to print but ${decision.binding.remaining} documents are left this ` +
          `month (${decision.binding.limit} on the ${job.plan} plan). Nothing was charged: split the batch, or ` +
          'upgrade (GET /pricing).',
      );
      return 'failed';
    }
    charged = decision.charged;
  }
  await deps.jobs.planBatch(
    jobId,
    {
      ...job.batch,
      total: splitter.total,
      refused: splitter.refused.length,
      parts: splitter.parts,
      splitAt: deps.now().toISOString(),
    },
    charged,
  );
  await queueParts(deps, jobId, splitter.parts, BATCH_LIMITS[job.plan].parallelParts);
  logger.info('batch split', { jobId, files: splitter.files, total: splitter.total, parts: splitter.parts });
  return 'split';
}

/** Errors that are the CFDI's own: rendering it again cannot succeed. */
function callerFault(err: unknown): string | undefined {
  if (err instanceof DocumentRequestError)
    return err.problems
      .map((p) => p.msg)
      .join('; ')
      .slice(0, 1000);
  if (err instanceof DomainError && !(err instanceof Unavailable)) return err.detail.slice(0, 1000);
  return undefined;
}

export async function renderPart(
  deps: BatchRunDeps,
  jobId: string,
  part: number,
  attempt: number,
): Promise<'done' | 'skipped'> {
  const started = await deps.jobs.startPart(jobId, part);
  if (!started?.job.batch) return 'skipped';
  const { job } = started;
  const parts = started.job.batch.parts ?? 0;
  // A part's first run has no outcome stored yet: only a part started before looks for one.
  let outcomes = started.startedBefore ? await deps.batchFiles.getOutcome(jobId, part) : undefined;
  if (!outcomes) {
    const entries = await deps.batchFiles.getPart(jobId, part);
    // The account's brand, on the facturas (as POST /v1/render prints it).
    const marca = started.job.batch.branded ? await deps.batchFiles.getBrand(jobId) : undefined;
    const last = attempt >= deps.maxAttempts;
    const ourFault = (uuid: string, err: unknown): PartOutcome => {
      if (!last) throw err; // SQS redelivers the part; the PDFs stored so far are kept and skipped
      logger.error('batch CFDI failed on the last attempt', { error: err as Error, jobId, part, uuid });
      return {
        uuid,
        ok: false,
        motivo: `Falló la impresión de nuestro lado tras ${attempt} intentos (not charged; send it again)`,
      };
    };
    // Which PDFs an earlier run of this part stored (asked at once); a part's first run has none to look for.
    const stored = started.startedBefore
      ? await Promise.all(entries.map((e) => deps.batchFiles.hasPdf(jobId, e.row.uuid)))
      : entries.map(() => false);
    // Each PDF is stored while the next one renders; the part ends when every write has.
    const writes: Promise<void>[] = [];
    /** The PDF of each printed outcome, by its index: they go into the part's PDF object at the end. */
    const pdfs = new Map<number, Buffer>();
    let made = 0;
    outcomes = [];
    try {
      for (const [i, entry] of entries.entries()) {
        const uuid = entry.row.uuid;
        if (stored[i]) {
          pdfs.set(outcomes.push({ uuid, ok: true }) - 1, await deps.batchFiles.getPdf(jobId, uuid));
          continue;
        }
        try {
          const parsed = parseRenderRequest({ template: entry.template, cfdi_xml: entry.xml, format: 'pdf' });
          const request = marca ? withAccountBrand(parsed, marca) : parsed;
          const doc = await renderDocument(request, await deps.renderer(), {
            watermark: job.plan === 'free',
          });
          const at = outcomes.push({ uuid, ok: true }) - 1;
          pdfs.set(at, doc.bytes);
          writes.push(
            deps.batchFiles.putPdf(jobId, uuid, doc.bytes).then(
              () => {
                // One line per PDF made (the crash test counts them: a redelivered part makes none twice).
                logger.info('batch PDF stored', { jobId, part, uuid });
                made++;
              },
              (err: unknown) => void (outcomes![at] = ourFault(uuid, err)),
            ),
          );
        } catch (err) {
          const fault = callerFault(err);
          // A fault on our side before the last attempt: the writes under way end first, then SQS redelivers.
          if (!fault && !last) await Promise.allSettled(writes);
          outcomes.push(
            fault ? { uuid, ok: false, motivo: `No se pudo imprimir: ${fault}` } : ourFault(uuid, err),
          );
        }
      }
      const settled = await Promise.allSettled(writes);
      const failedWrite = settled.find((r) => r.status === 'rejected');
      if (failedWrite) throw failedWrite.reason;
    } finally {
      // The service's stats count each PDF made once, in one update per part (also when the part fails after it).
      if (made) await deps.recordRender('pdf', made).catch(() => undefined);
    }
    // The printed PDFs again in one object, in the part's order, each one's size in its outcome.
    const printed = outcomes.flatMap((o, i) => (o.ok ? [{ o, pdf: pdfs.get(i)! }] : []));
    for (const { o, pdf } of printed) o.bytes = pdf.length;
    if (printed.length)
      await deps.batchFiles.putPartPdfs(
        jobId,
        part,
        printed.map((p) => p.pdf),
      );
    await deps.batchFiles.putOutcome(jobId, part, outcomes);
  }
  const ok = outcomes.filter((o) => o.ok).length;
  const counted = await deps.jobs.recordPart(jobId, part, ok, outcomes.length - ok);
  const current = counted?.job ?? (await deps.jobs.get(jobId));
  if (current?.status === 'rendering' && current.partsDone === current.batch?.parts)
    await deps.batchQueue.send({ jobId, step: 'assemble' } satisfies BatchStep);
  // The plan's window moves on: the part `window` places after this one, unless it is counted already (as the
  // count just read it). Sent again when this part is redelivered (its first send may be what was lost); a part
  // run twice renders nothing twice once its PDFs are stored.
  const next = part + BATCH_LIMITS[job.plan].parallelParts;
  if (next < parts && !(counted?.parts ?? (await deps.jobs.partsCounted(jobId))).has(next))
    await deps.batchQueue.send({ jobId, step: 'part', part: next } satisfies BatchStep);
  return counted ? 'done' : 'skipped';
}

/** A writable the zip goes to, awaited when full: the upload reads it at its own pace. */
function zipTo(out: PassThrough) {
  let error: Error | undefined;
  const zip = new Zip((err, chunk, final) => {
    if (err) {
      error = err;
      out.destroy(err);
      return;
    }
    out.write(chunk);
    if (final) out.end();
  });
  const pace = async () => {
    if (error) throw error;
    if (out.writableLength > 4 * 1024 * 1024) await once(out, 'drain');
  };
  const mtime = new Date();
  return {
    async stream(name: string, body: AsyncIterable<Uint8Array>) {
      const f = new ZipPassThrough(name);
      f.mtime = mtime;
      zip.add(f);
      for await (const chunk of body) {
        f.push(chunk);
        await pace();
      }
      f.push(new Uint8Array(0), true);
    },
    async text(name: string, bytes: Buffer) {
      const f = new ZipDeflate(name, { level: 6 });
      f.mtime = mtime;
      zip.add(f);
      f.push(bytes, true);
      await pace();
    },
    end: () => zip.end(),
  };
}

/** Cuts a part's PDF object into its PDFs, in order, by size: each take() must be read to its end before the next. */
class PdfCutter {
  private rest: Uint8Array = new Uint8Array(0);
  private readonly chunks: AsyncIterator<Uint8Array>;

  constructor(body: AsyncIterable<Uint8Array>) {
    this.chunks = body[Symbol.asyncIterator]();
  }

  async *take(bytes: number): AsyncGenerator<Uint8Array> {
    for (let left = bytes; left > 0;) {
      if (!this.rest.length) {
        const next = await this.chunks.next();
        if (next.done) throw new Error(`a part's PDF object ended ${left} bytes early`);
        this.rest = next.value;
      }
      const chunk = this.rest.subarray(0, left);
      this.rest = this.rest.subarray(chunk.length);
      left -= chunk.length;
      yield chunk;
    }
  }
}

/**
 * The batch's printed CFDI in order, part by part, each with its PDF (a slice of the part's PDF object); a CFDI
 * without a PDF goes to `onFailed` with its reason instead. The next part's files open while a part streams, so
 * each GET's latency (tens of ms in AWS) overlaps the zip's work instead of adding up over the parts.
 */
async function* printed(
  deps: BatchRunDeps,
  jobId: string,
  parts: number,
  onFailed: (entry: BatchEntry, motivo: string) => void,
): AsyncGenerator<{ entry: BatchEntry; pdf: AsyncIterable<Uint8Array> }> {
  const open = (part: number) => {
    const files = Promise.all([
      deps.batchFiles.getPart(jobId, part),
      deps.batchFiles.getOutcome(jobId, part).then((o) => o ?? []),
    ]);
    const pdfs = files.then(([, outcomes]) =>
      outcomes.some((o) => o.ok) ? deps.batchFiles.openPartPdfs(jobId, part) : undefined,
    );
    pdfs.catch(() => undefined); // awaited in its turn
    return { files, pdfs };
  };
  const opened: ReturnType<typeof open>[] = [];
  try {
    for (let part = 0; part < parts; part++) {
      if (part === 0) opened.push(open(0));
      if (part + 1 < parts) opened.push(open(part + 1));
      const [entries, outcomes] = await opened[0]!.files;
      const body = await opened[0]!.pdfs;
      const cutter = body && new PdfCutter(body);
      const byUuid = new Map(outcomes.map((o) => [o.uuid, o]));
      for (const entry of entries) {
        const o: PartOutcome | undefined = byUuid.get(entry.row.uuid);
        if (!o?.ok) onFailed(entry, o?.motivo ?? 'Sin resultado de impresión');
        else if (!cutter || o.bytes === undefined)
          throw new Error(`batch ${jobId}: part ${part} has no PDF size for ${entry.row.uuid}`);
        else yield { entry, pdf: cutter.take(o.bytes) };
      }
      opened.shift();
      body?.destroy();
    }
  } finally {
    // The assembly stopped early (a failed upload): close the downloads still open.
    for (const { pdfs } of opened)
      pdfs.then(
        (body) => body?.destroy(),
        () => undefined,
      );
  }
}

export async function assembleBatch(deps: BatchRunDeps, jobId: string): Promise<'done' | 'skipped'> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch) return 'skipped';
  if (job.status === 'done') {
    await queueEvent(deps.events, job);
    return 'skipped';
  }
  if (job.status !== 'rendering' || job.partsDone !== job.batch.parts) return 'skipped';
  const dir = await mkdtemp(join(tmpdir(), 'batch-'));
  try {
    const out = new PassThrough();
    const filename = `cfdi-${job.createdAt.slice(0, 10)}-${jobId.slice(4, 12)}.zip`;
    const upload = deps.batchFiles.uploadResult(jobId, filename, out);
    upload.catch(() => undefined); // awaited below; a failure also ends the writes (the stream is destroyed)
    const zip = zipTo(out);
    const xlsxPath = join(dir, 'resumen.xlsx');
    const csvPath = join(dir, 'resumen.csv');
    const resumen = resumenWriters(createWriteStream(xlsxPath), createWriteStream(csvPath));
    const refused = await deps.batchFiles.getRefused(jobId);
    let failed = 0;
    const onFailed = (entry: BatchEntry, motivo: string) => {
      failed++;
      refused.push({ archivo: entry.archivo, motivo });
    };
    for await (const { entry, pdf } of printed(deps, jobId, job.batch.parts ?? 0, onFailed)) {
      const base = baseName(entry.row);
      await zip.stream(`${base}.pdf`, pdf);
      await zip.text(`${base}.xml`, Buffer.from(entry.xml, 'utf8'));
      resumen.add(entry.row);
    }
    await resumen.finish(refused);
    await zip.stream('resumen.xlsx', createReadStream(xlsxPath));
    await zip.stream('resumen.csv', createReadStream(csvPath));
    zip.end();
    const result = await upload;
    // The CFDI that failed on our side were charged at the split: given back once (the charge id guards it).
    if (failed > 0 && job.charged.length)
      await deps.quotas.refund({
        allowed: true,
        charged: job.charged,
        binding: { ...job.charged[0]!, remaining: 0 },
        all: [],
        slots: job.charged,
        chargeId: `batch:${jobId}`,
        units: failed,
      });
    const event = await outcomeEvent(deps.events, job, 'document.rendered');
    await deps.jobs.complete(jobId, { result, event, completedAt: deps.now().toISOString() });
    await queueEvent(deps.events, { jobId, event });
    logger.info('batch assembled', { jobId, bytes: result.bytes, failed });
    return 'done';
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export function runBatchStep(deps: BatchRunDeps, step: BatchStep, attempt: number): Promise<string> {
  if (step.step === 'split') return splitBatch(deps, step.jobId);
  if (step.step === 'part') return renderPart(deps, step.jobId, step.part, attempt);
  return assembleBatch(deps, step.jobId);
}
