// `npm start` (bin/local.ts) as a child process that leads its own process group, so a test can kill the whole
// runtime as an operator (or the OOM killer) would: `kill -9 -<pgid>`. Loopback only; ports chosen by the OS.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

export interface LocalProcess {
  child: ChildProcess;
  narrationUrl: string;
  documentsUrl: string;
  /** Everything it printed so far (JSON log lines and the runtime's own). */
  output(): string;
  /** SIGKILL to the whole process group; resolves when the runtime process is gone and its output read. */
  killGroup(): Promise<void>;
  /** SIGTERM (the runtime's own shutdown); resolves when it exited. */
  stop(): Promise<void>;
}

export async function startLocalProcess(
  dataDir: string,
  env: Record<string, string> = {},
  startTimeoutMs = 90_000,
): Promise<LocalProcess> {
  const child = spawn(TSX, ['bin/local.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      NARRATION_PORT: '0',
      RENDER_PORT: '0',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let out = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
  const exited = new Promise<void>((r) => child.once('exit', () => r()));
  // Its output is read to the end (what it wrote before a SIGKILL is still in the pipe when it exits).
  const drained = new Promise<void>((r) => child.once('close', () => r()));
  const urls = await new Promise<{ n: string; d: string }>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start banner:\n${out}`)), startTimeoutMs);
    const check = () => {
      const n = /Narration API: (http:\/\/\S+)/.exec(out)?.[1];
      const d = /Documents API: (http:\/\/\S+)/.exec(out)?.[1];
      if (n && d) {
        clearTimeout(timer);
        child.stdout!.off('data', check);
        resolve({ n, d });
      }
    };
    child.stdout!.on('data', check);
    child.once('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
  return {
    child,
    narrationUrl: urls.n,
    documentsUrl: urls.d,
    output: () => out,
    async killGroup() {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid!, 'SIGKILL');
      await exited;
      // Bounded: a straggler of the group holding the pipe open must not hold the test.
      await Promise.race([drained, new Promise((r) => setTimeout(r, 5000).unref())]);
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}

/** Is a process with this pid running? (A zombie has ended: it only waits for its parent to reap it.) */
export function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
