// The batch path's S3 files and its assembly against the embedded emulators (cases of ../adapters.test.ts, which
// starts the emulators): parts written by earlier and today's code assemble into one zip; the assembly follows the
// parts' counts, and defers to the last count past its follow time.
import { randomBytes } from 'node:crypto';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { strFromU8, unzipSync } from 'fflate';
import { dynamo, s3Client } from '../../../lambdas/shared/aws/clients';
import { S3BatchFiles } from '../../../lambdas/documents/adapters/batch-files';
import { DynamoBatchRepository } from '../../../lambdas/documents/adapters/batch-repository';
import { baseName, readForBatch } from '../../../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord, SplitBatch } from '../../../lambdas/documents/ports';
import { monthlyRules } from '../../../lambdas/documents/core/plans';
import { DynamoQuotaStore } from '../../../lambdas/shared/aws/quota-store';
import { assembleBatch } from '../../../lambdas/documents/use-cases/batch-assemble';
import { giveUpBatch } from '../../../lambdas/documents/use-cases/batch-end';
import type { BatchAssembleDeps } from '../../../lambdas/documents/use-cases/batch-run-deps';
import { batchCorpus } from '../../helpers/cfdi-batch';
import { FakeMessageQueue } from '../../fakes/documents';
import type { withEmulators } from '../../helpers/env';

type Emulators = Awaited<ReturnType<typeof withEmulators>>;

export function batchAssemblyCases(env: () => Emulators): void {
  describe('S3BatchFiles and the batch assembly', () => {
    /** `n` distinct stamped CFDI as the split leaves them. */
    const entriesOf = (seed: string, n: number): BatchEntry[] =>
      batchCorpus(seed, n, false).files.map((f) => {
        const read = readForBatch(f.xml, f.name);
        if (!read.ok) throw new Error(read.motivo);
        return { archivo: f.name, xml: f.xml, row: read.row, template: read.template };
      });
    const pdfOf = (e: BatchEntry) => Buffer.from(`%PDF-1.7\n% ${e.row.uuid}\n%%EOF\n`);
    /** A split batch's job record: `parts` parts, `partsDone` of them counted. */
    const renderingJob = (jobId: string, total: number, parts: number, partsDone: number): JobRecord => {
      const now = new Date().toISOString();
      return {
        jobId,
        owner: 'acct:assembly',
        plan: 'scale',
        status: 'rendering',
        progress: 0,
        template: null,
        format: 'zip',
        createdAt: now,
        updatedAt: now,
        expiresAt: 0,
        charged: [],
        batch: { source: 'zip', sourceKey: 'x', quotaSubject: 'x', total, refused: 0, parts, splitAt: now },
        partsDone,
      };
    };

    /** An object at a batch's key as code before chunks wrote it (a part PDF object, or one PDF's own object). */
    const putLegacy = (jobId: string, rest: string, body: Buffer) =>
      s3Client().send(
        new PutObjectCommand({ Bucket: env().bucket, Key: `batches/${jobId}/${rest}`, Body: body }),
      );

    test("parts counted by earlier code (per-PDF objects; a part PDF object) and by today's (chunks, read back by a redelivered part) assemble into one zip", async () => {
      const files = new S3BatchFiles(s3Client(), env().bucket);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const entries = entriesOf('legacy-outcomes', 6);
      const [old1, old2, sized, c1, c2, c3] = entries as [
        BatchEntry,
        BatchEntry,
        BatchEntry,
        BatchEntry,
        BatchEntry,
        BatchEntry,
      ];
      // Part 0 in the shape the code before sizes stored: printed outcomes without `bytes`, one object per PDF.
      for (const e of [old1, old2]) await putLegacy(jobId, `pdf/${e.row.uuid}.pdf`, pdfOf(e));
      await files.putPart(jobId, 0, [old1, old2]);
      await files.putOutcome(jobId, 0, [
        { uuid: old1.row.uuid, ok: true },
        { uuid: old2.row.uuid, ok: true },
      ]);
      // Part 1 in the shape before chunks: sizes in its outcome, its PDFs in one part object.
      await files.putPart(jobId, 1, [sized]);
      await files.putOutcome(jobId, 1, [{ uuid: sized.row.uuid, ok: true, bytes: pdfOf(sized).length }]);
      await putLegacy(jobId, 'parts/1.pdfs', pdfOf(sized));
      // Part 2 today: two chunks, written out of the part's order (a redelivered part wrote c2 after c1 and c3).
      await files.putPdfs(jobId, 2, 0, [
        { uuid: c1.row.uuid, pdf: pdfOf(c1) },
        { uuid: c3.row.uuid, pdf: pdfOf(c3) },
      ]);
      await files.putPdfs(jobId, 2, 1, [{ uuid: c2.row.uuid, pdf: pdfOf(c2) }]);
      // What a redelivered part finds: each PDF once, with its chunk and size (none of part 12, whose prefix starts
      // alike; none of a chunk shorter than its metadata says, which S3 never stores but a killed emulator could).
      await files.putPdfs(jobId, 12, 0, [{ uuid: old1.row.uuid, pdf: pdfOf(old1) }]);
      await s3Client().send(
        new PutObjectCommand({
          Bucket: env().bucket,
          Key: `batches/${jobId}/parts/2/pdfs-7`,
          Body: pdfOf(old2).subarray(1),
          Metadata: { pdfs: `${old2.row.uuid}:${pdfOf(old2).length}` },
        }),
      );
      const stored = await files.storedPdfs(jobId, 2);
      expect(stored.sort((a, b) => a.uuid.localeCompare(b.uuid))).toEqual(
        [
          { uuid: c1.row.uuid, chunk: 0, bytes: pdfOf(c1).length },
          { uuid: c3.row.uuid, chunk: 0, bytes: pdfOf(c3).length },
          { uuid: c2.row.uuid, chunk: 1, bytes: pdfOf(c2).length },
        ].sort((a, b) => a.uuid.localeCompare(b.uuid)),
      );
      expect(await files.storedPdfs(jobId, 3)).toEqual([]);
      await files.putPart(jobId, 2, [c1, c2, c3]);
      const bySource = new Map(stored.map((p) => [p.uuid, p]));
      await files.putOutcome(
        jobId,
        2,
        [c1, c2, c3].map((e) => ({ uuid: e.row.uuid, ok: true, ...bySource.get(e.row.uuid) })),
      );
      await files.putRefused(jobId, []);
      const job = renderingJob(jobId, 6, 3, 3);
      const completed: unknown[] = [];
      const deps = {
        jobs: {
          get: async () => job,
          complete: async (_: string, c: unknown) => completed.push(c) > 0,
          markEnded: async () => true,
        },
        batchFiles: files,
        events: { subscribed: async () => false },
        now: () => new Date(),
      } as unknown as BatchAssembleDeps;
      expect(await assembleBatch(deps, jobId)).toBe('done');
      expect(completed).toHaveLength(1);
      const { result } = completed[0] as { result: { key: string } };
      const out = await s3Client().send(new GetObjectCommand({ Bucket: env().bucket, Key: result.key }));
      const zip = unzipSync(await out.Body!.transformToByteArray());
      for (const e of entries) {
        expect(Buffer.from(zip[`${baseName(e.row)}.pdf`] ?? [])).toEqual(pdfOf(e));
        expect(strFromU8(zip[`${baseName(e.row)}.xml`] ?? new Uint8Array())).toBe(e.xml);
      }
      const csv = strFromU8(zip['resumen.csv']!).trim().split('\n');
      expect(csv.slice(1).map((line) => entries.some((e) => line.includes(e.row.uuid)))).toEqual(
        entries.map(() => true),
      );
      expect(Object.keys(zip).sort()).toEqual(
        [
          ...entries.flatMap((e) => [`${baseName(e.row)}.pdf`, `${baseName(e.row)}.xml`]),
          'resumen.csv',
          'resumen.xlsx',
        ].sort(),
      );
    });

    test('a CFDI that failed on our side in the last part: listed with its reason, left out of the rows, its unit given back once, after the completing write that records it (refundUnits)', async () => {
      const files = new S3BatchFiles(s3Client(), env().bucket);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const [ok, lost] = entriesOf('assembly-failed', 2) as [BatchEntry, BatchEntry];
      await files.putRefused(jobId, [{ archivo: 'roto.xml', motivo: 'no es XML' }]);
      await files.putPart(jobId, 0, [ok, lost]);
      await files.putPdfs(jobId, 0, 0, [{ uuid: ok.row.uuid, pdf: pdfOf(ok) }]);
      await files.putOutcome(jobId, 0, [
        { uuid: ok.row.uuid, ok: true, bytes: pdfOf(ok).length, chunk: 0 },
        { uuid: lost.row.uuid, ok: false, motivo: 'Falló la impresión de nuestro lado tras 3 intentos' },
      ]);
      const charged = [{ period: 'month' as const, limit: 1000, key: 'q#x', resetAt: 0 }];
      const job = { ...renderingJob(jobId, 2, 1, 1), charged } as unknown as JobRecord;
      const completed: unknown[] = [];
      const refunds: unknown[] = [];
      const deps = {
        jobs: {
          get: async () => job,
          complete: async (_: string, c: unknown) => completed.push(c) > 0,
          markEnded: async () => true,
        },
        batchFiles: files,
        quotas: { refund: async (d: unknown) => void refunds.push(d) },
        events: { subscribed: async () => false },
        now: () => new Date(),
      } as unknown as BatchAssembleDeps;
      expect(await assembleBatch(deps, jobId)).toBe('done');
      expect(refunds).toEqual([expect.objectContaining({ chargeId: `batch:${jobId}`, units: 1, charged })]);
      expect(completed).toEqual([expect.objectContaining({ refundUnits: 1, ending: true })]);
      const { result } = completed[0] as { result: { key: string } };
      const out = await s3Client().send(new GetObjectCommand({ Bucket: env().bucket, Key: result.key }));
      const zip = unzipSync(await out.Body!.transformToByteArray());
      const csv = strFromU8(zip['resumen.csv']!).trim().split('\n');
      expect(csv.slice(1).map((line) => line.includes(ok.row.uuid))).toEqual([true]);
      expect(Object.keys(zip).sort()).toEqual(
        [`${baseName(ok.row)}.pdf`, `${baseName(ok.row)}.xml`, 'resumen.csv', 'resumen.xlsx'].sort(),
      );
      // The workbook's refusals sheet (xlsx: a zip of XML) names both: the split's and the one that failed.
      const book = unzipSync(zip['resumen.xlsx']!);
      const sheets = Object.keys(book).filter((n) => /^xl\/worksheets\/sheet\d+\.xml$/.test(n));
      const text =
        sheets.map((n) => strFromU8(book[n]!)).join('') +
        strFromU8(book['xl/sharedStrings.xml'] ?? new Uint8Array());
      expect(text).toContain('roto.xml');
      expect(text).toContain(lost.archivo);
      expect(text).toContain('Falló la impresión de nuestro lado');
    });

    test('an assembly started with the batch waits for each part to be counted, then streams it', async () => {
      const files = new S3BatchFiles(s3Client(), env().bucket);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const entries = entriesOf('assembly-follows', 2);
      await files.putRefused(jobId, []);
      // A part as the batch worker leaves it when it is counted: entries, PDFs in a chunk, outcomes with sizes.
      const renderPart = async (part: number) => {
        const e = entries[part]!;
        await files.putPart(jobId, part, [e]);
        await files.putPdfs(jobId, part, 0, [{ uuid: e.row.uuid, pdf: pdfOf(e) }]);
        await files.putOutcome(jobId, part, [
          { uuid: e.row.uuid, ok: true, bytes: pdfOf(e).length, chunk: 0 },
        ]);
      };
      const job = renderingJob(jobId, 2, 2, 0);
      // Parts are rendered (written) only while the assembly already runs: part 0 at its 2nd poll, part 1 at its 4th.
      // An assembly that read a part before its count would find no outcome and report its CFDI failed.
      let polls = 0;
      const counted = new Set<number>();
      const completed: { result: { key: string } }[] = [];
      const deps = {
        jobs: {
          get: async () => job,
          partsCounted: async () => {
            polls++;
            for (const part of [0, 1])
              if (!counted.has(part) && polls >= 2 + 2 * part) {
                await renderPart(part);
                counted.add(part);
              }
            return new Set(counted);
          },
          complete: async (_: string, c: { result: { key: string } }) => completed.push(c) > 0,
          markEnded: async () => true,
        },
        batchFiles: files,
        events: { subscribed: async () => false },
        now: () => new Date(),
      } as unknown as BatchAssembleDeps;
      expect(await assembleBatch(deps, jobId)).toBe('done');
      expect(polls).toBeGreaterThanOrEqual(4);
      const out = await s3Client().send(
        new GetObjectCommand({ Bucket: env().bucket, Key: completed[0]!.result.key }),
      );
      const zip = unzipSync(await out.Body!.transformToByteArray());
      for (const e of entries) expect(Buffer.from(zip[`${baseName(e.row)}.pdf`] ?? [])).toEqual(pdfOf(e));
      // No CFDI reported refused or failed in the workbook's CSV twin: both rows are printed ones.
      expect(strFromU8(zip['resumen.csv']!).trim().split('\n')).toHaveLength(3);
    });
    test('an assembly still waiting past its follow time defers to the last count; the count that completes the batch then sees the mark', async () => {
      const files = new S3BatchFiles(s3Client(), env().bucket);
      const batches = new DynamoBatchRepository(dynamo(), env().tableNames.accounts);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const entries = entriesOf('assembly-defers', 2);
      await files.putRefused(jobId, []);
      const job = renderingJob(jobId, 2, 2, 0);
      await batches.create({ ...job, status: 'queued' });
      expect(await batches.planBatch(jobId, job.batch as SplitBatch, [])).toEqual(new Set());
      for (const [part, e] of entries.entries()) {
        await files.putPart(jobId, part, [e]);
        await files.putPdfs(jobId, part, 0, [{ uuid: e.row.uuid, pdf: pdfOf(e) }]);
        await files.putOutcome(jobId, part, [
          { uuid: e.row.uuid, ok: true, bytes: pdfOf(e).length, chunk: 0 },
        ]);
      }
      // Part 0 counted; part 1 still rendering when the assembly's follow time (here 300 ms) runs out.
      expect((await batches.recordPart(jobId, 0, 1, 0))?.job.assemblyDeferred).toBeUndefined();
      const completed: unknown[] = [];
      const deps = {
        jobs: {
          get: (id: string) => batches.get(id),
          partsCounted: (id: string) => batches.partsCounted(id),
          deferAssembly: (id: string, parts: number) => batches.deferAssembly(id, parts),
          complete: async (_: string, c: unknown) => completed.push(c) > 0,
          markEnded: async () => true,
        },
        batchFiles: files,
        events: { subscribed: async () => false },
        now: () => new Date(),
      } as unknown as BatchAssembleDeps;
      expect(await assembleBatch(deps, jobId, 300)).toBe('deferred');
      expect(completed).toEqual([]);
      // Its unfinished zip was not stored (the multipart upload was aborted); the job is marked.
      const results = await s3Client().send(
        new ListObjectsV2Command({ Bucket: env().bucket, Prefix: `results/jobs/${jobId}/` }),
      );
      expect(results.Contents ?? []).toEqual([]);
      expect((await batches.get(jobId))?.assemblyDeferred).toBe(true);
      // A second assembly (a redelivered split's) waits for nothing: the last count queues the next one.
      expect(await assembleBatch(deps, jobId, 300)).toBe('skipped');
      // The count that completes the batch reads the mark (batch-part.ts then queues the assembly at once) ...
      const last = await batches.recordPart(jobId, 1, 1, 0);
      expect(last?.job).toMatchObject({ partsDone: 2, assemblyDeferred: true });
      // ... and once every part is counted there is nothing left to defer: the mark is not set again.
      expect(await batches.deferAssembly(jobId, 2)).toBe(false);
      expect(await assembleBatch(deps, jobId, 300)).toBe('done');
      expect(completed).toHaveLength(1);
    });

    test('an assembly past its follow time keeps waiting when the last part was counted first (no mark: the count queued the late one)', async () => {
      const batches = new DynamoBatchRepository(dynamo(), env().tableNames.accounts);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const job = renderingJob(jobId, 2, 2, 0);
      await batches.create({ ...job, status: 'queued' });
      await batches.planBatch(jobId, job.batch as SplitBatch, []);
      await batches.recordPart(jobId, 0, 1, 0);
      await batches.recordPart(jobId, 1, 1, 0);
      expect(await batches.deferAssembly(jobId, 2)).toBe(false);
      expect((await batches.get(jobId))?.assemblyDeferred).toBeUndefined();
    });

    test('a part started and counted while the split still reads keeps its counts through the split; the split answers it counted, once', async () => {
      const batches = new DynamoBatchRepository(dynamo(), env().tableNames.accounts);
      const jobId = `job_${randomBytes(11).toString('base64url')}`;
      const job = renderingJob(jobId, 5, 3, 0);
      const { batchDone: _d, batchFailed: _f, partsDone: _p, ...queued } = job;
      await batches.create({ ...queued, status: 'queued', batch: { ...job.batch!, parts: undefined } });
      // Queued (the split reading): part 1 starts and is counted, not twice.
      expect(await batches.startPart(jobId, 1)).toMatchObject({
        job: { status: 'queued' },
        startedBefore: false,
      });
      expect((await batches.recordPart(jobId, 1, 2, 1))?.job).toMatchObject({
        status: 'queued',
        partsDone: 1,
      });
      expect(await batches.recordPart(jobId, 1, 2, 1)).toBeUndefined();
      // The split recorded: the counts stay, and it answers part 1 counted; a second split record answers nothing.
      expect(await batches.planBatch(jobId, job.batch as SplitBatch, [])).toEqual(new Set([1]));
      expect(await batches.planBatch(jobId, job.batch as SplitBatch, [])).toBeUndefined();
      expect(await batches.get(jobId)).toMatchObject({
        status: 'rendering',
        batchDone: 2,
        batchFailed: 1,
        partsDone: 1,
      });
      expect((await batches.recordPart(jobId, 0, 1, 0))?.job).toMatchObject({ partsDone: 2, batchDone: 3 });
      // A failed batch (over its quota) starts and counts nothing more.
      await batches.fail(jobId, 'over', { completedAt: new Date().toISOString() });
      expect(await batches.startPart(jobId, 2)).toBeUndefined();
      expect(await batches.recordPart(jobId, 2, 1, 0)).toBeUndefined();
    });

    test('a batch given up before its split was recorded gives back the units its split recorded, once, and only a charge that was made (DynamoDB quota store: a refund by an id never charged is none)', async () => {
      const batches = new DynamoBatchRepository(dynamo(), env().tableNames.accounts);
      const quotas = new DynamoQuotaStore(dynamo(), env().tableNames.quotas);
      const rules = monthlyRules('scale');
      const deps = {
        jobs: batches,
        quotas,
        events: {
          subscribed: async () => false,
          jobs: batches,
          deliveryQueue: new FakeMessageQueue(),
        },
        now: () => new Date(),
      };
      const queuedJob = (jobId: string, subject: string): JobRecord => {
        const { batchDone: _d, batchFailed: _f, partsDone: _p, ...job } = renderingJob(jobId, 0, 0, 0);
        return { ...job, status: 'queued', batch: { source: 'json', sourceKey: 'x', quotaSubject: subject } };
      };
      for (const charged of [true, false]) {
        const jobId = `job_${randomBytes(11).toString('base64url')}`;
        const subject = `docs#giveup#${jobId}`;
        const job = queuedJob(jobId, subject);
        await batches.create(job);
        const at = new Date(job.createdAt);
        // The account's other work that month.
        await quotas.consume(subject, rules, at, { units: 40 });
        expect(await batches.recordBatchUnits(jobId, 25)).toBe(true);
        if (charged) await quotas.consume(subject, rules, at, { id: `batch:${jobId}`, units: 25 });
        await giveUpBatch(deps, jobId, 'split', 3);
        await giveUpBatch(deps, jobId, 'split', 3); // another message of it given up too: nothing twice
        expect(await batches.get(jobId)).toMatchObject({ status: 'failed', units: 25, refundUnits: 25 });
        expect((await batches.get(jobId))?.ending).toBeUndefined();
        expect((await quotas.peek(subject, rules, at))[0]!.used).toBe(40);
        // Settled: its units are not recorded again.
        expect(await batches.recordBatchUnits(jobId, 25)).toBe(false);
      }
    });
  });
}
