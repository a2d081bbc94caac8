// CFDI batches, the split step (the steps: ./batch-run.ts).
import type { Readable } from 'node:stream';
import { Unzip, UnzipInflate, type UnzipFile } from 'fflate';
import { logger } from '../../shared/logger';
import { chargedDecision } from '../../shared/quota/windows';
import { readForBatch, type Refused } from '../core/cfdi-resumen';
import { BATCH_LIMITS, monthlyRules } from '../core/plans';
import type { BatchEntry, JobRecord } from '../ports';
import type { BatchSplitDeps } from './batch-run-deps';
import { MAX_UNZIPPED_BYTES, PART_SIZE, type AssembleMessage, type BatchStep } from './batches';
import { batchChargeId, endIfSettled, failBatch } from './batch-end';

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
/**
 * CFDI the split holds back unwritten, so that the batch's last ones go into smaller parts (tailSizes): it learns
 * how many files a zip holds only at its end. Bounded in bytes too (large XML): the hold never keeps more than
 * HOLD_BYTES of text beside the part being filled.
 */
const HOLD = 2 * PART_SIZE;
const HOLD_BYTES = 8 * 1024 * 1024;
/** The smallest part the tail is cut into (a part's own storage calls cost about as much as rendering one CFDI). */
const TAIL_MIN = 5;

/**
 * The sizes of the last `n` CFDI's parts: each takes half of what is left (at most PART_SIZE, at least TAIL_MIN, and
 * never leaving less than TAIL_MIN behind it). Parts render in parallel, so the batch ends when its last part does:
 * with full parts to the end, the workers that finish first wait for the last one's whole part (locally one of the
 * two lanes stood idle for 0.3–0.8 s at a batch's end); tapering the tail makes them finish closer together.
 * 40 CFDI → 20, 10, 5, 5; 45 → 20, 13, 6, 6.
 */
export function tailSizes(n: number): number[] {
  const sizes: number[] = [];
  for (let left = n; left > 0;) {
    let size = Math.min(left, PART_SIZE, Math.max(TAIL_MIN, Math.ceil(left / 2)));
    if (left - size < TAIL_MIN) size = Math.min(left, PART_SIZE);
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/**
 * The sizes of the parts `n` CFDI are cut into (when no XML is large enough for HOLD_BYTES to matter): full parts
 * while more than the hold is left behind them, then the tail's (tailSizes). The cost model counts parts with it.
 */
export function partSizes(n: number): number[] {
  const full = n >= PART_SIZE + HOLD ? Math.floor((n - PART_SIZE - HOLD) / PART_SIZE) + 1 : 0;
  return [...Array<number>(full).fill(PART_SIZE), ...tailSizes(n - full * PART_SIZE)];
}

/**
 * Parts written so far and refusals, as the split goes. A part of the plan's first window is queued as soon as it
 * is written (its rendering overlaps the rest of the read), while the CFDI queued so far fit in `early`: what the
 * account could still print when the split began. So work done before the charge never exceeds what the account
 * could be charged; a batch over it fails at the charge (nothing charged, nothing delivered).
 */
class Splitter {
  readonly refused: Refused[] = [];
  private readonly seen = new Map<string, string>();
  /** Read, not yet in a part: at most a part plus the hold (HOLD, HOLD_BYTES). */
  private pending: BatchEntry[] = [];
  private pendingBytes = 0;
  private readonly writing = new Set<Promise<void>>();
  private failure: { error: unknown } | undefined;
  /** Parts queued while the split read (the split queues each part once: queueRest). */
  readonly queued = new Set<number>();
  private written = 0;
  parts = 0;
  total = 0;
  files = 0;

  constructor(
    private readonly deps: BatchSplitDeps,
    private readonly jobId: string,
    private readonly early: { window: number; units: number },
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
    this.pending.push({ archivo: file.archivo, xml: file.xml, row: read.row, template: read.template });
    this.pendingBytes += file.xml.length;
    // A full part is written once the hold behind it is full (in count or in bytes).
    while (
      this.pending.length >= PART_SIZE &&
      (this.pending.length >= PART_SIZE + HOLD || this.pendingBytes > HOLD_BYTES)
    )
      await this.flush(PART_SIZE);
  }

  /** Starts writing the first `size` CFDI read as a part; waits while PART_WRITES are under way. */
  private async flush(size: number): Promise<void> {
    while (this.writing.size >= PART_WRITES) await Promise.race(this.writing);
    if (this.failure) throw this.failure.error;
    const entries = this.pending.splice(0, size);
    for (const e of entries) this.pendingBytes -= e.xml.length;
    const part = this.parts++;
    this.written += entries.length;
    const early = part < this.early.window && this.written <= this.early.units;
    const write: Promise<void> = this.deps.batchFiles
      .putPart(this.jobId, part, entries)
      .then(async () => {
        if (!early) return;
        await this.deps.batchQueue.send({ jobId: this.jobId, step: 'part', part } satisfies BatchStep);
        this.queued.add(part);
      })
      .then(
        () => void this.writing.delete(write),
        (error: unknown) => {
          this.failure ??= { error };
          this.writing.delete(write);
        },
      );
    this.writing.add(write);
  }

  /** Writes what is held, in the tail's smaller parts, and waits for every write: throws the first that failed. */
  async allWritten(): Promise<void> {
    for (const size of tailSizes(this.pending.length)) await this.flush(size);
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

/**
 * Sends the messages of the first `window` parts not counted yet, and the assembly's, which follows the parts as
 * they are counted (a redelivered split sends it again: a second assembly writes the same zip, and only one
 * completes the job). The plan's parallelParts is the window: each part, when done, queues the one `window` places
 * after it (renderPart), so at most that many parts of one batch render at once.
 */
async function queueSteps(deps: BatchSplitDeps, jobId: string, parts: number, window: number): Promise<void> {
  const counted = await deps.jobs.partsCounted(jobId);
  const missing = Array.from({ length: parts }, (_, i) => i).filter((i) => !counted.has(i));
  // Sent at once: each send's latency overlaps the others' (50 one after another are most of a second in AWS).
  await Promise.all([
    ...missing
      .slice(0, window)
      .map((part) => deps.batchQueue.send({ jobId, step: 'part', part } satisfies BatchStep)),
    deps.assembleQueue.send({ jobId } satisfies AssembleMessage),
  ]);
}

/**
 * After the split is recorded: the part each of the window's `window` chains renders next, unless it is queued
 * already. A part counted while the split read (the batch queued) queued no successor (renderPart: the batch's
 * parts were unknown), so a chain's next part is its first one not counted by then, sent here unless the split
 * queued it while reading; a part counted since queues its own successor. Each part message is sent once.
 */
async function queueRest(
  deps: BatchSplitDeps,
  jobId: string,
  parts: number,
  window: number,
  counted: Set<number>,
  queued: Set<number>,
): Promise<void> {
  const next: number[] = [];
  for (let chain = 0; chain < Math.min(window, parts); chain++) {
    let part = chain;
    while (part < parts && counted.has(part)) part += window;
    if (part < parts && !queued.has(part)) next.push(part);
  }
  await Promise.all([
    ...next.map((part) => deps.batchQueue.send({ jobId, step: 'part', part } satisfies BatchStep)),
    deps.assembleQueue.send({ jobId } satisfies AssembleMessage),
  ]);
}

export async function splitBatch(
  deps: BatchSplitDeps,
  jobId: string,
): Promise<'split' | 'skipped' | 'failed'> {
  const job = await deps.jobs.get(jobId);
  if (!job?.batch) return 'skipped';
  if (job.status === 'rendering' && job.batch.parts !== undefined) {
    // Split before (a redelivery, or the messages were lost with a crash): queue what is not counted, and the assembly.
    await queueSteps(deps, jobId, job.batch.parts, BATCH_LIMITS[job.plan].parallelParts);
    return 'skipped';
  }
  // Settled (failed, or given up) but not ended: its end runs again.
  if ((await endIfSettled(deps, job)) || job.status !== 'queued') return 'skipped';
  const window = BATCH_LIMITS[job.plan].parallelParts;
  // The month the batch was started in is the one it is charged to, whenever its split runs: a split run again
  // (redelivered after dying between its charge and its plan write) in the next month charges the same window, where
  // the batch's charge id makes it count once.
  const at = new Date(job.createdAt);
  // What the account can still print that month: the most CFDI the split queues before charging them.
  const [source, [month]] = await Promise.all([
    deps.batchFiles.openSource(job.batch.sourceKey),
    deps.quotas.peek(job.batch.quotaSubject, monthlyRules(job.plan), at),
  ]);
  const splitter = new Splitter(deps, jobId, {
    window,
    units: month ? Math.max(0, month.limit - month.used) : 0,
  });
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
    await splitter.allWritten();
  } catch (err) {
    if (!(err instanceof BatchRefused)) throw err;
    await failBatch(deps, job, err.message);
    return 'failed';
  }
  // What it charges, recorded before the charge (beside the refusals' write): a batch given up before its split is
  // recorded gives back that many. No longer queued: recorded (or given up) by another run meanwhile.
  const [, recorded] = await Promise.all([
    deps.batchFiles.putRefused(jobId, splitter.refused),
    splitter.total > 0 ? deps.jobs.recordBatchUnits(jobId, splitter.total) : true,
  ]);
  if (!recorded) return splitBatch(deps, jobId);
  // Per document, once per batch (the charge id makes a repeated split count once).
  let charged: JobRecord['charged'] = [];
  if (splitter.total > 0) {
    const decision = await deps.quotas.consume(job.batch.quotaSubject, monthlyRules(job.plan), at, {
      id: batchChargeId(jobId),
      units: splitter.total,
    });
    if (!decision.allowed) {
      // What is left, read again (a refused charge answers 0 left in the window that refused it).
      const [now] = await deps.quotas.peek(job.batch.quotaSubject, monthlyRules(job.plan), at);
      const left = now ? Math.max(0, now.limit - now.used) : decision.binding.remaining;
      // Nothing charged (a charge already made under its id would have been allowed): nothing to give back.
      await failBatch(
        deps,
        { ...job, units: 0 },
        `The batch has ${splitter.total} CFDI to print but ${left} documents are left this ` +
          `month (${decision.binding.limit} on the ${job.plan} plan). Nothing was charged: split the batch, or ` +
          'upgrade (GET /pricing).',
      );
      return 'failed';
    }
    charged = decision.charged;
  }
  const counted = await deps.jobs.planBatch(
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
  if (!counted) {
    // Failed meanwhile: given up by another delivery's last attempt after this run recorded its units. That give-up
    // gave back what was charged by then; a charge this run made after it goes back too (by the batch's id: once).
    if ((await deps.jobs.get(jobId))?.status === 'failed') {
      if (charged.length)
        await deps.quotas.refund(
          chargedDecision(charged, { chargeId: batchChargeId(jobId), units: splitter.total }),
        );
      return 'failed';
    }
    // Recorded by another run of this split meanwhile: queue what is not counted, as a redelivered split does.
    await queueSteps(deps, jobId, splitter.parts, window);
  } else await queueRest(deps, jobId, splitter.parts, window, counted, splitter.queued);
  logger.info('batch split', { jobId, files: splitter.files, total: splitter.total, parts: splitter.parts });
  return 'split';
}
