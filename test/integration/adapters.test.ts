// The AWS adapters against the embedded emulators (real AWS wire protocols): DynamoDB (dynalite), S3 (s3rver),
// SQS (fauxqs). The quota counter is exact under 100 concurrent requests.
import { writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  CreateBucketCommand,
  DeleteBucketCommand,
  DeleteBucketCorsCommand,
  GetBucketCorsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListObjectsV2Command,
  PutBucketCorsCommand,
  PutObjectCommand,
} from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { strFromU8, unzipSync } from 'fflate';
import { dynamo, s3Client, sqsClient } from '../../lambdas/shared/aws/clients';
import { DynamoAudioRepository } from '../../lambdas/narration/adapters/audio-repository';
import { DynamoFeedStore } from '../../lambdas/narration/adapters/feed-store';
import { S3AudioStore } from '../../lambdas/narration/adapters/audio-store';
import { SqsJobQueue } from '../../lambdas/narration/adapters/job-queue';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { hashKey } from '../../lambdas/shared/auth/keys';
import type { AudioRecord } from '../../lambdas/narration/ports';
import { S3BatchFiles } from '../../lambdas/documents/adapters/batch-files';
import { DynamoBatchRepository } from '../../lambdas/documents/adapters/batch-repository';
import { baseName, readForBatch } from '../../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord, SplitBatch } from '../../lambdas/documents/ports';
import { assembleBatch } from '../../lambdas/documents/use-cases/batch-assemble';
import type { BatchRunDeps } from '../../lambdas/documents/use-cases/batch-run-deps';
import { batchCorpus } from '../helpers/cfdi-batch';
import { withEmulators, tempDir } from '../helpers/env';
import { until } from '../helpers/until';

let emu: Awaited<ReturnType<typeof withEmulators>>;
beforeAll(async () => {
  emu = await withEmulators();
});
afterAll(async () => {
  await emu.cleanup();
});

describe('DynamoQuotaStore', () => {
  const rules = [
    { period: 'hour' as const, limit: 5 },
    { period: 'day' as const, limit: 20 },
  ];

  test('100 concurrent charges from one subject: exactly 5 allowed', async () => {
    const quotas = new DynamoQuotaStore(dynamo(), emu.tableNames.quotas);
    const now = new Date('2026-11-21T10:30:00Z');
    const decisions = await Promise.all(
      Array.from({ length: 100 }, () => quotas.consume('ip#concurrent', rules, now)),
    );
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    const usage = await quotas.peek('ip#concurrent', rules, now);
    expect(usage.map((u) => u.used)).toEqual([5, 5]); // refused requests left no trace in the day counter
    const remaining = decisions
      .filter((d) => d.allowed)
      .map((d) => d.binding.remaining)
      .sort();
    expect(remaining).toEqual([0, 1, 2, 3, 4]);
  });

  test('the day window caps across hours; refunds give the allowance back', async () => {
    const quotas = new DynamoQuotaStore(dynamo(), emu.tableNames.quotas);
    let allowed = 0;
    for (let h = 0; h < 6; h++) {
      const now = new Date(Date.UTC(2026, 10, 22, h, 5));
      for (let i = 0; i < 5; i++) if ((await quotas.consume('ip#daily', rules, now)).allowed) allowed++;
    }
    expect(allowed).toBe(20);
    const refused = await quotas.consume('ip#daily', rules, new Date(Date.UTC(2026, 10, 22, 7, 0)));
    expect(refused.allowed).toBe(false);
    expect(refused.binding.period).toBe('day');

    const now = new Date('2026-11-23T09:00:00Z');
    const d = await quotas.consume('ip#refund', rules, now);
    await quotas.refund(d);
    expect((await quotas.peek('ip#refund', rules, now)).map((u) => u.used)).toEqual([0, 0]);
  });
});

describe('DynamoAudioRepository', () => {
  const base = (audioId: string): AudioRecord => ({
    audioId,
    status: 'queued',
    voice: 'es-MX-Mia',
    fmt: 'mp3',
    chars: 5000,
    plan: 'free',
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
  });

  test('a job is claimed once; finished jobs cannot be claimed again', async () => {
    const repo = new DynamoAudioRepository(dynamo(), emu.tableNames.audio);
    await repo.create(base('job1'));
    await expect(repo.create(base('job1'))).rejects.toThrow(); // ids are never overwritten
    const claims = await Promise.all([repo.claim('job1', 1), repo.claim('job1', 1), repo.claim('job1', 1)]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    await repo.setProgress('job1', 0.5);
    expect((await repo.get('job1'))?.progress).toBe(0.5);
    await repo.complete('job1', { durationS: 12.5, bytes: 1000 });
    const done = await repo.get('job1');
    expect(done).toMatchObject({ status: 'done', durationS: 12.5, bytes: 1000, progress: 1 });
    expect(await repo.claim('job1', 2)).toBeUndefined();
    await repo.setProgress('job1', 0.2); // late progress from a slow duplicate changes nothing
    expect((await repo.get('job1'))?.progress).toBe(1);
  });

  test('an expired lease can be taken over; release puts a job back; fail records the reason', async () => {
    let clock = new Date('2026-11-21T10:00:00Z');
    const repo = new DynamoAudioRepository(dynamo(), emu.tableNames.audio, () => clock);
    await repo.create(base('job2'));
    expect(await repo.claim('job2', 1)).toBeDefined();
    expect(await repo.claim('job2', 2)).toBeUndefined(); // lease held
    clock = new Date('2026-11-21T10:30:00Z');
    expect(await repo.claim('job2', 2)).toMatchObject({ status: 'processing', attempts: 2 });
    await repo.release('job2');
    expect((await repo.get('job2'))?.status).toBe('queued');
    expect((await repo.listUnfinished(100)).map((r) => r.audioId)).toContain('job2');
    await repo.fail('job2', 'boom');
    expect(await repo.get('job2')).toMatchObject({ status: 'failed', error: 'boom' });
    expect((await repo.listUnfinished(100)).map((r) => r.audioId)).not.toContain('job2');
  });

  test('the reuse hold (docs/reuse.md): a referenced job cannot be retired; a retired one cannot be referenced', async () => {
    const repo = new DynamoAudioRepository(dynamo(), emu.tableNames.audio);
    await repo.create(base('held'));
    expect(await repo.reference('held')).toBe(true);
    expect(await repo.retireUnreferenced('held', 'answered 503')).toBe(false);
    expect(await repo.get('held')).toMatchObject({ status: 'queued', referenced: true });
    expect(await repo.claim('held', 1)).toMatchObject({ status: 'processing', referenced: true });
    expect(await repo.reference('held')).toBe(true); // while a worker holds it too
    await repo.complete('held', { durationS: 1 });
    expect(await repo.reference('held')).toBe(false); // settled: nothing to hold
    // Negative control: without a reference the retire goes through, and a reference after it fails.
    await repo.create(base('free'));
    expect(await repo.retireUnreferenced('free', 'answered 503')).toBe(true);
    expect(await repo.get('free')).toMatchObject({ status: 'failed', error: 'answered 503' });
    expect(await repo.reference('free')).toBe(false);
    expect(await repo.reference('missing')).toBe(false);
  });
});

describe('DynamoFeedStore', () => {
  test("a beacon's check: the feed's recorded articles only, gone with removeArticle", async () => {
    const feeds = new DynamoFeedStore(dynamo(), emu.tableNames.feeds);
    const article = {
      feedId: 'fd_aaaaaaaaaaaaaaaa',
      key: 'a'.repeat(24),
      url: 'https://e.test/1',
      signature: 's',
    };
    await feeds.putArticle({
      ...article,
      status: 'narrated',
      narrations: 1,
      updatedAt: new Date().toISOString(),
    });
    await until(
      'the recorded article',
      async () => (await feeds.hasArticle(article.feedId, article.key)) || undefined,
    );
    expect(await feeds.hasArticle(article.feedId, 'b'.repeat(24))).toBe(false); // negative control
    expect(await feeds.hasArticle('fd_bbbbbbbbbbbbbbbb', article.key)).toBe(false); // another feed
    await feeds.removeArticle(article.feedId, article.key);
    await until('the removal', async () =>
      (await feeds.hasArticle(article.feedId, article.key)) ? undefined : true,
    );
  });
});

describe('S3AudioStore', () => {
  test('small and multipart uploads round-trip byte-exact through a presigned URL', async () => {
    const store = new S3AudioStore(s3Client(), emu.bucket);
    const dir = tempDir();
    try {
      for (const [id, size] of [
        ['small', 10_000],
        ['large', 12 * 1024 * 1024],
      ] as const) {
        const bytes = randomBytes(size);
        const path = join(dir.path, `${id}.mp3`);
        writeFileSync(path, bytes);
        await store.putAudioFile(id, 'mp3', path);
        const url = await store.presignAudio(id, 'mp3', 60);
        expect(new URL(url).hostname).toBe('127.0.0.1');
        const res = await fetch(url);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('audio/mpeg');
        expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
      }
    } finally {
      dir.cleanup();
    }
  });

  test('job texts round-trip in UTF-8 and can be deleted', async () => {
    const store = new S3AudioStore(s3Client(), emu.bucket);
    const text = 'Señoría, ¿qué año? ¡1.º de mayo! 😀 '.repeat(1000);
    await store.putJobText('t1', text);
    expect(await store.getJobText('t1')).toBe(text);
    await store.deleteJobText('t1');
    expect(await store.getJobText('t1')).toBeUndefined();
  });
});

describe('SqsJobQueue', () => {
  test('paid jobs go to the priority queue, free ones to the standard queue; a delay holds a message back', async () => {
    const queue = new SqsJobQueue(sqsClient(), {
      priority: emu.queues.priority!,
      standard: emu.queues.standard!,
    });
    await queue.enqueue({ audioId: 'd1' }, false, 60); // delayed (DelaySeconds): not received yet
    await queue.enqueue({ audioId: 'p1' }, true);
    await queue.enqueue({ audioId: 's1' }, false);
    const read = async (url: string) =>
      (
        await sqsClient().send(new ReceiveMessageCommand({ QueueUrl: url, WaitTimeSeconds: 1 }))
      ).Messages?.map((m) => JSON.parse(m.Body!));
    expect(await read(emu.queues.priority!)).toEqual([{ audioId: 'p1' }]);
    expect(await read(emu.queues.standard!)).toEqual([{ audioId: 's1' }]);
    const attrs = await sqsClient().send(
      new GetQueueAttributesCommand({
        QueueUrl: emu.queues.standard!,
        AttributeNames: ['ApproximateNumberOfMessagesDelayed'],
      }),
    );
    expect(attrs.Attributes?.ApproximateNumberOfMessagesDelayed).toBe('1');
  });
});

describe('DynamoKeyStore', () => {
  test('put, find by hash, list by email, revoke', async () => {
    const keys = new DynamoKeyStore(dynamo(), emu.tableNames.keys);
    const rec = {
      keyHash: hashKey('key_test'),
      keyPrefix: 'key_test',
      plan: 'pro' as const,
      status: 'active' as const,
      email: 'ana@example.com',
      createdAt: new Date().toISOString(),
    };
    await keys.put(rec);
    expect(await keys.findByHash(rec.keyHash)).toEqual(rec);
    expect(await keys.listByEmail('ANA@example.com')).toHaveLength(1);
    expect(await keys.revoke(rec.keyHash, new Date())).toBe(true);
    expect((await keys.findByHash(rec.keyHash))?.status).toBe('revoked');
    expect(await keys.revoke(hashKey('nope'), new Date())).toBe(false);
  });
});

describe('the local S3 emulator (lib/local/emulators.ts)', () => {
  test("keeps a bucket's configuration in memory and forgets it when it changes through the API", async () => {
    const s3 = s3Client();
    const Bucket = `cfg-${randomBytes(4).toString('hex')}`;
    const cors = (origin: string) => ({
      CORSRules: [{ AllowedOrigins: [origin], AllowedMethods: ['GET'], AllowedHeaders: [] }],
    });
    const origins = async () =>
      (await s3.send(new GetBucketCorsCommand({ Bucket }))).CORSRules?.flatMap((r) => r.AllowedOrigins);
    await s3.send(new CreateBucketCommand({ Bucket }));
    await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: cors('https://a.example') }));
    expect(await origins()).toEqual(['https://a.example']);
    await s3.send(new PutBucketCorsCommand({ Bucket, CORSConfiguration: cors('https://b.example') }));
    expect(await origins()).toEqual(['https://b.example']);
    await s3.send(new DeleteBucketCorsCommand({ Bucket }));
    await expect(origins()).rejects.toThrow(/CORS/);
    await s3.send(new DeleteBucketCommand({ Bucket }));
    await expect(s3.send(new HeadBucketCommand({ Bucket }))).rejects.toThrow();
    await s3.send(new CreateBucketCommand({ Bucket }));
    await expect(origins()).rejects.toThrow(/CORS/);
    await s3.send(new DeleteBucketCommand({ Bucket }));
  });
});

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
      new PutObjectCommand({ Bucket: emu.bucket, Key: `batches/${jobId}/${rest}`, Body: body }),
    );

  test("parts counted by earlier code (per-PDF objects; a part PDF object) and by today's (chunks, read back by a redelivered part) assemble into one zip", async () => {
    const files = new S3BatchFiles(s3Client(), emu.bucket);
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
        Bucket: emu.bucket,
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
      jobs: { get: async () => job, complete: async (_: string, c: unknown) => completed.push(c) > 0 },
      batchFiles: files,
      events: { subscribed: async () => false },
      now: () => new Date(),
    } as unknown as BatchRunDeps;
    expect(await assembleBatch(deps, jobId)).toBe('done');
    expect(completed).toHaveLength(1);
    const { result } = completed[0] as { result: { key: string } };
    const out = await s3Client().send(new GetObjectCommand({ Bucket: emu.bucket, Key: result.key }));
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

  test('an assembly started with the batch waits for each part to be counted, then streams it', async () => {
    const files = new S3BatchFiles(s3Client(), emu.bucket);
    const jobId = `job_${randomBytes(11).toString('base64url')}`;
    const entries = entriesOf('assembly-follows', 2);
    await files.putRefused(jobId, []);
    // A part as the batch worker leaves it when it is counted: entries, PDFs in a chunk, outcomes with sizes.
    const renderPart = async (part: number) => {
      const e = entries[part]!;
      await files.putPart(jobId, part, [e]);
      await files.putPdfs(jobId, part, 0, [{ uuid: e.row.uuid, pdf: pdfOf(e) }]);
      await files.putOutcome(jobId, part, [{ uuid: e.row.uuid, ok: true, bytes: pdfOf(e).length, chunk: 0 }]);
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
      },
      batchFiles: files,
      events: { subscribed: async () => false },
      now: () => new Date(),
    } as unknown as BatchRunDeps;
    expect(await assembleBatch(deps, jobId)).toBe('done');
    expect(polls).toBeGreaterThanOrEqual(4);
    const out = await s3Client().send(
      new GetObjectCommand({ Bucket: emu.bucket, Key: completed[0]!.result.key }),
    );
    const zip = unzipSync(await out.Body!.transformToByteArray());
    for (const e of entries) expect(Buffer.from(zip[`${baseName(e.row)}.pdf`] ?? [])).toEqual(pdfOf(e));
    // No CFDI reported refused or failed in the workbook's CSV twin: both rows are printed ones.
    expect(strFromU8(zip['resumen.csv']!).trim().split('\n')).toHaveLength(3);
  });
  test('an assembly still waiting past its follow time defers to the last count; the count that completes the batch then sees the mark', async () => {
    const files = new S3BatchFiles(s3Client(), emu.bucket);
    const batches = new DynamoBatchRepository(dynamo(), emu.tableNames.accounts);
    const jobId = `job_${randomBytes(11).toString('base64url')}`;
    const entries = entriesOf('assembly-defers', 2);
    await files.putRefused(jobId, []);
    const job = renderingJob(jobId, 2, 2, 0);
    await batches.create({ ...job, status: 'queued' });
    expect(await batches.planBatch(jobId, job.batch as SplitBatch, [])).toBe(true);
    for (const [part, e] of entries.entries()) {
      await files.putPart(jobId, part, [e]);
      await files.putPdfs(jobId, part, 0, [{ uuid: e.row.uuid, pdf: pdfOf(e) }]);
      await files.putOutcome(jobId, part, [{ uuid: e.row.uuid, ok: true, bytes: pdfOf(e).length, chunk: 0 }]);
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
      },
      batchFiles: files,
      events: { subscribed: async () => false },
      now: () => new Date(),
    } as unknown as BatchRunDeps;
    expect(await assembleBatch(deps, jobId, 300)).toBe('deferred');
    expect(completed).toEqual([]);
    // Its unfinished zip was not stored (the multipart upload was aborted); the job is marked.
    const results = await s3Client().send(
      new ListObjectsV2Command({ Bucket: emu.bucket, Prefix: `results/jobs/${jobId}/` }),
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
    const batches = new DynamoBatchRepository(dynamo(), emu.tableNames.accounts);
    const jobId = `job_${randomBytes(11).toString('base64url')}`;
    const job = renderingJob(jobId, 2, 2, 0);
    await batches.create({ ...job, status: 'queued' });
    await batches.planBatch(jobId, job.batch as SplitBatch, []);
    await batches.recordPart(jobId, 0, 1, 0);
    await batches.recordPart(jobId, 1, 1, 0);
    expect(await batches.deferAssembly(jobId, 2)).toBe(false);
    expect((await batches.get(jobId))?.assemblyDeferred).toBeUndefined();
  });
});
