// s3rver's filesystem store (the local S3 emulator, lib/local/emulators.ts) made closer to S3 where the local runtime
// needs it: objects written whole (a PUT is all or nothing, also when the runtime is killed mid-write) and each
// bucket's configuration kept in memory. Its own module, light to import: test/helpers/s3-store-writer.ts loads it
// in a process a test kills again and again.
import { createHash, randomBytes } from 'node:crypto';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWriteStream } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** The part of s3rver's filesystem store that keepBucketConfigInMemory() wraps (s3rver ships no types). */
export interface S3rverStore {
  getBucket(bucket: string): Promise<unknown>;
  putBucket(bucket: string): Promise<unknown>;
  deleteBucket(bucket: string): Promise<unknown>;
  getSubresource(bucket: string, key: string | undefined, type: string): Promise<unknown>;
  putSubresource(bucket: string, key: string | undefined, resource: { type: string }): Promise<unknown>;
  deleteSubresource(bucket: string, key: string | undefined, type: string): Promise<unknown>;
  reset(): void;
  putObject(object: S3rverObject): Promise<{ size: number; md5: string }>;
  putMetadata(bucket: string, key: string, metadata: unknown, md5: string): Promise<void>;
  putObjectMultipart(
    bucket: string,
    uploadId: string,
    parts: { number: number }[],
  ): Promise<{ size: number; md5: string }>;
  getResourcePath(bucket: string, key: string | undefined, resource: string): string;
}

// eslint-disable-next-line @typescript-eslint/no-require-imports
const S3_OBJECT = require('s3rver/lib/models/object') as { ALLOWED_METADATA: string[] };

interface S3rverObject {
  bucket: string;
  key: string;
  content: Readable | Buffer;
  metadata: unknown;
}

/**
 * s3rver answers a PUT once the body has passed to the object file's write stream, before it is written, and then
 * writes the object's metadata (metadata.json, object.md5) in place: a kill just after the answer (the crash tests
 * kill the runtime mid-batch) can leave an object shorter than the one it acknowledged, and a kill during the
 * metadata's write a truncated metadata.json, on which s3rver answers every later GET and HEAD of the key with a 500
 * (a part whose outcome it was never ran again: ci39). S3 does neither. Here each file is written to a temporary one
 * and renamed over its own, the metadata first and the object last: a new object appears whole with its metadata or
 * not at all, and a killed write leaves every file whole (an overwrite killed between the renames pairs the new
 * metadata with the old object, both readable).
 */
export function writeObjectsWhole(store: S3rverStore): void {
  /** A file of its own beside `path`, renamed over it once whole. */
  const temporaryFor = (path: string) => `${path}.${randomBytes(6).toString('hex')}.partial`;
  const writeWhole = async (
    path: string,
    content: Readable | Buffer | string,
    seen?: (c: Buffer) => void,
  ) => {
    const temporary = temporaryFor(path);
    if (Buffer.isBuffer(content) || typeof content === 'string') {
      // Whole already (the metadata, the MD5): one write, without a stream pipeline's turns and objects.
      seen?.(Buffer.isBuffer(content) ? content : Buffer.from(content));
      await writeFile(temporary, content);
      return () => rename(temporary, path);
    }
    await pipeline(
      content,
      new Transform({
        transform(chunk: Buffer, _encoding, done) {
          seen?.(chunk);
          done(null, chunk);
        },
      }),
      createWriteStream(temporary),
    );
    return () => rename(temporary, path);
  };
  store.putMetadata = async (bucket, key, metadata, md5) => {
    // What s3rver keeps of a PUT's headers (its own putMetadata's choice).
    const json = Object.fromEntries(
      Object.entries((metadata ?? {}) as Record<string, unknown>).filter(
        ([k]) => S3_OBJECT.ALLOWED_METADATA.includes(k) || k.startsWith('x-amz-meta-'),
      ),
    );
    const files = [
      writeWhole(store.getResourcePath(bucket, key, 'metadata.json'), JSON.stringify(json, null, 2)),
    ];
    if (md5) files.push(writeWhole(store.getResourcePath(bucket, key, 'object.md5'), md5));
    for (const place of await Promise.all(files)) await place();
  };
  store.putObject = async (object) => {
    const path = store.getResourcePath(object.bucket, object.key, 'object');
    await mkdir(dirname(path), { recursive: true });
    const md5 = createHash('md5');
    let size = 0;
    const place = await writeWhole(path, object.content, (chunk) => {
      md5.update(chunk);
      size += chunk.length;
    });
    const digest = md5.digest('hex');
    await store.putMetadata(object.bucket, object.key, object.metadata, digest);
    await place();
    return { size, md5: digest };
  };
  /**
   * CompleteMultipartUpload: s3rver passes the concatenated parts through putObject again, hashing and copying the
   * whole object in JavaScript (a month's zip, ~70 MB: 0.3–0.6 s at the end of the batch's last step, with nothing
   * else left to run). S3's ETag for a multipart object is not that hash either: it is the MD5 of the parts' binary
   * MD5s, then `-` and their count. Here the ETag is S3's, from the MD5 each part was stored with (putPart's
   * `<n>.md5`), and `cat` copies the parts into the object in the kernel (copy_file_range: ~60 ms for 70 MB where
   * a stream copy took 200–340 ms here), to a temporary file renamed over the object, whole as above.
   */
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const dir = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
    const files = parts
      .map((p) => p.number)
      .sort((a, b) => a - b)
      .map((n) => join(dir, String(n)));
    const [key, metadata, digests] = await Promise.all([
      readFile(join(dir, 'key'), 'utf8'),
      readFile(join(dir, 'metadata'), 'utf8').then((m) => JSON.parse(m) as unknown),
      Promise.all(files.map((f) => readFile(`${f}.md5`, 'utf8'))),
    ]);
    const etag = `${createHash('md5')
      .update(Buffer.concat(digests.map((d) => Buffer.from(d.trim(), 'hex'))))
      .digest('hex')}-${files.length}`;
    const path = store.getResourcePath(bucket, key, 'object');
    await mkdir(dirname(path), { recursive: true });
    const temporary = temporaryFor(path);
    const out = await open(temporary, 'w');
    try {
      const cat = spawn('cat', ['--', ...files], { stdio: ['ignore', out.fd, 'pipe'] });
      let errors = '';
      cat.stderr?.on('data', (d: Buffer) => (errors += String(d)));
      const [code] = (await once(cat, 'close')) as [number | null];
      if (code !== 0) throw new Error(`joining the parts of upload ${uploadId} failed: ${errors.trim()}`);
    } finally {
      await out.close();
    }
    const { size } = await stat(temporary);
    await store.putMetadata(bucket, key, metadata, etag);
    await rename(temporary, path);
    await rm(dir, { recursive: true, force: true });
    return { size, md5: etag };
  };
}

/**
 * s3rver reads the bucket from disk on every request: a stat of its folder and its CORS and website files (each
 * parsed again), about a third of its CPU for an object of tens of KB. Kept in memory here, and forgotten when
 * they change through s3rver (bucket created or deleted, configuration put or deleted, reset). Per-object
 * subresources are read as before.
 */
export function keepBucketConfigInMemory(store: S3rverStore): void {
  const kept = new Map<string, Promise<unknown>>();
  const keep = (id: string, read: () => Promise<unknown>) => {
    let value = kept.get(id);
    if (!value) {
      value = read();
      kept.set(id, value);
      value.catch(() => kept.delete(id));
    }
    return value;
  };
  const forgetting =
    <A extends unknown[]>(fn: (...args: A) => Promise<unknown>, ids: (...args: A) => string[]) =>
    async (...args: A) => {
      for (const id of ids(...args)) kept.delete(id);
      try {
        return await fn.apply(store, args);
      } finally {
        for (const id of ids(...args)) kept.delete(id);
      }
    };
  const getBucket = store.getBucket.bind(store);
  const getSubresource = store.getSubresource.bind(store);
  const reset = store.reset.bind(store);
  store.getBucket = (bucket) => keep(`bucket ${bucket}`, () => getBucket(bucket));
  store.getSubresource = (bucket, key, type) =>
    key === undefined
      ? keep(`${type} ${bucket}`, () => getSubresource(bucket, key, type))
      : getSubresource(bucket, key, type);
  const configs = (bucket: string) => [...kept.keys()].filter((id) => id.endsWith(` ${bucket}`));
  store.putBucket = forgetting(store.putBucket, configs);
  store.deleteBucket = forgetting(store.deleteBucket, configs);
  store.putSubresource = forgetting(store.putSubresource, (bucket, key, resource) =>
    key === undefined ? [`${resource.type} ${bucket}`] : [],
  );
  store.deleteSubresource = forgetting(store.deleteSubresource, (bucket, key, type) =>
    key === undefined ? [`${type} ${bucket}`] : [],
  );
  store.reset = () => {
    kept.clear();
    reset();
  };
}

/**
 * s3rver logs every request through koa-logger, also when it is silent: the line is formatted and given to a
 * silent winston transport, and every streamed body passes through one more stream that counts its bytes for it
 * (~7 % of a small PUT's CPU in a profile). The emulators run silent, so the middleware goes (koa composes its
 * middleware when the server starts: before s3rver.run()). s3rver's own warnings keep their logger.
 */
export function withoutRequestLog(middleware: ((...args: unknown[]) => unknown)[]): void {
  if (middleware[0]?.name !== 'logger')
    throw new Error('s3rver: its request logger is no longer its first middleware (s3rver changed?)');
  middleware.shift();
}
