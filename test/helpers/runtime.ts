// Starts the local runtime (emulators + handlers + worker) in this test process on ephemeral ports.
import { execFileSync } from 'node:child_process';
import { startLocal, type LocalRuntime } from '../../lib/local/runtime';
import { tempDir } from './env';

process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED = 'true';

export interface TestRuntime extends LocalRuntime {
  url(path: string): string;
}

export async function startRuntime(
  env: Record<string, string> = {},
  opts: {
    trustProxy?: boolean;
    startWorker?: boolean;
    deadlineS?: number;
    /** Serve the Documents API too (its handlers loaded, its workers polling). @default true */
    documents?: boolean;
  } = {},
): Promise<TestRuntime> {
  const dir = tempDir('rt-');
  const rt = await startLocal({
    dataDir: dir.path,
    persist: false,
    env,
    trustProxy: opts.trustProxy,
    startWorker: opts.startWorker,
    ...(opts.documents !== undefined ? { documents: opts.documents } : {}),
    ...(opts.deadlineS !== undefined ? { deadlineS: opts.deadlineS } : {}),
  });
  return {
    ...rt,
    url: (path: string) => rt.narrationUrl + path,
    async stop() {
      await rt.stop();
      dir.cleanup();
    },
  };
}

import ffprobeInstaller from '@ffprobe-installer/ffprobe';

/** A real ffprobe shipped inside an npm package: an independent check of our audio, no apt needed. */
export const FFPROBE: string = ffprobeInstaller.path;

/**
 * ffprobe running an audio filter over a file (`amovie=<path>,<filter>` through lavfi): the frame tags asked for,
 * one CSV line per decoded frame that has them.
 */
export function ffprobeFilter(path: string, filter: string, tags: string[]): string[] {
  return execFileSync(
    FFPROBE,
    [
      '-v',
      'error',
      '-f',
      'lavfi',
      '-i',
      `amovie=${path},${filter}`,
      '-show_entries',
      `frame_tags=${tags.join(',')}`,
      '-of',
      'csv=p=0',
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] },
  )
    .split('\n')
    .filter((l) => l.trim() !== '');
}

export function ffprobe(path: string): { duration: number; codec: string; sampleRate: number } {
  const out = JSON.parse(
    execFileSync(
      FFPROBE,
      ['-v', 'error', '-show_entries', 'format=duration:stream=codec_name,sample_rate', '-of', 'json', path],
      {
        encoding: 'utf8',
      },
    ),
  ) as { format: { duration: string }; streams: { codec_name: string; sample_rate: string }[] };
  return {
    duration: Number(out.format.duration),
    codec: out.streams[0]!.codec_name,
    sampleRate: Number(out.streams[0]!.sample_rate),
  };
}

export async function postForm(
  url: string,
  fields: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

export async function postJson(url: string, body: unknown, headers: Record<string, string> = {}) {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
}

/**
 * Polls GET /audio/{id} until it redirects to the audio (or fails), returning the last response. A pending job's
 * audio URL holds the request up to the wait window, then answers 307 to itself: both mean "not yet".
 */
export async function waitForAudio(url: string, timeoutMs: number): Promise<Response> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await fetch(url, { redirect: 'manual' });
    if ((res.status !== 202 && res.status !== 307) || Date.now() > deadline) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}
