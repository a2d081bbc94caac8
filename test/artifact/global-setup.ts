// Global setup of the `artifact` jest project: builds what is deployed and starts what it talks to.
//  1. In the background (prepare.ts, its own process, so the other projects' tests start meanwhile): `cdk synth`
//     (offline) into .cache/artifact/cdk.out, reused while its inputs are unchanged (a hash of every file synth
//     reads: bin, lib, lambdas, templates, package files, cdk.json, tsconfig.json, .dockerignore); then the zip
//     assets are copied into a temporary folder whose parents hold no node_modules, so a bundle resolves only what
//     it carries (a module left external fails to load, as in Lambda). The tests await it (artifactReady()).
//  2. The emulators and the Polly stand-in start in their own process (emulators-server.ts).
// The state (paths, endpoints) reaches the test files through ARTIFACT_STATE.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { node22 } from '../helpers/node22';

export const ROOT = resolve(__dirname, '..', '..');
export const CACHE = join(ROOT, '.cache', 'artifact');
const SYNTH_INPUTS = [
  'bin',
  'lib',
  'lambdas',
  'templates',
  'package.json',
  'package-lock.json',
  'cdk.json',
  'tsconfig.json',
  '.dockerignore',
];

export interface ArtifactState {
  /** The synthesized cloud assembly (cache): complete once artifactReady() resolves. */
  cdkOut: string;
  /** Temporary folder: copies of the zip assets (asset.<hash>/) and scratch space. */
  runDir: string;
  /** Emulator variables (endpoints, names) as the local runtime sets them. */
  env: Record<string, string>;
  pollyEndpoint: string;
  node22: { bin: string; dir: string | undefined; version: string };
}

export function artifactState(): ArtifactState {
  const raw = process.env.ARTIFACT_STATE;
  if (!raw) throw new Error('ARTIFACT_STATE is unset: run these tests through the jest project `artifact`');
  return JSON.parse(raw) as ArtifactState;
}

/** Waits until prepare.ts has synthesized and copied the assets (bounded); throws its reason if it failed. */
export async function artifactReady(timeoutMs = 15 * 60_000): Promise<ArtifactState> {
  const state = artifactState();
  const ready = join(state.runDir, 'ready.json');
  const failed = join(state.runDir, 'prepare-failed.txt');
  for (const deadline = Date.now() + timeoutMs; !existsSync(ready);) {
    if (existsSync(failed)) throw new Error(`artifact build failed:\n${readFileSync(failed, 'utf8')}`);
    if (Date.now() > deadline) throw new Error(`the artifact build did not end within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return state;
}

/** Hash of the files `cdk synth` reads (tracked and untracked, not ignored). */
export function synthInputsHash(): string {
  const files = execFileSync(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard', '--', ...SYNTH_INPUTS],
    { cwd: ROOT, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  )
    .split('\0')
    .filter(Boolean)
    .sort();
  const hash = createHash('sha256');
  for (const file of [...new Set(files)]) {
    const path = join(ROOT, file);
    if (!existsSync(path)) continue;
    hash.update(file).update('\0').update(readFileSync(path)).update('\0');
  }
  return hash.digest('hex');
}

/** Synthesizes into .cache/artifact/cdk.out unless the cached assembly was made from the same inputs. */
export function synthesize(log: (line: string) => void = () => undefined): string {
  const out = join(CACHE, 'cdk.out');
  const stamp = join(CACHE, 'cdk.out.inputs');
  const hash = synthInputsHash();
  if (existsSync(join(out, 'manifest.json')) && existsSync(stamp) && readFileSync(stamp, 'utf8') === hash) {
    log(`artifact: reusing ${out} (inputs unchanged)`);
    return out;
  }
  rmSync(out, { recursive: true, force: true });
  rmSync(stamp, { force: true });
  mkdirSync(CACHE, { recursive: true });
  const started = Date.now();
  execFileSync(join(ROOT, 'node_modules', '.bin', 'cdk'), ['synth', '--quiet', '-o', out], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, CDK_DISABLE_VERSION_CHECK: '1' },
  });
  writeFileSync(stamp, hash);
  log(`artifact: cdk synth in ${Math.round((Date.now() - started) / 1000)} s`);
  return out;
}

/** A folder none of whose parents holds node_modules: what is not in a bundle cannot be found by accident. */
export function isolatedDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(join(d, 'node_modules')))
      throw new Error(`${d}/node_modules exists: bundles run under ${dir} could resolve packages from it`);
    if (dirname(d) === d) break;
  }
  return dir;
}

function startBackends(dataDir: string): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(
    join(ROOT, 'node_modules', '.bin', 'tsx'),
    [join(__dirname, 'emulators-server.ts'), dataDir],
    {
      cwd: ROOT,
      stdio: ['pipe', 'pipe', 'inherit'],
      env: { ...process.env, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    },
  );
  return new Promise((resolvePromise, reject) => {
    let buffered = '';
    // Generous: the canned Polly stand-in speaks and encodes its speech once at start, on a machine that may be busy.
    const timer = setTimeout(() => reject(new Error('emulators did not start within 5 min')), 5 * 60_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      buffered += chunk.toString('utf8');
      const nl = buffered.indexOf('\n');
      if (nl >= 0) {
        clearTimeout(timer);
        resolvePromise({ child, line: buffered.slice(0, nl) });
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`emulators-server exited with ${code} before starting`));
    });
  });
}

const holder = globalThis as unknown as {
  artifactBackends?: ChildProcess;
  artifactPrepare?: ChildProcess;
  artifactRunDir?: string;
};

export default async function globalSetup(): Promise<void> {
  const node = node22();
  const runDir = isolatedDir('artifact-run-');
  holder.artifactRunDir = runDir;
  holder.artifactPrepare = spawn(
    join(ROOT, 'node_modules', '.bin', 'tsx'),
    [join(__dirname, 'prepare.ts'), runDir],
    { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  const { child, line } = await startBackends(join(runDir, 'emulators')).catch((err: unknown) => {
    holder.artifactPrepare?.kill('SIGTERM');
    throw err;
  });
  const { env, pollyEndpoint } = JSON.parse(line) as { env: Record<string, string>; pollyEndpoint: string };
  holder.artifactBackends = child;
  const state: ArtifactState = { cdkOut: join(CACHE, 'cdk.out'), runDir, env, pollyEndpoint, node22: node };
  process.env.ARTIFACT_STATE = JSON.stringify(state);
}

export async function stopBackends(): Promise<void> {
  const prepare = holder.artifactPrepare;
  if (prepare && prepare.exitCode === null && prepare.signalCode === null) prepare.kill('SIGTERM');
  const child = holder.artifactBackends;
  if (child && child.exitCode === null) {
    const exited = new Promise<void>((r) => child.once('exit', () => r()));
    child.stdin!.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  }
  if (holder.artifactRunDir) rmSync(holder.artifactRunDir, { recursive: true, force: true });
}
