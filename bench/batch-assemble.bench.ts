// The CFDI batch's assembly step (lambdas/documents/use-cases/batch-assemble.ts assembleBatch) at 100, 1,000 and 5,000 CFDI,
// each in its own child process: peak memory (RSS and JS heap + buffers, sampled every 5 ms) must not grow with the
// batch — the result zip is streamed part by part, never whole in memory. The stores are stand-ins shaped like S3:
// each part's PDF object is a stream of its 60 KiB PDFs made when it is read, parts are built from one real CFDI
// of the corpus (its summary row read by the real reader), and the upload is a stream that counts and drops the
// bytes. resumen.xlsx and resumen.csv are really written (exceljs, csv-stringify) to the temp dir. Usage: npm run bench -- batch-assemble
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { readForBatch } from '../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord } from '../lambdas/documents/ports';
import { assembleBatch } from '../lambdas/documents/use-cases/batch-assemble';
import type { BatchAssembleDeps } from '../lambdas/documents/use-cases/batch-run-deps';
import { PART_SIZE } from '../lambdas/documents/use-cases/batches';

const PDF_BYTES = 60 * 1024;

async function assemble(
  n: number,
): Promise<{ peakRss: number; peakHeap: number; zipBytes: number; ms: number }> {
  const xml = readFileSync(join(__dirname, '..', 'test', 'fixtures', 'cfdi', 'ingreso-basico.xml'), 'utf8');
  const read = readForBatch(xml, 'ingreso-basico.xml');
  if (!read.ok) throw new Error(read.motivo);
  const parts = Math.ceil(n / PART_SIZE);
  const entry = (i: number): BatchEntry => {
    const uuid = `${String(i).padStart(8, '0')}-0000-4000-A000-000000000000`;
    return {
      archivo: `f${i}.xml`,
      xml,
      row: { ...read.row, uuid, archivo: `f${i}.xml` },
      template: 'factura',
    };
  };
  const partOf = (p: number) =>
    Array.from({ length: Math.min(PART_SIZE, n - p * PART_SIZE) }, (_, k) => entry(p * PART_SIZE + k));
  const job: JobRecord = {
    jobId: 'job_bench0000000000000000',
    owner: 'acct:bench',
    plan: 'scale',
    status: 'rendering',
    progress: 0,
    template: null,
    format: 'zip',
    createdAt: new Date().toISOString(),
    updatedAt: new Date().toISOString(),
    expiresAt: 0,
    charged: [],
    batch: { source: 'zip', sourceKey: 'x', quotaSubject: 'x', total: n, refused: 0, parts, splitAt: '' },
    partsDone: parts,
  };
  let zipBytes = 0;
  const fail = () => Promise.reject(new Error('not used by the assembly'));
  const deps = {
    jobs: {
      get: async () => job,
      complete: async () => true,
      markEnded: async () => true,
      markEventQueued: async () => undefined,
    },
    batchFiles: {
      getRefused: async () => [],
      getPart: async (_: string, p: number) => partOf(p),
      // The part's PDFs in chunks of five, as a part writes them.
      getOutcome: async (_: string, p: number) =>
        partOf(p).map((e, i) => ({ uuid: e.row.uuid, ok: true, bytes: PDF_BYTES, chunk: Math.floor(i / 5) })),
      // A chunk's PDFs in one object, read from S3 in 16 KiB chunks.
      openPdfs: async (_: string, p: number, source: { chunk: number }) =>
        Readable.from(
          (function* () {
            const pdfs = Math.min(5, partOf(p).length - source.chunk * 5);
            for (let sent = 0; sent < pdfs * PDF_BYTES; sent += 16 * 1024)
              yield Buffer.alloc(Math.min(16 * 1024, pdfs * PDF_BYTES - sent), sent & 0xff);
          })(),
        ),
      uploadResult: async (_: string, filename: string, body: Readable) => {
        await new Promise<void>((resolve, reject) =>
          body
            .pipe(
              new Writable({
                write(chunk: Buffer, _e, cb) {
                  zipBytes += chunk.length;
                  // The network's pace: S3 takes a 5 MiB part now and then, not everything at once.
                  setImmediate(cb);
                },
              }),
            )
            .on('finish', resolve)
            .on('error', reject),
        );
        return { key: 'k', filename, contentType: 'application/zip', bytes: zipBytes };
      },
    },
    events: { subscribed: async () => false, deliveryQueue: { send: fail, retryAfter: fail }, jobs: {} },
    quotas: {},
    now: () => new Date(),
  } as unknown as BatchAssembleDeps;
  let peakRss = 0;
  let peakHeap = 0;
  const sample = () => {
    const m = process.memoryUsage();
    peakRss = Math.max(peakRss, m.rss);
    peakHeap = Math.max(peakHeap, m.heapUsed + m.arrayBuffers);
  };
  const timer = setInterval(sample, 5);
  const t = performance.now();
  await assembleBatch(deps, job.jobId);
  const ms = performance.now() - t;
  clearInterval(timer);
  sample();
  return { peakRss, peakHeap, zipBytes, ms };
}

const MB = 1024 * 1024;

if (process.argv[2] === 'child') {
  void assemble(Number(process.argv[3])).then((r) => {
    console.log(JSON.stringify(r));
    process.exit(0);
  });
} else {
  const run = (n: number) => {
    const out = spawnSync(process.execPath, ['--import', 'tsx', __filename, 'child', String(n)], {
      encoding: 'utf8',
    });
    if (out.status !== 0) throw new Error(out.stderr);
    return JSON.parse(out.stdout.trim().split('\n').pop()!) as Awaited<ReturnType<typeof assemble>>;
  };
  const small = run(100);
  const large = run(1000);
  // The most a batch holds (Scale): memory that is flat in the size is the same here as at 1,000.
  const largest = run(5000);
  console.log(
    `batch-assemble peak heap+buffers, 1,000 CFDI: ${(large.peakHeap / MB).toFixed(1)} MB vs baseline 100 CFDI ` +
      `${(small.peakHeap / MB).toFixed(1)} MB → ratio ${(large.peakHeap / small.peakHeap).toFixed(2)}×`,
  );
  console.log(
    `batch-assemble peak RSS, 1,000 CFDI: ${(large.peakRss / MB).toFixed(1)} MB vs baseline 100 CFDI ` +
      `${(small.peakRss / MB).toFixed(1)} MB → ratio ${(large.peakRss / small.peakRss).toFixed(2)}×`,
  );
  console.log(
    `batch-assemble peak RSS, 5,000 CFDI: ${(largest.peakRss / MB).toFixed(1)} MB vs baseline 1,000 CFDI ` +
      `${(large.peakRss / MB).toFixed(1)} MB → ratio ${(largest.peakRss / large.peakRss).toFixed(2)}× (heap+buffers ` +
      `${(largest.peakHeap / MB).toFixed(1)} MB)`,
  );
  console.log(
    `# zips of ${[small, large, largest].map((r) => (r.zipBytes / MB).toFixed(1)).join(', ')} MB assembled in ` +
      `${[small, large, largest].map((r) => r.ms.toFixed(0)).join(', ')} ms (stand-in stores; exceljs and fflate real)`,
  );
}
