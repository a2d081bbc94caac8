// CFDI batches, the assembly step (the steps: ./batch-run.ts).
import { once } from 'node:events';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import { Zip, type ZipInputFile } from 'fflate';
import { logger } from '../../shared/logger';
import { baseName } from '../core/cfdi-resumen';
import { resumenWriters } from '../formats/resumen';
import type { BatchEntry, PartOutcome, PdfSource } from '../ports';
import type { BatchAssembleDeps } from './batch-run-deps';
import { completeBatch, endIfSettled } from './batch-end';
import { outcomeEvent } from './job-events';

/**
 * A zip entry whose bytes we hand to fflate's Zip ourselves: its CRC-32 by Node's zlib (native; fflate's own is
 * JavaScript, on the assembly's thread for every byte of every PDF), stored as given (compression 0) or already
 * deflated (8).
 */
function entry(filename: string, mtime: Date, compression: 0 | 8): ZipInputFile {
  return { filename, mtime, compression, size: 0, crc: 0 };
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
    /** Stored as it comes (PDFs: their streams are compressed already). */
    async stream(name: string, body: AsyncIterable<Uint8Array>) {
      const f = entry(name, mtime, 0);
      zip.add(f);
      for await (const chunk of body) {
        f.crc = crc32(chunk, f.crc);
        f.size += chunk.length;
        f.ondata!(null, chunk as Uint8Array<ArrayBuffer>, false);
        await pace();
      }
      f.ondata!(null, new Uint8Array(0), true);
    },
    /**
     * Deflated (level 6) by zlib at once: ~0.05 ms of CPU for a CFDI's XML against fflate's 0.11 ms (zlib's async
     * form, on the thread pool, costs 0.12 ms in all: on two shared cores the total is what counts).
     */
    async text(name: string, bytes: Buffer) {
      const f = entry(name, mtime, 8);
      f.size = bytes.length;
      f.crc = crc32(bytes);
      zip.add(f);
      f.ondata!(null, deflateRawSync(bytes, { level: 6 }), true);
      await pace();
    },
    end: () => zip.end(),
  };
}

/**
 * Cuts an object of PDFs (a part's chunk) into its PDFs, in order, by size: each take() must be read to its end
 * before the next; take() without a size reads the whole object (a PDF's own object).
 */
class PdfCutter {
  private rest: Uint8Array = new Uint8Array(0);
  private readonly chunks: AsyncIterator<Uint8Array>;

  constructor(readonly body: Readable) {
    this.chunks = (body as AsyncIterable<Uint8Array>)[Symbol.asyncIterator]();
  }

  async *take(bytes = Infinity): AsyncGenerator<Uint8Array> {
    for (let left = bytes; left > 0;) {
      if (!this.rest.length) {
        const next = await this.chunks.next();
        if (next.done) {
          if (bytes === Infinity) return;
          throw new Error(`a part's PDF object ended ${left} bytes early`);
        }
        this.rest = next.value;
      }
      const chunk = this.rest.subarray(0, left);
      this.rest = this.rest.subarray(chunk.length);
      left -= chunk.length;
      yield chunk;
    }
  }
}

/** Where a printed outcome's PDF is stored (PdfSource), named, and its size when the object holds more PDFs. */
function sourceOf(o: PartOutcome): { name: string; source: PdfSource; bytes?: number } {
  if (o.chunk !== undefined) return { name: `chunk ${o.chunk}`, source: { chunk: o.chunk }, bytes: o.bytes };
  // Parts counted by earlier code: the part's PDF object (outcomes with sizes) or each PDF's own object.
  if (o.bytes !== undefined) return { name: 'part', source: { partObject: true }, bytes: o.bytes };
  return { name: o.uuid, source: { uuid: o.uuid } };
}

/**
 * How often the assembly asks which parts are counted while it waits for the next one. A part of 20 takes about a
 * second per renderer, and the assembly zips one in well under that, so waiting up to 300 ms for a count only delays
 * a part it would have zipped long before the batch ends (the tail has LAST_POLL_MS); each read is a GetItem (with
 * its emulator's and the SDK's CPU locally: 0.26 GetItem per CFDI at 150 ms, most of them these).
 */
const POLL_MS = 300;
/**
 * The same once at most one part is left: what follows its count is the batch's tail (its entries, the workbook,
 * the upload's end), and at most one renderer is still busy, so the faster reads take a core the rendering left idle.
 */
const LAST_POLL_MS = 40;
/**
 * How long one assembly follows the rendering: the assembler's timeout is 15 minutes, so what is left to zip once
 * the last part is counted (a part or two, as the assembly keeps pace) has five. A batch that renders for longer
 * (thousands of CFDI on a small plan) hands its assembly to the count that completes it instead of keeping one
 * invocation waiting (or failing it, which SQS would count as a receive and, after three, move to the DLQ).
 */
export const FOLLOW_MS = 10 * 60_000;

/** The assembly stopped following the rendering: the count that completes the batch queues the next one. */
class Deferred extends Error {}

/**
 * Which parts are counted, as the assembly waits for them in order: one read of the job's counted parts at a
 * time, every POLL_MS, shared by whoever waits (the part being zipped and the next one opening). Past `until`, a
 * wait marks the assembly deferred on the job (only while parts are missing: the same conditional update order as
 * the counts') and throws Deferred; if the last part was counted first, the wait goes on as before.
 */
class CountedParts {
  private counted = new Set<number>();
  private polling: Promise<void> | undefined;
  private stopped = false;
  private deferTried = false;

  constructor(
    private readonly deps: BatchAssembleDeps,
    private readonly jobId: string,
    private readonly parts: number,
    private readonly all: boolean,
    private readonly until: number,
  ) {}

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
    const last = this.counted.size >= this.parts - 1;
    await new Promise((r) => setTimeout(r, last ? LAST_POLL_MS : POLL_MS));
    if (!this.deferTried && Date.now() > this.until) {
      this.deferTried = true;
      if (await this.deps.jobs.deferAssembly(this.jobId, this.parts))
        throw new Deferred(`batch ${this.jobId}: parts still rendering after ${FOLLOW_MS / 60_000} minutes`);
    }
    this.counted = await this.deps.jobs.partsCounted(this.jobId);
  }
}

/**
 * The batch's printed CFDI in order, part by part, each part as soon as it is counted (the assembly starts with
 * the rendering and follows it), each with its PDF (cut from the object that holds it, see sourceOf). Each part's
 * entries and outcomes go to `onPart` as soon as they are read, before its PDFs (the last part's: the workbook can
 * be finished while they stream). A part's objects all open at once, and the next part's
 * files open while a part streams, so each GET's latency (tens of ms in AWS) overlaps the zip's work instead of
 * adding up over the parts.
 */
async function* printed(
  deps: BatchAssembleDeps,
  jobId: string,
  parts: number,
  counted: CountedParts,
  onPart: (part: number, entries: BatchEntry[], byUuid: Map<string, PartOutcome>) => void,
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
    const objects = files.then(([, outcomes]) => {
      const byName = new Map<string, Promise<PdfCutter>>();
      for (const o of outcomes) {
        const { name, source } = o.ok ? sourceOf(o) : { name: '' };
        if (!source || byName.has(name)) continue;
        const cutter = deps.batchFiles.openPdfs(jobId, part, source).then((body) => new PdfCutter(body));
        cutter.catch(() => undefined); // awaited in its turn
        byName.set(name, cutter);
      }
      return byName;
    });
    objects.catch(() => undefined); // awaited in its turn
    return { files, objects };
  };
  const close = (objects: Promise<Map<string, Promise<PdfCutter>>>) =>
    objects.then(
      (byName) => {
        for (const cutter of byName.values())
          cutter.then(
            (c) => c.body.destroy(),
            () => undefined,
          );
      },
      () => undefined,
    );
  const opened: ReturnType<typeof open>[] = [];
  try {
    for (let part = 0; part < parts; part++) {
      if (part === 0) opened.push(open(0));
      if (part + 1 < parts) opened.push(open(part + 1));
      const [entries, outcomes] = await opened[0]!.files;
      const objects = await opened[0]!.objects;
      const byUuid = new Map(outcomes.map((o) => [o.uuid, o]));
      onPart(part, entries, byUuid);
      for (const entry of entries) {
        const o = byUuid.get(entry.row.uuid);
        if (!o?.ok) continue;
        const { name, bytes } = sourceOf(o);
        yield { entry, pdf: (await objects.get(name)!).take(bytes) };
      }
      void close(opened.shift()!.objects);
    }
  } finally {
    // The assembly stopped early (a failed upload): close the downloads still open.
    for (const { objects } of opened) void close(objects);
  }
}

export async function assembleBatch(
  deps: BatchAssembleDeps,
  jobId: string,
  follow = FOLLOW_MS,
): Promise<'done' | 'skipped' | 'deferred'> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch) return 'skipped';
  // Settled: ended again if its end did not finish (batch-end.ts).
  if (await endIfSettled(deps, job)) return 'skipped';
  if (job.status !== 'rendering' || job.batch.parts === undefined) return 'skipped';
  const all = job.partsDone === job.batch.parts;
  // An assembly that stopped following the rendering: the count that completes the batch queues the next one.
  if (job.assemblyDeferred && !all) return 'skipped';
  const counted = new CountedParts(deps, jobId, job.batch.parts, all, Date.now() + follow);
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
    const parts = job.batch.parts;
    let failed = 0;
    // The workbook, finished as soon as the last part's rows are in: while that part's PDFs stream.
    let finished: Promise<unknown> | undefined;
    const onPart = (part: number, entries: BatchEntry[], byUuid: Map<string, PartOutcome>) => {
      for (const entry of entries) {
        const o = byUuid.get(entry.row.uuid);
        if (o?.ok) resumen.add(entry.row);
        else {
          failed++;
          refused.push({ archivo: entry.archivo, motivo: o?.motivo ?? 'Sin resultado de impresión' });
        }
      }
      if (part === parts - 1) {
        const finishing = resumen.finish(refused);
        finishing.catch(() => undefined); // awaited after the PDFs
        finished = finishing;
      }
    };
    try {
      for await (const { entry, pdf } of printed(deps, jobId, parts, counted, onPart)) {
        const base = baseName(entry.row);
        await zip.stream(`${base}.pdf`, pdf);
        await zip.text(`${base}.xml`, Buffer.from(entry.xml, 'utf8'));
      }
    } catch (err) {
      // The unfinished zip's upload ends too (lib-storage aborts its multipart upload: nothing is left in S3).
      out.destroy(err as Error);
      await upload.catch(() => undefined);
      if (!(err instanceof Deferred)) throw err;
      logger.info('batch assembly deferred to the last count', { jobId, parts: job.batch.parts });
      return 'deferred';
    }
    await (finished ?? resumen.finish(refused));
    await zip.stream('resumen.xlsx', createReadStream(xlsxPath));
    await zip.stream('resumen.csv', createReadStream(csvPath));
    zip.end();
    // The webhook's subscription looked up while the upload ends.
    const [result, event] = await Promise.all([upload, outcomeEvent(deps.events, job, 'document.rendered')]);
    // Settled, then ended: the CFDI that failed on our side, charged at the split, given back (once: the charge's
    // id), and the event queued. Settled by another run meanwhile (a duplicate assembly, or a give-up): that one's.
    if (!(await completeBatch(deps, job, { result, event }, failed))) return 'skipped';
    logger.info('batch assembled', { jobId, bytes: result.bytes, failed });
    return 'done';
  } finally {
    counted.stop();
    await rm(dir, { recursive: true, force: true });
  }
}
