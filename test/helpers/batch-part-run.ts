// A batch part (use-cases/batch-part.ts) run against fakes of its stores and renderer (test/unit/use-cases/
// documents-batch-part.test.ts). Run as a script (tsx), it plays a part whose first chunk fails to write while the
// next CFDI still print, in a plain Node process, where a rejection left without a handler ends the process (Jest
// tracks them its own way): it prints the part's answer and what it rendered and stored, as JSON.
import { PDFDocument } from 'pdf-lib';
import { readForBatch } from '../../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord, PartOutcome, StoredPdf } from '../../lambdas/documents/ports';
import { renderPart } from '../../lambdas/documents/use-cases/batch-part';
import type { BatchRunDeps } from '../../lambdas/documents/use-cases/batch-run-deps';
import { batchCorpus } from './cfdi-batch';
import { jobRecord } from '../fakes/documents';

// The fakes' job record, as a batch that is rendering.
export const JOB: JobRecord = jobRecord(
  {
    jobId: 'job_part',
    owner: 'acct:part',
    plan: 'pro',
    status: 'rendering',
    template: null,
    format: 'zip',
    batch: {
      source: 'json',
      sourceKey: 'batches/job_part/source.json',
      quotaSubject: 'docs#acct#part',
      parts: 1,
    },
  },
  new Date('2026-11-29T00:00:00.000Z'),
);

export function entries(seed: string, count: number): BatchEntry[] {
  return batchCorpus(seed, count, false).files.map((f) => {
    const read = readForBatch(f.xml, f.name);
    if (!read.ok) throw new Error(read.motivo);
    return { archivo: f.name, xml: f.xml, row: read.row, template: read.template };
  });
}

/** A real one-page PDF (the render's post-processing reads it), as the fake Chromium's every print. */
let blank: Promise<Buffer> | undefined;
async function blankPdf(): Promise<Buffer> {
  blank ??= PDFDocument.create().then(async (doc) => {
    doc.addPage();
    return Buffer.from(await doc.save());
  });
  return blank;
}

/**
 * A part's run against fakes: what it rendered, stored, counted and answered. `before`: what an earlier run of the
 * part left in S3 (its outcome, if written, and the PDFs of its chunks): the part was started before.
 */
export async function runPart(
  part: BatchEntry[] | Error,
  opts: {
    started?: boolean;
    failChunk?: number;
    /** The failing chunk's write fails only once an outcome was written (as a slow PUT would). */
    failLate?: boolean;
    attempt?: number;
    /** The invocation's time runs out once this many CFDI were rendered. */
    timeFor?: number;
    before?: { outcome?: PartOutcome[]; stored: StoredPdf[] };
    /** The print of this CFDI (0-based, in print order) is no PDF: its post-processing fails (our fault). */
    tornPrint?: number;
  } = {},
) {
  const rendered: string[] = [];
  const chunks: string[][] = [];
  const stored: StoredPdf[] = [];
  let wrote = () => undefined as void;
  const outcomeWritten = new Promise<void>((r) => (wrote = r));
  const outcomes: PartOutcome[][] = [];
  const stats: number[] = [];
  const counts: [number, number][] = [];
  const deps = {
    jobs: {
      startPart: async () =>
        opts.started === false ? undefined : { job: JOB, startedBefore: opts.before !== undefined },
      recordPart: async (_j: string, _p: number, ok: number, failed: number) => {
        counts.push([ok, failed]);
        return { job: { ...JOB, partsDone: 0 }, parts: new Set([0]) };
      },
      partsCounted: async () => new Set([0]),
    },
    batchFiles: {
      getPart: async () => {
        if (part instanceof Error) throw part;
        return part;
      },
      putPdfs: async (_j: string, _p: number, chunk: number, pdfs: { uuid: string; pdf: Buffer }[]) => {
        if (chunk === opts.failChunk) {
          if (opts.failLate) await outcomeWritten;
          throw new Error('S3 is down');
        }
        chunks.push(pdfs.map((p) => p.uuid));
        stored.push(...pdfs.map((p) => ({ uuid: p.uuid, chunk, bytes: p.pdf.length })));
      },
      getOutcome: async () => opts.before?.outcome,
      storedPdfs: async () => opts.before?.stored ?? [],
      putOutcome: async (_j: string, _p: number, o: PartOutcome[]) => {
        outcomes.push(o);
        wrote();
      },
    },
    renderer: async () => ({
      renderPdf: async (html: string) => {
        rendered.push(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/.exec(html)?.[0] ?? '?');
        if (rendered.length - 1 === opts.tornPrint) return Buffer.from('%PDF-1.7 cut short');
        return blankPdf();
      },
      renderPng: async () => Buffer.alloc(0),
    }),
    recordRender: async (_f: string, n: number) => void stats.push(n),
    assembleQueue: { send: async () => undefined },
    batchQueue: { send: async () => undefined },
    maxAttempts: 3,
  } as unknown as BatchRunDeps;
  const remainingMs = () => (rendered.length >= (opts.timeFor ?? Infinity) ? 10_000 : 300_000);
  const answer = await renderPart(deps, JOB.jobId, 0, opts.attempt ?? 1, remainingMs).catch(
    (err: Error) => err,
  );
  return { answer, rendered, chunks, stored, outcomes, stats, counts };
}

if (require.main === module)
  void (async () => {
    const part = entries('part-first-chunk-fails', 23);
    const run = await runPart(part, { failChunk: 0, attempt: 2 });
    // Past the part's answer: a rejection still unhandled would end the process before this line.
    await new Promise((r) => setTimeout(r, 50));
    const uuids = part.map((e) => e.row.uuid);
    console.log(
      JSON.stringify({
        answer: String(run.answer),
        rendered: run.rendered.length,
        chunks: run.chunks.map((c) => c.map((u) => uuids.indexOf(u))),
        outcomes: run.outcomes.length,
        stats: run.stats,
        counts: run.counts,
      }),
    );
  })();
