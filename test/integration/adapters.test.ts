// The AWS adapters against the embedded emulators (real AWS wire protocols): DynamoDB (dynalite), S3 (s3rver),
// SQS (fauxqs). The quota counter is exact under 100 concurrent requests.
import { readdirSync, writeFileSync } from 'node:fs';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';
import {
  CompleteMultipartUploadCommand,
  CreateBucketCommand,
  CreateMultipartUploadCommand,
  GetObjectCommand,
  UploadPartCommand,
  DeleteBucketCommand,
  DeleteBucketCorsCommand,
  GetBucketCorsCommand,
  HeadBucketCommand,
  PutBucketCorsCommand,
} from '@aws-sdk/client-s3';
import { GetQueueAttributesCommand, ReceiveMessageCommand } from '@aws-sdk/client-sqs';
import { dynamo, s3Client, sqsClient } from '../../lambdas/shared/aws/clients';
import { DynamoAudioRepository } from '../../lambdas/narration/adapters/audio-repository';
import { DynamoFeedStore } from '../../lambdas/narration/adapters/feed-store';
import { S3AudioStore } from '../../lambdas/narration/adapters/audio-store';
import { SqsJobQueue } from '../../lambdas/narration/adapters/job-queue';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { hashKey } from '../../lambdas/shared/auth/keys';
import type { AudioRecord } from '../../lambdas/narration/ports';
import { withEmulators, tempDir } from '../helpers/env';
import { until } from '../helpers/until';
import { batchAssemblyCases } from './adapters/batch.cases';

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

  test("a job's end (narration-job.ts jobEnded): `ending` written with its outcome, removed once", async () => {
    const repo = new DynamoAudioRepository(dynamo(), emu.tableNames.audio);
    await repo.create(base('ends'));
    expect(await repo.markEnded('ends')).toBe(false); // negative control: nothing to end yet
    await repo.complete('ends', { durationS: 1, ending: true });
    const settled = await repo.get('ends');
    expect(settled).toMatchObject({ status: 'done', ending: true });
    expect(await repo.markEnded('ends')).toBe(true);
    expect(await repo.markEnded('ends')).toBe(false); // a re-run's end counts nothing
    const ended = await repo.get('ends');
    expect(ended).not.toHaveProperty('ending');
    expect(ended!.updatedAt).toBe(settled!.updatedAt); // the outcome's time stays (the webhook event's `at`)
    await repo.create(base('retired'));
    expect(await repo.retireUnreferenced('retired', 'not charged', { ending: true })).toBe(true);
    expect(await repo.get('retired')).toMatchObject({ status: 'failed', ending: true });
    expect(await repo.markEnded('missing')).toBe(false);
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

  test('completes a multipart upload as S3 does: the parts in their order, the ETag from their MD5s', async () => {
    const s3 = s3Client();
    const [Bucket, Key] = [emu.bucket, `multipart/${randomBytes(4).toString('hex')}.zip`];
    // Parts sent out of order; S3's smallest part (5 MiB) but the last.
    const parts = [randomBytes(5 * 1024 * 1024), randomBytes(5 * 1024 * 1024 + 17), randomBytes(1234)];
    const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket, Key }));
    const etags: string[] = [];
    for (const n of [2, 1, 3])
      etags[n - 1] = (
        await s3.send(new UploadPartCommand({ Bucket, Key, UploadId, PartNumber: n, Body: parts[n - 1] }))
      ).ETag!;
    const done = await s3.send(
      new CompleteMultipartUploadCommand({
        Bucket,
        Key,
        UploadId,
        MultipartUpload: { Parts: etags.map((ETag, i) => ({ ETag, PartNumber: i + 1 })) },
      }),
    );
    // S3's multipart ETag: the MD5 of the parts' binary MD5s, then their count (not the whole object's MD5).
    const md5 = (b: Buffer) => createHash('md5').update(b).digest();
    const expected = `"${md5(Buffer.concat(parts.map(md5))).toString('hex')}-3"`;
    expect(etags).toEqual(parts.map((p) => `"${md5(p).toString('hex')}"`));
    expect(done.ETag).toBe(expected);
    const got = await s3.send(new GetObjectCommand({ Bucket, Key }));
    expect(got.ETag).toBe(expected);
    expect(Buffer.from(await got.Body!.transformToByteArray()).equals(Buffer.concat(parts))).toBe(true);
    // The parts are gone from the emulator's folder (s3rver implements no ListMultipartUploads).
    expect(
      readdirSync(emu.dataDir, { recursive: true }).filter((f) => String(f).includes(UploadId!)),
    ).toEqual([]);
  });
});

batchAssemblyCases(() => emu);
