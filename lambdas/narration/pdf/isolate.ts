// Runs PDF extraction in a child process with a hard time and memory fence, one file per process. pdf.js cannot be
// stopped from the outside once it is busy: measured here, a 250 KB PDF whose content stream inflates to 256 MB of
// one token kept the event loop blocked for minutes, and `loadingTask.destroy()` did not stop a 1 GB inflate (it
// ran on for 20 s and 2.5 GB after the caller had given up). A child is killed at once, wherever it is.
// Why a process and not a worker thread (as before): memory a worker thread took stays with the process after the
// worker ends (one 600 KB hostile PDF took a fresh process from 242 MB to 1.0–1.3 GB RSS for good), and a fence
// measured against that process's RSS gave the same file different answers depending on what came before. A child
// returns all its memory to the system when it exits, its own RSS is what the fence measures (from a fresh start
// every time: the same file always gets the same answer), and its heap has its own cap.
// The child is this same file: in Lambda the bundle (`__filename` is the bundle) runs again in the child and this
// module starts listening there; from TypeScript sources (tests, `npm start`) tsx is registered first. One spare
// child is started ahead (Lambda runs one request per instance at a time), so a request does not wait for it.
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { logger } from '../../shared/logger';
import { PdfRejected, type PdfRejectionType } from './errors';
import { extractInThisThread } from './extract';
import { loadPdfjs, tooSlow } from './pdfjs';
import type { PdfExtraction, PdfLimits } from './types';

const ROLE = 'narration-pdf-extractor';
const MiB = 1024 * 1024;
/** The child's JS heap cap (strings, objects); typed arrays are fenced by the RSS watch below. */
const HEAP_MB = 1024;

interface Job {
  id: number;
  bytes: Uint8Array;
  limits: PdfLimits;
}
type Reply =
  | { id: number; ready: true }
  | { id: number; ok: PdfExtraction }
  | { id: number; rejected: { type: PdfRejectionType; message: string } }
  | { id: number; failed: string };

// ---- child side -------------------------------------------------------------------------------------------------
if (process.env.NARRATION_PDF_ROLE === ROLE && typeof process.send === 'function') {
  const send = (r: Reply) => process.send!(r);
  void loadPdfjs().then(
    () => send({ id: 0, ready: true }),
    () => send({ id: 0, ready: true }),
  );
  process.on('message', (job: Job) => {
    const deadline = Date.now() + job.limits.timeoutMs;
    // A Buffer arrives as a Buffer; pdf.js wants a plain Uint8Array (a view, no copy).
    const bytes = new Uint8Array(job.bytes.buffer, job.bytes.byteOffset, job.bytes.byteLength);
    extractInThisThread(bytes, job.limits, () => Date.now() > deadline).then(
      (ok) => send({ id: job.id, ok }),
      (err: unknown) =>
        send(
          err instanceof PdfRejected
            ? { id: job.id, rejected: { type: err.type, message: err.message } }
            : { id: job.id, failed: err instanceof Error ? (err.stack ?? err.message) : String(err) },
        ),
    );
  });
  // The parent went away: nothing to answer to.
  process.on('disconnect', () => process.exit(0));
}

// ---- parent side ------------------------------------------------------------------------------------------------
/** Resident memory of a process, from /proc (Linux, as in Lambda); undefined where it cannot be read. */
function rssOf(pid: number | undefined): number | undefined {
  if (!pid) return undefined;
  try {
    const pages = Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]);
    return Number.isFinite(pages) ? pages * 4096 : undefined;
  } catch {
    return undefined;
  }
}

interface Child {
  proc: ChildProcess;
  /** Resolves when pdf.js is loaded in it (its RSS then is the job's baseline). */
  ready: Promise<void>;
}

function spawn(): Child {
  const env = { ...process.env, NARRATION_PDF_ROLE: ROLE };
  const execArgv = [`--max-old-space-size=${HEAP_MB}`];
  // Resolved at run time only (createRequire keeps bundlers from trying to include the dev-only tsx).
  if (__filename.endsWith('.ts')) execArgv.push('--require', createRequire(__filename).resolve('tsx/cjs'));
  const proc = fork(__filename, [], {
    env,
    execArgv,
    // Structured clone: the PDF's bytes travel as bytes, not as JSON.
    serialization: 'advanced',
    // pdf.js prints warnings with console.log: keep them out of the response path, log them at debug level.
    stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
  });
  for (const stream of [proc.stdout, proc.stderr])
    stream?.on('data', (chunk: Buffer) =>
      logger.debug('pdf child output', { output: chunk.toString().slice(0, 500) }),
    );
  const ready = new Promise<void>((resolve) => {
    const onReady = (r: Reply) => {
      if ('ready' in r) {
        proc.off('message', onReady);
        resolve();
      }
    };
    proc.on('message', onReady);
    proc.once('exit', () => resolve());
  });
  proc.unref();
  (proc as unknown as { channel?: { unref(): void } }).channel?.unref();
  return { proc, ready };
}

let spare: Child | undefined;
let nextId = 1;

/** Starts the next extraction's process ahead of its request (e.g. during Lambda init). */
export function prewarmPdfWorker(): void {
  spare ??= spawn();
}

/** Stops the spare process (tests, shutdown). */
export async function stopPdfWorkers(): Promise<void> {
  const c = spare;
  spare = undefined;
  if (!c || c.proc.exitCode !== null || c.proc.signalCode !== null) return;
  const exited = new Promise((r) => c.proc.once('exit', r));
  c.proc.kill('SIGKILL');
  await exited;
}

export async function extractInWorker(bytes: Uint8Array, limits: PdfLimits): Promise<PdfExtraction> {
  const child = spare ?? spawn();
  spare = spawn(); // the next request's, started while this one runs
  await child.ready;
  const { proc } = child;
  const id = nextId++;
  // The fence is on the child's own resident memory, from where it stood with pdf.js loaded: the same file meets
  // the same budget whatever this process did before.
  const baseRss = rssOf(proc.pid);
  return new Promise<PdfExtraction>((resolve, reject) => {
    let settled = false;
    const finish = (err: Error | undefined, value?: PdfExtraction) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearInterval(watch);
      proc.off('message', onMessage);
      proc.off('exit', onExit);
      // One file per process: all its memory goes back to the system.
      proc.kill('SIGKILL');
      if (err) reject(err);
      else resolve(value!);
    };
    const onMessage = (reply: Reply) => {
      if (reply.id !== id) return;
      if ('ok' in reply) finish(undefined, reply.ok);
      else if ('rejected' in reply) finish(new PdfRejected(reply.rejected.type, reply.rejected.message));
      else if ('failed' in reply) {
        logger.error('pdf extraction failed', { error: reply.failed });
        finish(new Error(`PDF extraction failed: ${reply.failed.split('\n')[0]}`));
      }
    };
    // Died on its own: the heap cap (or the system) stopped a file that drove the reader off the rails.
    const onExit = (code: number | null, signal: string | null) => {
      logger.warn('pdf child died', { code, signal });
      finish(tooSlow());
    };
    // The child checks the deadline between pages; this is the hard stop for when it cannot.
    const timer = setTimeout(() => {
      logger.warn('pdf extraction stopped: time budget', { timeoutMs: limits.timeoutMs });
      finish(tooSlow());
    }, limits.timeoutMs + 1000);
    const watch = setInterval(() => {
      const rss = rssOf(proc.pid);
      if (rss === undefined || baseRss === undefined) return;
      const grown = rss - baseRss;
      if (grown > limits.maxMemoryMb * MiB) {
        logger.warn('pdf extraction stopped: memory budget', { grownMb: Math.round(grown / MiB) });
        finish(tooSlow());
      }
    }, 20);
    proc.on('message', onMessage);
    proc.once('exit', onExit);
    if (proc.exitCode !== null || proc.signalCode !== null) return onExit(proc.exitCode, proc.signalCode);
    proc.send({ id, bytes, limits } satisfies Job);
  });
}
