// The local S3 emulator killed mid-write (SIGKILL, as the crash tests kill `npm start`): s3rver's filesystem store
// with lib/local/emulators.ts's writeObjectsWhole, in a process of its own (test/helpers/s3-store-writer.ts) that
// puts new objects until it is killed. After each kill the store, read as s3rver reads it, lists without an error
// and every object it shows is whole with its own metadata (a PUT to S3 is all or nothing); every object the writer
// saw acknowledged is there. Bounded: KILLS kills, each a few ms after the first puts. Nothing leaves the machine.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { tempDir } from '../helpers/env';
import { WRITER_BUCKET } from '../helpers/s3-store-writer';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const FilesystemStore = require('s3rver/lib/stores/filesystem') as new (dir: string) => {
  listObjects(bucket: string, options: object): Promise<{ objects: { key: string }[] }>;
  getObject(
    bucket: string,
    key: string,
  ): Promise<{ content: Readable; metadata: Record<string, string> } | null>;
};

const ROOT = join(__dirname, '..', '..');
const KILLS = 12;
// Each kill restarts the writer (~1 s of tsx and s3rver's load alone; several times that on a loaded machine).
jest.setTimeout(180_000);
const data = tempDir('s3-crash-');
afterAll(() => data.cleanup());

/**
 * Starts the writer, kills it (SIGKILL) `delayMs` after it has acknowledged `after` puts (it is putting the next ones
 * meanwhile); resolves with the keys it acknowledged.
 */
function writeUntilKilled(after: number, delayMs: number): Promise<string[]> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/helpers/s3-store-writer.ts', data.path], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const acked: string[] = [];
  let errors = '';
  let killing: NodeJS.Timeout | undefined;
  child.stderr.on('data', (c: Buffer) => (errors += c.toString()));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      acked.push(...chunk.split('\n').filter(Boolean));
      if (acked.length >= after && !killing) killing = setTimeout(() => child.kill('SIGKILL'), delayMs);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (signal === 'SIGKILL' && acked.length >= after) resolve(acked);
      else reject(new Error(`the writer ended (${code ?? signal}) after ${acked.length} puts:\n${errors}`));
    });
  });
}

test('killed mid-write, the store lists without an error and shows only whole objects, each acknowledged one', async () => {
  const acknowledged = new Set<string>();
  const torn = new Set<string>();
  for (let kill = 0; kill < KILLS; kill++) {
    // 0–6 ms after its first puts: the kill falls at a different point of a put each time.
    for (const key of await writeUntilKilled(1 + (kill % 3), kill % 7)) acknowledged.add(key);
    const store = new FilesystemStore(data.path);
    const listed = await store.listObjects(WRITER_BUCKET, {});
    for (const { key } of listed.objects) {
      const object = await store.getObject(WRITER_BUCKET, key);
      const md5 = createHash('md5');
      for await (const chunk of object!.content) md5.update(chunk as Buffer);
      if (md5.digest('hex') !== object!.metadata['x-amz-meta-md5']) torn.add(key);
    }
    const keys = new Set(listed.objects.map((o) => o.key));
    expect([...acknowledged].filter((k) => !keys.has(k))).toEqual([]);
  }
  expect([...torn]).toEqual([]);
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILLS);
});
