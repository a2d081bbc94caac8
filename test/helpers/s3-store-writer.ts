// Run as a script (node --import tsx): puts objects into s3rver's filesystem store at argv[2], as the local S3
// emulator does (lib/local/emulators.ts, writeObjectsWhole), one after another with new keys, until it is killed;
// prints each key once its put is acknowledged. Each object's MD5 is in its own metadata, so a reader can tell a
// whole object from a torn one (test/integration/s3-emulator-crash.test.ts kills it mid-write).
import { createHash } from 'node:crypto';
import { writeObjectsWhole, type S3rverStore } from '../../lib/local/s3rver-store';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const FilesystemStore = require('s3rver/lib/stores/filesystem') as new (dir: string) => S3rverStore;

export const WRITER_BUCKET = 'crash';

if (require.main === module)
  void (async () => {
    const store = new FilesystemStore(process.argv[2]!);
    writeObjectsWhole(store);
    await store.putBucket(WRITER_BUCKET);
    for (let n = 0; ; n++) {
      // 1–32 KB: small, so the metadata's writes are much of a put and a kill often lands in them.
      const content = Buffer.alloc(1024 + ((n * 7919) % 32) * 1024, n % 251);
      const md5 = createHash('md5').update(content).digest('hex');
      const key = `parts/${process.pid}-${n}/pdfs-0`;
      await store.putObject({
        bucket: WRITER_BUCKET,
        key,
        content,
        metadata: { 'content-type': 'application/octet-stream', 'x-amz-meta-md5': md5 },
      });
      process.stdout.write(`${key}\n`);
    }
  })();
