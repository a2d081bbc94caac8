// CFDI batches, the assembly step (the steps: ./batch-run.ts).
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { logger } from '../../shared/logger';
import { baseName } from '../core/cfdi-resumen';
import { resumenWriters } from '../formats/resumen';
import type { BatchEntry, PartOutcome } from '../ports';
import type { BatchAssembleDeps } from './batch-run-deps';
import { outcomeEvent, queueEvent } from './job-events';

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

/** One PDF of its own object (a part without sizes, see printed()). */
async function* storedPdf(deps: BatchAssembleDeps, jobId: string, uuid: string): AsyncGenerator<Uint8Array> {
  yield await deps.batchFiles.getPdf(jobId, uuid);
}

/** How often the assembly asks which parts are counted while it waits for the next one. */
const POLL_MS = 150;
/** An assembly that saw no part counted for this long fails (SQS retries it: it starts again from the first part). */
const STALL_MS = 10 * 60_000;

/**
 * Which parts are counted, as the assembly waits for them in order: one read of the job's counted parts at a
 * time, every POLL_MS, shared by whoever waits (the part being zipped and the next one opening).
 */
class CountedParts {
  private counted = new Set<number>();
  private polling: Promise<void> | undefined;
  private progressAt = Date.now();

  constructor(
    private readonly deps: BatchAssembleDeps,
    private readonly jobId: string,
    private readonly all: boolean,
  ) {}

  private stopped = false;

  /** The assembly ended (or failed): a wait still under way ends too. */
  stop(): void {
    this.stopped = true;
  }

  async wait(part: number): Promise<void> {
    while (!this.all && !this.counted.has(part)) {
      if (this.stopped) throw new Error(`batch ${this.jobId}: the assembly stopped`);
      this.polling ??= this.poll().finally(() => (this.polling = undefined));
      await this.polling;
    }
  }

  private async poll(): Promise<void> {
    await new Promise((r) => setTimeout(r, POLL_MS));
    const counted = await this.deps.jobs.partsCounted(this.jobId);
    if (counted.size > this.counted.size) this.progressAt = Date.now();
    else if (Date.now() - this.progressAt > STALL_MS)
      throw new Error(
        `batch ${this.jobId}: no part counted for ${STALL_MS / 60_000} minutes; the assembly stops`,
      );
    this.counted = counted;
  }
}

/**
 * The batch's printed CFDI in order, part by part, each part as soon as it is counted (the assembly starts with
 * the rendering and follows it), each with its PDF (a slice of the part's PDF object); a CFDI
 * without a PDF goes to `onFailed` with its reason instead. A part counted by the code before PDF sizes (a batch
 * under way when this was deployed) has neither sizes nor a PDF object: its PDFs are read one by one from their
 * own objects, which every part still writes. The next part's files open while a part streams, so
 * each GET's latency (tens of ms in AWS) overlaps the zip's work instead of adding up over the parts.
 */
async function* printed(
  deps: BatchAssembleDeps,
  jobId: string,
  parts: number,
  counted: CountedParts,
  onFailed: (entry: BatchEntry, motivo: string) => void,
): AsyncGenerator<{ entry: BatchEntry; pdf: AsyncIterable<Uint8Array> }> {
  const open = (part: number) => {
    const files = counted
      .wait(part)
      .then(() =>
        Promise.all([
          deps.batchFiles.getPart(jobId, part),
          deps.batchFiles.getOutcome(jobId, part).then((o) => o ?? []),
        ]),
      );
    files.catch(() => undefined); // awaited in its turn
    const pdfs = files.then(([, outcomes]) =>
      outcomes.some((o) => o.ok) && outcomes.every((o) => !o.ok || o.bytes !== undefined)
        ? deps.batchFiles.openPartPdfs(jobId, part)
        : undefined,
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
        else if (cutter && o.bytes !== undefined) yield { entry, pdf: cutter.take(o.bytes) };
        else yield { entry, pdf: storedPdf(deps, jobId, entry.row.uuid) };
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

export async function assembleBatch(deps: BatchAssembleDeps, jobId: string): Promise<'done' | 'skipped'> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch) return 'skipped';
  if (job.status === 'done') {
    await queueEvent(deps.events, job);
    return 'skipped';
  }
  if (job.status !== 'rendering' || job.batch.parts === undefined) return 'skipped';
  const counted = new CountedParts(deps, jobId, job.partsDone === job.batch.parts);
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
    for await (const { entry, pdf } of printed(deps, jobId, job.batch.parts, counted, onFailed)) {
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
    counted.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
