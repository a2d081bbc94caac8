// CFDI batches, the part step (the steps: ./batch-run.ts).
import { DomainError, Unavailable } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { BATCH_LIMITS } from '../core/plans';
import { DocumentRequestError } from '../errors';
import type { BatchEntry, PartOutcome, StoredPdf } from '../ports';
import type { BatchRunDeps } from './batch-run-deps';
import type { AssembleMessage, BatchStep } from './batches';
import { withAccountBrand } from './brand';
import { parseRenderRequest, renderDocument } from './render-request';

/**
 * Delay of the late assembly queued when the last part is counted: the assembler's timeout (15 minutes, also SQS's
 * longest delay), so the assembly that follows the parts has ended by then.
 */
const ASSEMBLY_BACKSTOP_S = 900;

/**
 * PDFs per chunk a part writes: each PDF is written once, with the ones rendered just before it. A part killed
 * mid-way renders again only the PDFs of its unwritten chunk (fewer than this many, plus one being written); one
 * object per PDF cost the local S3 emulator a PUT each (mkdir, open, write, close, MD5) and AWS a request each.
 * A whole part (20): a part of 20 writes its first 19 PDFs while its last one prints, then the last one alone (below):
 * a PUT and the assembly's GET per part fewer than chunks of 10 (bench/batch-run, per CFDI: PutObject 0.26 → 0.21,
 * GetObject 0.31 → 0.26), for at most 19 PDFs rendered again after a kill.
 */
const CHUNK_PDFS = 20;

/**
 * The time a part keeps before its invocation's timeout: a render's own limit (15 s, render/chromium.ts) and the
 * writes, the outcome and the count after it. With less left it renders no more: before its last attempt it writes
 * what it rendered and fails (SQS redelivers it, and the next run renders the rest), on the last one it reports the
 * CFDI left as failed, not charged. A timeout instead would end the run with nothing reported: after the last
 * attempt the part would sit in the DLQ and its batch would never complete.
 */
const TIME_KEPT_MS = 30_000;

/** A part out of time before its CFDI are all rendered (our fault: not the CFDI's). */
class OutOfTime extends Error {}

/** A CFDI read for printing, or the error reading it raised (thrown in its turn, as its render's would be). */
type ReadCfdi = { request: ReturnType<typeof parseRenderRequest> } | { err: unknown };

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

/** An outcome stored by an earlier run holds if every PDF it names as printed is in the chunk it names, whole. */
function whole(outcomes: PartOutcome[], stored: StoredPdf[]): boolean {
  const chunkOf = new Map(stored.map((p) => [p.uuid, p.chunk]));
  return outcomes.every((o) => !o.ok || o.chunk === undefined || chunkOf.get(o.uuid) === o.chunk);
}

export async function renderPart(
  deps: BatchRunDeps,
  jobId: string,
  part: number,
  attempt: number,
  /** Milliseconds left before the invocation's timeout. */
  remainingMs: () => number = () => Infinity,
): Promise<'done' | 'skipped'> {
  // The part's CFDI are read while its start is recorded (one round trip instead of two before the first render);
  // a part whose batch is gone is skipped without them.
  const reading = deps.batchFiles.getPart(jobId, part);
  reading.catch(() => undefined); // awaited below, unless the part is skipped
  const started = await deps.jobs.startPart(jobId, part);
  if (!started?.job.batch) return 'skipped';
  const { job } = started;
  // A part's first run has nothing stored yet: only a part started before looks for its outcome and its PDFs. Its
  // outcome is written beside its last PDFs (below), so it counts only if every PDF it names as printed is stored.
  const [before, storedBefore] = started.startedBefore
    ? await Promise.all([deps.batchFiles.getOutcome(jobId, part), deps.batchFiles.storedPdfs(jobId, part)])
    : [undefined, []];
  let outcomes = before && whole(before, storedBefore) ? before : undefined;
  if (!outcomes) {
    const entries = await reading;
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
    // Which PDFs earlier runs of this part stored.
    const stored = new Map(storedBefore.map((p) => [p.uuid, p]));
    let chunks = Math.max(-1, ...[...stored.values()].map((p) => p.chunk)) + 1;
    // The PDFs rendered and not written yet: written once, CHUNK_PDFS at a time, while the next ones render.
    let pending: { at: number; uuid: string; pdf: Buffer }[] = [];
    const writes: Promise<void>[] = [];
    let made = 0;
    /** A chunk failed to write on the last attempt: its PDFs' outcomes changed after the outcome was written. */
    let lostChunk = false;
    const write = () => {
      const chunk = chunks++;
      const pdfs = pending;
      pending = [];
      // Each PDF's outcome once its chunk is written (the outcome written beside the last chunk names it so).
      for (const p of pdfs) outcomes![p.at] = { uuid: p.uuid, ok: true, bytes: p.pdf.length, chunk };
      const writing = deps.batchFiles.putPdfs(jobId, part, chunk, pdfs).then(
        () => {
          // One line per chunk stored, naming its PDFs (the crash test counts them: a redelivered part makes none
          // twice).
          logger.info('batch PDFs stored', { jobId, part, chunk, uuids: pdfs.map((p) => p.uuid) });
          made += pdfs.length;
        },
        (err: unknown) => {
          for (const p of pdfs) outcomes![p.at] = ourFault(p.uuid, err);
          lostChunk = true;
        },
      );
      // Its failure is read once the part's renders end (Promise.allSettled below); meanwhile it must not count as
      // unhandled, which ends a Node process (the local runtime; a Lambda's run).
      writing.catch(() => undefined);
      writes.push(writing);
    };
    // A CFDI read for printing (its XML parsed and checked: ~2 ms of this thread), or why it cannot be.
    const read = (entry: BatchEntry): ReadCfdi => {
      try {
        const parsed = parseRenderRequest({ template: entry.template, cfdi_xml: entry.xml, format: 'pdf' });
        return { request: marca ? withAccountBrand(parsed, marca) : parsed };
      } catch (err) {
        return { err };
      }
    };
    const toRender = entries.filter((e) => !stored.has(e.row.uuid));
    let failure: { err: unknown } | undefined;
    let ahead: { entry: BatchEntry; cfdi: ReadCfdi } | undefined;
    outcomes = [];
    try {
      for (const entry of entries) {
        const uuid = entry.row.uuid;
        const before = stored.get(uuid);
        if (before) {
          outcomes.push({ uuid, ok: true, bytes: before.bytes, chunk: before.chunk });
          continue;
        }
        try {
          if (remainingMs() < TIME_KEPT_MS)
            throw new OutOfTime(
              `the part ran out of time (${TIME_KEPT_MS / 1000} s kept before its timeout)`,
            );
          const cfdi = ahead?.entry === entry ? ahead.cfdi : read(entry);
          if ('err' in cfdi) throw cfdi.err;
          const rendering = renderDocument(cfdi.request, await deps.renderer(), {
            watermark: job.plan === 'free',
          });
          rendering.catch(() => undefined); // awaited below
          // The next CFDI is read while Chromium prints this one (its processes, not this thread): once this
          // render has sent its page (the next turn of the event loop), not before.
          const following = toRender[toRender.indexOf(entry) + 1];
          if (following) {
            await new Promise((r) => setImmediate(r));
            ahead = { entry: following, cfdi: read(following) };
          }
          const doc = await rendering;
          // Its outcome once its chunk is written (a chunk that fails to write on the last attempt: failed).
          pending.push({ at: outcomes.push({ uuid, ok: false }) - 1, uuid, pdf: doc.bytes });
          // The PDFs before the part's last one go together while it prints: what is written after the last
          // render, before the part can be counted, is one PDF (a smaller PUT: the lane's Chromium waits for it).
          if (pending.length >= CHUNK_PDFS || following === toRender.at(-1)) write();
        } catch (err) {
          const fault = callerFault(err);
          // A fault on our side before the last attempt: the PDFs rendered so far are written (the next run skips
          // them), then SQS redelivers.
          if (!fault && !last) {
            if (pending.length) write();
            await Promise.allSettled(writes);
          }
          outcomes.push(
            fault ? { uuid, ok: false, motivo: `No se pudo imprimir: ${fault}` } : ourFault(uuid, err),
          );
        }
      }
      if (pending.length) write();
    } catch (err) {
      failure = { err };
    }
    // The outcome, written beside the last PDFs' write instead of after it (a round trip less while the lane's
    // Chromium waits): the part is counted once both are written, and a run after a kill between the two finds a PDF
    // it names missing and takes the outcome as not written (whole(), above).
    const outcomeWrite = failure ? undefined : deps.batchFiles.putOutcome(jobId, part, [...outcomes]);
    outcomeWrite?.catch(() => undefined); // awaited below
    const failedWrite = (await Promise.allSettled(writes)).find((r) => r.status === 'rejected');
    if (failedWrite) failure ??= { err: failedWrite.reason };
    // The service's stats count each PDF made once, in one update per part (also when the part fails after it),
    // written beside the outcomes.
    const counting = made ? deps.recordRender('pdf', made).catch(() => undefined) : undefined;
    if (failure) {
      await Promise.allSettled([counting, outcomeWrite]);
      throw failure.err;
    }
    await Promise.all([outcomeWrite, counting]);
    // A chunk lost on the last attempt: its PDFs are failures now, written over the outcome that named them stored.
    if (lostChunk) await deps.batchFiles.putOutcome(jobId, part, outcomes);
  }
  const ok = outcomes.filter((o) => o.ok).length;
  // Counted: the assembly (queued by the split) reads it as soon as the parts before it are in the zip.
  const counted = await deps.jobs.recordPart(jobId, part, ok, outcomes.length - ok);
  // The batch's parts as the count read them: unknown (0) while the split still reads, which then queues what
  // follows the parts counted by then (batch-split.ts, queueRest).
  const parts = (counted?.job ?? job).batch?.parts ?? 0;
  // The count that completes the batch queues the assembly at once when the one the split queued stopped following
  // the rendering (deferred: the mark and this count are ordered on the job's item); otherwise a late one, in case
  // that one died meanwhile: by then it has finished (the late one finds the job done) or is gone.
  if (counted?.job.status === 'rendering' && counted.job.partsDone === parts)
    await deps.assembleQueue.send(
      { jobId } satisfies AssembleMessage,
      counted.job.assemblyDeferred ? 0 : ASSEMBLY_BACKSTOP_S,
    );
  // The plan's window moves on: the part `window` places after this one, unless it is counted already (as the
  // count just read it). Sent again when this part is redelivered (its first send may be what was lost); a part
  // run twice renders nothing twice once its PDFs are stored.
  const next = part + BATCH_LIMITS[job.plan].parallelParts;
  if (next < parts && !(counted?.parts ?? (await deps.jobs.partsCounted(jobId))).has(next))
    await deps.batchQueue.send({ jobId, step: 'part', part: next } satisfies BatchStep);
  return counted ? 'done' : 'skipped';
}
