// CFDI batches, the worker side (the API side is ./batches.ts). Three steps, each in its own file (their deps:
// ./batch-run-deps.ts), each one SQS message and each idempotent, because SQS delivers at least once and a worker
// may die. The parts are messages of the batch queue (handlers/batch-worker.ts, the Chromium image, here); the split
// (sent by POST /v1/batches) and the assembly (one per batch, sent by the split) are the assemble queue's
// (handlers/batch-assembler.ts, a zip bundle: neither needs Chromium), so the split takes no renderer's time and
// pays a small function's cold start, and the assembly runs beside the rendering instead of after it:
//   split (batch-split.ts) — reads the zip (streamed: fflate's Unzip, one entry at a time) or the JSON list;
//              reads each XML (core/cfdi-resumen.ts), refuses what cannot be printed, keeps one CFDI per UUID,
//              writes parts of PART_SIZE CFDI to S3 (the last 40–59 held back and cut smaller, so the batch's
//              last parts end close together: partSizes), queueing each of the plan's first window as soon as it is
//              written while the CFDI queued so far fit in what the account had left (quotas.peek: work before the
//              charge never exceeds what it could print; a part starts and is counted with the batch still
//              queued), charges the month once (units = CFDI to print, charge id per batch; over what is left the
//              batch fails, nothing charged), records the plan (queued → rendering, one conditional write that
//              keeps the counts of parts already counted and answers them), queues each chain's next part not
//              queued yet (a part counted while the split read queued no successor) and the assembly.
//   part (batch-part.ts) — renders its CFDI with the same renderDocument() as POST /v1/render, skipping any whose
//              PDF is already stored (looked for when the part ran before: a redelivered part renders nothing
//              twice once it is stored; its start is recorded in the update that reads the batch). Each PDF is
//              written once, in a chunk of CHUNK_PDFS while the next ones render (the chunk's metadata names its
//              PDFs and sizes). Then it stores the outcomes (each PDF's chunk and size) and counts the part once (a
//              string set on the job record; the count that completes the batch queues the assembly: at once if
//              the one the split queued deferred, else a late one 15 minutes on in case that one died). A fault on
//              our side fails the message (SQS retries it after the backoff); on the last attempt the CFDI still
//              without a PDF are reported failed, one by one, and the rest of the batch goes on.
//   assemble (batch-assemble.ts) — streams the result zip to S3 (PDF + XML per CFDI, resumen.xlsx, resumen.csv)
//              part by part, each as soon as it is counted (it polls the job's counted parts while it waits, for at
//              most FOLLOW_MS: then, while parts are missing, it marks the job deferred and ends, and the last
//              count queues the next assembly; redelivered, it starts again and writes the same zip; only one run
//              completes the job), each part's chunks cut at the sizes its outcomes give (a part stored by earlier
//              code: its part PDF object or per-PDF objects), the next part's opening meanwhile; memory holds two
//              parts' entries and the upload's two 5 MiB parts, whatever the batch's size. The tail after the last
//              count is short: with one part left it polls every 40 ms instead of 300, the workbook is finished
//              while that part's PDFs stream, and the webhook is looked up while the upload ends. Then the batch
//              settles and ends once: it completes (or, on the last attempt, fails) marked `ending`, gives back
//              the quota of CFDI that failed (or all of it) and queues its webhook event (Scale), and removes the
//              mark last; a delivery that finds it settled and still `ending` runs the end again.
import { renderPart } from './batch-part';
import type { BatchRunDeps } from './batch-run-deps';
import type { AssembleMessage, BatchStep } from './batches';

/** A message of the batch queue (the batch worker's): a part. */
export async function runBatchStep(
  deps: BatchRunDeps,
  step: BatchStep,
  attempt: number,
  remainingMs: () => number = () => Infinity,
): Promise<string> {
  if (step.step === 'part') return renderPart(deps, step.jobId, step.part, attempt, remainingMs);
  // A split or an assembly the batch queue still carried from before they were the assembler's: the assembler's now.
  await deps.assembleQueue.send({
    jobId: step.jobId,
    ...(step.step === 'split' ? { step: 'split' } : {}),
  } satisfies AssembleMessage);
  return 'forwarded';
}
