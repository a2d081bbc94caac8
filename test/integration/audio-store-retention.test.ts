// The retention class reaches S3 on the wire: S3AudioStore writes a conversion's audio (single PUT and multipart),
// segments and timings with `x-amz-tagging: retention-days=<n>`, the tag the bucket's per-retention lifecycle rules
// filter on (lambdas/narration/bucket.ts; the rules themselves: test/infra/stacks.test.ts). s3rver keeps no tags, so
// a loopback stand-in records the real SDK's requests at HTTP level and answers like S3.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { S3Client } from '@aws-sdk/client-s3';
import { S3AudioStore } from '../../lambdas/narration/adapters/audio-store';
import { RETENTION_TAG } from '../../lambdas/narration/bucket';
import { tempDir } from '../helpers/env';

interface Seen {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}
const seen: Seen[] = [];
let server: Server;
let store: S3AudioStore;
const dir = tempDir('audio-retention-');

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, headers: req.headers });
      const url = new URL(req.url!, 'http://x');
      const xml = (body: string) =>
        res.writeHead(200, { 'content-type': 'application/xml' }).end(`<?xml version="1.0"?>${body}`);
      if (req.method === 'POST' && url.searchParams.has('uploads'))
        return xml(
          '<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>u1</UploadId></InitiateMultipartUploadResult>',
        );
      if (req.method === 'POST' && url.searchParams.has('uploadId'))
        return xml(
          '<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><ETag>"e"</ETag></CompleteMultipartUploadResult>',
        );
      res.writeHead(200, { etag: '"e"' }).end();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const s3 = new S3Client({
    endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'k', secretAccessKey: 's' },
    requestChecksumCalculation: 'WHEN_REQUIRED',
  });
  store = new S3AudioStore(s3, 'bucket');
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  dir.cleanup();
});
beforeEach(() => void seen.splice(0));

const tagOf = (s: Seen) => s.headers['x-amz-tagging'];

test('short audio, segment and timings: one PUT each, tagged with the retention', async () => {
  const file = join(dir.path, 'a.mp3');
  writeFileSync(file, Buffer.alloc(1000, 1));
  await store.putAudioFile('abc', 'mp3', file, 7);
  await store.putSegment('abc', 0, new Uint8Array(10), 7);
  await store.putTimings('abc', { sentences: [] }, 7);
  expect(seen.map((s) => [s.method, new URL(s.url, 'http://x').pathname, tagOf(s)])).toEqual([
    ['PUT', '/bucket/audio/abc.mp3', `${RETENTION_TAG}=7`],
    ['PUT', '/bucket/audio/abc/seg/0.mp3', `${RETENTION_TAG}=7`],
    ['PUT', '/bucket/audio/abc/timings.json', `${RETENTION_TAG}=7`],
  ]);
});

test('long audio (multipart): the tag goes with CreateMultipartUpload, where S3 takes it for the whole object', async () => {
  const file = join(dir.path, 'long.mp3');
  writeFileSync(file, Buffer.alloc(9 * 1024 * 1024, 2));
  await store.putAudioFile('long', 'mp3', file, 3);
  const create = seen.find((s) => s.method === 'POST' && s.url.includes('uploads'));
  expect(create && tagOf(create)).toBe(`${RETENTION_TAG}=3`);
  expect(seen.filter((s) => s.method === 'PUT').length).toBeGreaterThanOrEqual(2); // parts
});

test('no retention given: no tag (the audio prefix rule applies)', async () => {
  await store.putTimings('plain', { sentences: [] });
  expect(seen).toHaveLength(1);
  expect(tagOf(seen[0]!)).toBeUndefined();
});
