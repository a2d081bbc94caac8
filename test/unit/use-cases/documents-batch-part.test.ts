// A batch part (use-cases/batch-part.ts) with fakes for the stores and the renderer: it reads its CFDI while its
// start is recorded, reads the next CFDI while Chromium prints the current one, and counts the PDFs it stored in the
// service's stats beside its outcomes. Each test pins what those overlaps must not change: a part of a batch that is
// gone is skipped (its unread CFDI are no fault), a CFDI that cannot be printed is refused in its turn, and a part
// whose chunk could not be written fails (SQS retries it) with only its stored PDFs counted and no outcome written.
import { PDFDocument } from 'pdf-lib';
import { readForBatch } from '../../../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord, PartOutcome } from '../../../lambdas/documents/ports';
import { renderPart } from '../../../lambdas/documents/use-cases/batch-part';
import type { BatchRunDeps } from '../../../lambdas/documents/use-cases/batch-run-deps';
import { batchCorpus } from '../../helpers/cfdi-batch';
import { jobRecord } from '../../fakes/documents';

// The fakes' job record, as a batch that is rendering.
const JOB: JobRecord = jobRecord(
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

function entries(seed: string, count: number): BatchEntry[] {
  return batchCorpus(seed, count, false).files.map((f) => {
    const read = readForBatch(f.xml, f.name);
    if (!read.ok) throw new Error(read.motivo);
    return { archivo: f.name, xml: f.xml, row: read.row, template: read.template };
  });
}

/** A real one-page PDF (the render's post-processing reads it), as the fake Chromium's every print. */
let blank: Buffer;
beforeAll(async () => {
  const doc = await PDFDocument.create();
  doc.addPage();
  blank = Buffer.from(await doc.save());
});

/** A part's run against fakes: what it rendered, stored, counted and answered. */
async function run(
  part: BatchEntry[] | Error,
  opts: { started?: boolean; failChunk?: number; attempt?: number } = {},
) {
  const rendered: string[] = [];
  const chunks: string[][] = [];
  const outcomes: PartOutcome[][] = [];
  const stats: number[] = [];
  const counts: [number, number][] = [];
  const deps = {
    jobs: {
      startPart: async () => (opts.started === false ? undefined : { job: JOB, startedBefore: false }),
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
      putPdfs: async (_j: string, _p: number, chunk: number, pdfs: { uuid: string }[]) => {
        if (chunk === opts.failChunk) throw new Error('S3 is down');
        chunks.push(pdfs.map((p) => p.uuid));
      },
      putOutcome: async (_j: string, _p: number, o: PartOutcome[]) => void outcomes.push(o),
    },
    renderer: async () => ({
      renderPdf: async (html: string) => {
        rendered.push(/[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}/.exec(html)?.[0] ?? '?');
        return blank;
      },
      renderPng: async () => Buffer.alloc(0),
    }),
    recordRender: async (_f: string, n: number) => void stats.push(n),
    assembleQueue: { send: async () => undefined },
    batchQueue: { send: async () => undefined },
    maxAttempts: 3,
  } as unknown as BatchRunDeps;
  const answer = await renderPart(deps, JOB.jobId, 0, opts.attempt ?? 1).catch((err: Error) => err);
  return { answer, rendered, chunks, outcomes, stats, counts };
}

test('a part whose batch is gone is skipped, though its CFDI could not be read (read while its start is recorded)', async () => {
  const { answer, rendered, outcomes, counts } = await run(new Error('NoSuchKey: the batch was deleted'), {
    started: false,
  });
  expect(answer).toBe('skipped');
  expect({ rendered, outcomes, counts }).toEqual({ rendered: [], outcomes: [], counts: [] });
});

test('a CFDI that cannot be printed, read while the one before it prints, is refused in its turn; the rest print', async () => {
  const part = entries('part-refused', 4);
  // Cut in half (as a file damaged after the split read it): the renderer's own reading refuses it.
  const broken = { ...part[1]!, xml: part[1]!.xml.slice(0, part[1]!.xml.length / 2) };
  const { answer, outcomes, counts, stats, chunks } = await run([part[0]!, broken, part[2]!, part[3]!]);
  expect(answer).toBe('done');
  const uuids = part.map((e) => e.row.uuid);
  expect(outcomes).toHaveLength(1);
  expect(outcomes[0]!.map((o) => [o.uuid, o.ok])).toEqual([
    [uuids[0], true],
    [uuids[1], false],
    [uuids[2], true],
    [uuids[3], true],
  ]);
  expect(outcomes[0]![1]!.motivo).toMatch(/^No se pudo imprimir: Not well-formed XML/);
  expect(chunks).toEqual([[uuids[0], uuids[2], uuids[3]]]);
  expect({ counts, stats }).toEqual({ counts: [[3, 1]], stats: [3] });
});

test('a chunk that cannot be written fails the part before its last attempt: only the stored PDFs are counted, no outcome is written', async () => {
  const part = entries('part-chunk-fails', 12);
  const { answer, chunks, outcomes, stats, counts } = await run(part, { failChunk: 1, attempt: 1 });
  expect(answer).toEqual(new Error('S3 is down'));
  expect(chunks).toEqual([part.slice(0, 10).map((e) => e.row.uuid)]);
  expect({ outcomes, stats, counts }).toEqual({ outcomes: [], stats: [10], counts: [] });
});
