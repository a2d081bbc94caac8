// Crash test of CFDI batches (bounded, loopback only), as test/e2e/crash-charges.test.ts does for narration:
// `npm start` in its own process group, a batch of 60 stamped CFDI started, the whole group killed with SIGKILL
// once the first part is counted (workers mid-render), and a restart on the same data, which puts the unfinished
// batch's steps back on the (in-memory) queue. Afterwards: the batch completes with every PDF, no PDF was made
// twice (each UUID in exactly one stored chunk in S3; none logged twice over both runs), the zip holds each UUID
// once with its own PDF (pdftotext), and the month is charged 60, once.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { unzipSync } from 'fflate';
import { S3BatchFiles } from '../../lambdas/documents/adapters/batch-files';
import { generateKey, hashKey } from '../../lambdas/shared/auth/keys';
import { DynamoKeyStore } from '../../lambdas/shared/aws/key-store';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { batchCorpus, getBatch, uploadAndStart, waitForBatch, zipOf } from '../helpers/cfdi-batch';
import { tempDir } from '../helpers/env';
import { pdftotext, requirePdftotext } from '../helpers/pdftotext';
import { startLocalProcess, type LocalProcess } from '../helpers/local-process';

// Two starts of the runtime and 60 renders on shared cores.
jest.setTimeout(600_000);

const data = tempDir('batch-crash-');
const key = generateKey();
let rt: LocalProcess | undefined;
let db: DynamoDBDocumentClient | undefined;
afterAll(async () => {
  await rt?.killGroup();
  db?.destroy();
  data.cleanup();
});

function emulatorEnv(): Record<string, string> {
  return JSON.parse(readFileSync(join(data.path, 'endpoints.json'), 'utf8')) as Record<string, string>;
}

function dynamoOf(env: Record<string, string>): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(
    new DynamoDBClient({
      endpoint: env.AWS_ENDPOINT_URL_DYNAMODB,
      region: env.AWS_REGION,
      credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
    }),
  );
}

/** Entries of a zip as its end-of-central-directory record counts them (a repeated name counts twice there;
 * unzipSync would keep one). */
function entryCount(zip: Buffer): number {
  const eocd = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (eocd < 0) throw new Error('not a zip: no end-of-central-directory record');
  return zip.readUInt16LE(eocd + 10);
}

test('killed mid-batch: it completes after the restart, no PDF made twice, charged once', async () => {
  requirePdftotext();
  rt = await startLocalProcess(data.path);
  db = dynamoOf(emulatorEnv());
  await new DynamoKeyStore(db, emulatorEnv().KEYS_TABLE!).put({
    keyHash: hashKey(key),
    keyPrefix: key.slice(0, 10),
    plan: 'scale',
    status: 'active',
    email: 'crash@example.com',
    createdAt: new Date().toISOString(),
    accountId: 'cus_batch_crash',
    billingStatus: 'active',
    accountVersion: 1,
  });
  const corpus = batchCorpus('crash-60', 60, false);
  const { id } = await uploadAndStart(rt.documentsUrl, key, zipOf(corpus.files));

  // Kill once the first part is counted and before the last: workers are mid-render.
  const deadline = Date.now() + 300_000;
  let done = 0;
  while (Date.now() < deadline) {
    done = ((await getBatch(rt.documentsUrl, key, id)).body.done as number) ?? 0;
    if (done >= 20) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await rt.killGroup();
  expect(done).toBeGreaterThanOrEqual(20);
  expect(done).toBeLessThan(60);
  const before = rt.output();

  rt = await startLocalProcess(data.path);
  const last = (await waitForBatch(rt.documentsUrl, key, id, 300_000)).at(-1)!;
  expect(last).toMatchObject({ status: 'done', total: 60, done: 60, failed: 0 });

  // No PDF made twice, over both runs. What S3 holds: every chunk a part stored names its PDFs (read with the
  // adapter the assembly uses, over the parts the bucket lists), and each of the 60 UUIDs is in exactly one chunk.
  const env = emulatorEnv();
  const s3 = new S3Client({
    endpoint: env.AWS_ENDPOINT_URL_S3,
    region: env.AWS_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.AWS_ACCESS_KEY_ID!, secretAccessKey: env.AWS_SECRET_ACCESS_KEY! },
  });
  const listed = await s3.send(
    new ListObjectsV2Command({ Bucket: env.DOCUMENTS_BUCKET, Prefix: `batches/${id}/parts/` }),
  );
  const parts = new Set(
    (listed.Contents ?? [])
      .flatMap((o) => /\/parts\/(\d+)\/pdfs-\d+$/.exec(o.Key ?? '')?.[1] ?? [])
      .map(Number),
  );
  const batchFiles = new S3BatchFiles(s3, env.DOCUMENTS_BUCKET!);
  const inS3 = (await Promise.all([...parts].map((p) => batchFiles.storedPdfs(id, p))))
    .flat()
    .map((p) => p.uuid);
  s3.destroy();
  expect(inS3.filter((u, i) => inS3.indexOf(u) !== i)).toEqual([]);
  expect(new Set(inS3)).toEqual(new Set(corpus.files.map((f) => f.uuid)));
  // And the logs: each stored chunk logs its PDFs' UUIDs once stored, so none twice. (Not all 60 need a line: a kill
  // between a chunk's write and its log line leaves that chunk stored, unlogged, and never made again.)
  const logged = (before + rt.output())
    .split('\n')
    .filter((line) => line.includes('"message":"batch PDFs stored"'))
    .flatMap((line) => (JSON.parse(line) as { uuids: string[] }).uuids);
  expect(logged.filter((u, i) => logged.indexOf(u) !== i)).toEqual([]);
  expect(logged.length).toBeGreaterThan(0);
  expect(logged.every((u) => inS3.includes(u))).toBe(true);

  const zip = Buffer.from(await (await fetch(last.download_url as string)).arrayBuffer());
  expect(entryCount(zip)).toBe(60 * 2 + 2);
  const entries = unzipSync(new Uint8Array(zip));
  const pdfs = Object.keys(entries).filter((n) => n.endsWith('.pdf'));
  expect(new Set(pdfs.map((n) => n.slice(-40, -4))).size).toBe(60);
  expect(new Set(pdfs.map((n) => n.slice(-40, -4)))).toEqual(new Set(corpus.files.map((f) => f.uuid)));
  // Each PDF is whole and is its own CFDI's, also those the redelivered part took from S3 instead of rendering
  // (the assembly cuts a part's PDF object at the sizes its outcomes give).
  const wrong = pdfs.filter((name) => {
    const file = join(data.path, 'check.pdf');
    writeFileSync(file, entries[name]!);
    return !pdftotext(file).includes(name.slice(-40, -4));
  });
  expect(wrong).toEqual([]);

  // Charged per document, once, whatever ran twice.
  db.destroy();
  db = dynamoOf(emulatorEnv()); // the restarted runtime's endpoints
  const quotas = new DynamoQuotaStore(db, emulatorEnv().QUOTAS_TABLE!);
  const [month] = await quotas.peek('docs#acct#cus_batch_crash', [{ period: 'month', limit: 10000 }]);
  expect(month!.used).toBe(60);
});
