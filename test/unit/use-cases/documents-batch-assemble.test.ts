// A batch's assembly that cannot finish gives its charge back, and a batch ends once: settled first (completed, or
// failed on the assembly's last attempt) with the `ending` mark and what its end gives back, then the refund, the
// event and the mark removed (use-cases/batch-end.ts). Through the batch assembler's handler, on fakes; the CFDI are
// the corpus' (readForBatch is real), the zip is written for real and read by the fake upload.
import { Readable } from 'node:stream';
import { readForBatch } from '../../../lambdas/documents/core/cfdi-resumen';
import { monthlyRules } from '../../../lambdas/documents/core/plans';
import { batchAssembleDeps } from '../../../lambdas/documents/handlers/batch-assembler';
import type { BatchEntry, BatchFiles, JobRecord, PartOutcome } from '../../../lambdas/documents/ports';
import { giveUpBatch } from '../../../lambdas/documents/use-cases/batch-end';
import { InMemoryMetrics, useMetrics } from '../../../lambdas/shared/observability/metrics';
import { slotsFor } from '../../../lambdas/shared/quota/windows';
import { batchCorpus } from '../../helpers/cfdi-batch';
import { assemblerWorld, MAX_RECEIVE_COUNT } from './batch-assembler-world';

const CREATED = '2026-11-30T23:00:00.000Z';
const SUBJECT = 'docs#acct#assemble';

/**
 * A batch of 4 CFDI in one part, rendered (3 printed, 1 failed on our side) and counted, charged 4 in the month it
 * was started; the account's other work that month: 40 documents. `upload` stores the zip (it reads it all).
 */
async function world(seed: string, upload: BatchFiles['uploadResult']) {
  const entries: BatchEntry[] = batchCorpus(seed, 4, false).files.map((f) => {
    const read = readForBatch(f.xml, f.name);
    if (!read.ok) throw new Error(read.motivo);
    return { archivo: f.name, xml: f.xml, row: read.row, template: read.template };
  });
  const pdfs = entries.slice(0, 3).map((e) => Buffer.from(`%PDF-1.7\n% ${e.row.uuid}\n%%EOF\n`));
  const outcomes: PartOutcome[] = [
    ...pdfs.map((pdf, i) => ({ uuid: entries[i]!.row.uuid, ok: true, chunk: 0, bytes: pdf.length })),
    { uuid: entries[3]!.row.uuid, ok: false, motivo: 'Chromium failed' },
  ];
  const jobId = `job_${seed}`;
  const job: JobRecord = {
    jobId,
    owner: 'acct:assemble',
    plan: 'pro',
    status: 'rendering',
    progress: 0,
    template: null,
    format: 'zip',
    createdAt: CREATED,
    updatedAt: CREATED,
    expiresAt: 0,
    charged: slotsFor(SUBJECT, monthlyRules('pro'), new Date(CREATED)),
    units: 4,
    batch: {
      source: 'json',
      sourceKey: `batches/${jobId}/source.json`,
      quotaSubject: SUBJECT,
      total: 4,
      refused: 0,
      parts: 1,
      splitAt: CREATED,
    },
    batchDone: 3,
    batchFailed: 1,
    partsDone: 1,
  };
  const w = await assemblerWorld(
    job,
    {
      getRefused: async () => [],
      getPart: async () => entries,
      getOutcome: async () => outcomes,
      openPdfs: async () => Readable.from([Buffer.concat(pdfs)]),
      uploadResult: upload,
    },
    () => new Date('2026-12-01T00:00:05.000Z'),
  );
  const rules = monthlyRules('pro');
  const november = new Date('2026-11-20T00:00:00Z');
  await w.quotas.consume(SUBJECT, rules, november, { units: 40 });
  await w.quotas.consume(SUBJECT, rules, new Date(CREATED), { id: `batch:${jobId}`, units: 4 });
  const used = () => w.used('2026-11-15T00:00:00Z');
  expect(await used()).toBe(44);
  return { ...w, jobId, used, assemble: { jobId } };
}

/** Reads the zip to its end, as the S3 upload does. */
const stored: BatchFiles['uploadResult'] = async (jobId, filename, body) => {
  let bytes = 0;
  for await (const chunk of body) bytes += (chunk as Buffer).length;
  return { key: `results/jobs/${jobId}/${filename}`, filename, contentType: 'application/zip', bytes };
};

test('an assembly whose upload fails on every attempt: the last one fails the batch and gives back all it charged, once; its event queued', async () => {
  const w = await world('assembly-gives-up', async () => {
    throw new Error('S3 is unavailable');
  });
  for (const attempt of [1, 2]) expect(await w.deliver(w.assemble, attempt)).toBe(false);
  expect((await w.batches.get(w.jobId))?.status).toBe('rendering');
  expect(await w.used()).toBe(44);
  expect(await w.deliver(w.assemble, MAX_RECEIVE_COUNT)).toBe(false);
  const failed = await w.batches.get(w.jobId);
  expect(failed).toMatchObject({
    status: 'failed',
    error: expect.stringMatching(/zip could not be written on our side after 3 attempts/),
    refundUnits: 4,
    event: { type: 'document.failed', queued: true },
  });
  expect(failed?.ending).toBeUndefined();
  expect(await w.used()).toBe(40);
  expect(w.events()).toEqual([{ jobId: w.jobId, eventId: failed!.event!.id }]);
  // Another assembly of it (the late one the last count queued): nothing more given back, no second event.
  expect(await w.deliver(w.assemble, 1)).toBe(true);
  expect(await w.used()).toBe(40);
  expect(w.events()).toHaveLength(1);
});

test('an assembly whose completing write fails on every attempt gives back all the batch was charged, not only its failed CFDI: its refund follows the settling write', async () => {
  const w = await world('assembly-never-completes', stored);
  w.batches.complete = async () => {
    throw new Error('the job table is throttling');
  };
  for (const attempt of [1, 2, MAX_RECEIVE_COUNT]) expect(await w.deliver(w.assemble, attempt)).toBe(false);
  expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'failed', refundUnits: 4 });
  // A refund of the failed CFDI before the settling write would have taken the charge's id: the whole one, none.
  expect(await w.used()).toBe(40);
});

test('an assembly that died between completing the batch and ending it: the next delivery gives back its failed CFDI once, its event queued once; a give-up after it changes nothing', async () => {
  const w = await world('assembly-ends-again', stored);
  w.quotas.faults.fail('refund', new Error('the worker died here'));
  expect(await w.deliver(w.assemble, 1)).toBe(false);
  expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'done', ending: true, refundUnits: 1 });
  // Not given back yet (its event may be queued: it goes beside the refund, before the mark is removed).
  expect(await w.used()).toBe(44);
  // SQS redelivers it: the batch is settled, still `ending`: its end runs again, counted in JobsEndedLate.
  const metrics = new InMemoryMetrics();
  const restore = useMetrics('documents', metrics);
  expect(await w.deliver(w.assemble, 2)).toBe(true);
  expect(metrics.points).toEqual([
    { name: 'JobsEndedLate', unit: 'Count', value: 1, detail: { kind: 'batch' } },
  ]);
  const done = await w.batches.get(w.jobId);
  expect(done).toMatchObject({ status: 'done', event: { type: 'document.rendered', queued: true } });
  expect(done?.ending).toBeUndefined();
  expect(await w.used()).toBe(43);
  expect(w.events()).toEqual([{ jobId: w.jobId, eventId: done!.event!.id }]);
  // Ended: a later delivery, or a give-up of another of its messages, gives nothing more back.
  expect(await w.deliver(w.assemble, 1)).toBe(true);
  await giveUpBatch(batchAssembleDeps(w.deps), w.jobId, 'assembly', MAX_RECEIVE_COUNT);
  expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'done' });
  expect(await w.used()).toBe(43);
  expect(w.events()).toHaveLength(1);
  restore();
  expect(metrics.points).toHaveLength(1); // ended: nothing more counted
});
