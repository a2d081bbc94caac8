// Runs PDF extraction in a worker thread with a hard time and memory fence. pdf.js cannot be stopped from the
// outside once it is busy: measured here, a 250 KB PDF whose content stream inflates to 256 MB of one token kept
// the event loop blocked for minutes, and `loadingTask.destroy()` did not stop a 1 GB inflate (it ran on for 20 s
// and 2.5 GB after the caller had given up). A worker thread is terminated at once, wherever it is.
// The worker is this same file: in Lambda the bundle (`__filename` is the bundle) is loaded again in the worker and
// this module starts listening there; from TypeScript sources (tests, `npm start`) tsx is registered first.
// One warm worker is kept between requests (Lambda runs one request per instance at a time).
import { createRequire } from 'node:module';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { logger } from '../../shared/logger';
import { PdfRejected, type PdfRejectionType } from './errors';
import { extractInThisThread } from './extract';
import { loadPdfjs, tooSlow } from './pdfjs';
import type { PdfExtraction, PdfLimits } from './types';

const ROLE = 'narration-pdf-extractor';
const MiB = 1024 * 1024;

interface Job {
  id: number;
  bytes: Uint8Array;
  limits: PdfLimits;
}
type Reply =
  | { id: number; ok: PdfExtraction }
  | { id: number; rejected: { type: PdfRejectionType; message: string } }
  | { id: number; failed: string };

// ---- worker side ------------------------------------------------------------------------------------------------
if (!isMainThread && (workerData as { role?: string } | null)?.role === ROLE && parentPort) {
  const port = parentPort;
  void loadPdfjs().catch(() => undefined); // warm up while the first job is on its way
  port.on('message', (job: Job) => {
    const deadline = Date.now() + job.limits.timeoutMs;
    extractInThisThread(job.bytes, job.limits, () => Date.now() > deadline).then(
      (ok) => port.postMessage({ id: job.id, ok } satisfies Reply),
      (err: unknown) =>
        port.postMessage(
          (err instanceof PdfRejected
            ? { id: job.id, rejected: { type: err.type, message: err.message } }
            : {
                id: job.id,
                failed: err instanceof Error ? (err.stack ?? err.message) : String(err),
              }) satisfies Reply,
        ),
    );
  });
}

// ---- main side --------------------------------------------------------------------------------------------------
function spawn(): Worker {
  const options = {
    workerData: { role: ROLE },
    // pdf.js prints warnings with console.log: keep them out of the response path, log them at debug level.
    stdout: true,
    stderr: true,
    // Caps the JS heap (strings, objects); typed arrays are fenced by the RSS watch below.
    resourceLimits: { maxOldGenerationSizeMb: 1024 },
  };
  let worker: Worker;
  if (__filename.endsWith('.ts')) {
    // Resolved at run time only (createRequire keeps bundlers from trying to include the dev-only tsx).
    const tsx = createRequire(__filename).resolve('tsx/cjs/api');
    worker = new Worker(
      `require(${JSON.stringify(tsx)}).register();require(${JSON.stringify(__filename)});`,
      {
        ...options,
        eval: true,
      },
    );
  } else {
    worker = new Worker(__filename, options);
  }
  for (const stream of [worker.stdout, worker.stderr])
    stream.on('data', (chunk: Buffer) =>
      logger.debug('pdf worker output', { output: chunk.toString().slice(0, 500) }),
    );
  worker.unref();
  return worker;
}

let idle: Worker | undefined;
let nextId = 1;

/** Starts the worker ahead of the first request (e.g. during Lambda init). */
export function prewarmPdfWorker(): void {
  idle ??= spawn();
}

/** Terminates the idle worker (tests, shutdown). */
export async function stopPdfWorkers(): Promise<void> {
  const w = idle;
  idle = undefined;
  await w?.terminate();
}

export function extractInWorker(bytes: Uint8Array, limits: PdfLimits): Promise<PdfExtraction> {
  const worker = idle ?? spawn();
  idle = undefined;
  const id = nextId++;
  const copy = new Uint8Array(bytes); // a standalone buffer that can be transferred, not copied again
  return new Promise<PdfExtraction>((resolve, reject) => {
    let settled = false;
    // Growth of the process's resident memory over the lowest level seen during this job (memory the rest of
    // the process frees meanwhile must not hide what the worker takes).
    let baseRss = process.memoryUsage.rss();
    const finish = (err: Error | undefined, value?: PdfExtraction, reusable = false) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      worker.off('message', onMessage);
      worker.off('error', onError);
      worker.off('exit', onExit);
      if (reusable && !idle) idle = worker;
      else void worker.terminate();
      if (err) reject(err);
      else resolve(value!);
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if ('ok' in reply) finish(undefined, reply.ok, true);
      else if ('rejected' in reply)
        finish(new PdfRejected(reply.rejected.type, reply.rejected.message), undefined, true);
      else {
        logger.error('pdf extraction failed', { error: reply.failed });
        finish(new Error(`PDF extraction failed: ${reply.failed.split('\n')[0]}`));
      }
    };
    const onError = (err: Error) => {
      // An exception escaping pdf.js's own handling, or the heap limit: the file drove the reader off the rails.
      logger.warn('pdf worker died', { error: err });
      finish(
        (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? tooSlow()
          : new PdfRejected(
              'pdf_invalid',
              'The PDF is damaged and cannot be read. Open it in a PDF viewer and save or export it again ' +
                '(e.g. "Print to PDF"), then upload the new file.',
            ),
      );
    };
    const onExit = () => finish(tooSlow());
    // The worker checks the deadline between pages; this is the hard stop for when it cannot.
    const timer = setTimeout(() => {
      logger.warn('pdf extraction stopped: time budget', { timeoutMs: limits.timeoutMs });
      finish(tooSlow());
    }, limits.timeoutMs + 1000);
    const watch = setInterval(() => {
      const rss = process.memoryUsage.rss();
      baseRss = Math.min(baseRss, rss);
      const grown = rss - baseRss;
      if (grown > limits.maxMemoryMb * MiB) {
        logger.warn('pdf extraction stopped: memory budget', { grownMb: Math.round(grown / MiB) });
        finish(tooSlow());
      }
    }, 20);
    worker.on('message', onMessage);
    worker.on('error', onError);
    worker.on('exit', onExit);
    worker.postMessage({ id, bytes: copy, limits } satisfies Job, [copy.buffer]);
  });
}
