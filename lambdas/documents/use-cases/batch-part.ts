// CFDI batches, the part step (the steps: ./batch-run.ts).
import { DomainError, Unavailable } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { BATCH_LIMITS } from '../core/plans';
import { DocumentRequestError } from '../errors';
import type { PartOutcome } from '../ports';
import type { BatchRunDeps } from './batch-run-deps';
import type { AssembleMessage, BatchStep } from './batches';
import { withAccountBrand } from './brand';
import { parseRenderRequest, renderDocument } from './render-request';

/**
 * Delay of the late assembly queued when the last part is counted: the assembler's timeout (15 minutes, also SQS's
 * longest delay), so the assembly that follows the parts has ended by then.
 */
const ASSEMBLY_BACKSTOP_S = 900;

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
  // Counted: the assembly (queued by the split) reads it as soon as the parts before it are in the zip.
  const counted = await deps.jobs.recordPart(jobId, part, ok, outcomes.length - ok);
  // The count that completes the batch also queues a late assembly, in case the one the split queued died or gave
  // up while a part was being retried: by then that one has finished (the late one finds the job done) or is gone.
  if (counted?.job.status === 'rendering' && counted.job.partsDone === parts)
    await deps.assembleQueue.send({ jobId } satisfies AssembleMessage, ASSEMBLY_BACKSTOP_S);
  // The plan's window moves on: the part `window` places after this one, unless it is counted already (as the
  // count just read it). Sent again when this part is redelivered (its first send may be what was lost); a part
  // run twice renders nothing twice once its PDFs are stored.
  const next = part + BATCH_LIMITS[job.plan].parallelParts;
  if (next < parts && !(counted?.parts ?? (await deps.jobs.partsCounted(jobId))).has(next))
    await deps.batchQueue.send({ jobId, step: 'part', part: next } satisfies BatchStep);
  return counted ? 'done' : 'skipped';
}
