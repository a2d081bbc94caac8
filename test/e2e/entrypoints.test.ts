// The real entry points as a user runs them: `npm start` (bin/local.ts) in a child process, and the admin keys
// CLI (bin/keys.ts) creating, using and revoking a key against that running instance.
import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/env';
import { postJson } from '../helpers/runtime';
import { VOICES } from '../../lambdas/narration/core/voices';

jest.setTimeout(120_000);
const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');

let child: ChildProcess;
let base = '';
const data = tempDir('entry-');
const env = { ...process.env, DATA_DIR: data.path, NARRATION_PORT: '0', HOST: '127.0.0.1' };

beforeAll(async () => {
  child = spawn(TSX, ['bin/local.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  base = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`no start banner:\n${out}`)), 60_000);
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const m = /Narration API: (http:\/\/\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.stderr!.on('data', (c: Buffer) => (out += c.toString()));
    child.on('exit', (code) => reject(new Error(`exited with ${code}:\n${out}`)));
  });
});

afterAll(async () => {
  if (child.exitCode === null) {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  }
  data.cleanup();
});

test('bin/local.ts serves the narration API on loopback', async () => {
  expect(new URL(base).hostname).toBe('127.0.0.1');
  const res = await fetch(`${base}/voices`);
  expect(res.status).toBe(200);
  // Every voice of the catalogue, in its order, by id.
  const ids = ((await res.json()) as { id: string }[]).map((v) => v.id);
  expect(ids).toEqual(VOICES.map((v) => v.id));
});

test('npm run keys: create → the key skips limits → revoke → 401', async () => {
  const created = await run(TSX, ['bin/keys.ts', 'create', '--plan', 'pro', '--email', 'Ana@Example.com'], {
    cwd: ROOT,
    env,
  });
  const key = /(key_[A-Za-z0-9_-]{43})/.exec(created.stdout)?.[1];
  expect(key).toBeDefined();

  const ok = await postJson(
    `${base}/convert/text`,
    { text: 'Hola desde una cuenta Pro.' },
    { authorization: `Bearer ${key}` },
  );
  expect(ok.status).toBe(200);
  expect(ok.headers.get('ratelimit-limit')).toBeNull();

  const listed = await run(TSX, ['bin/keys.ts', 'list', '--email', 'ana@example.com'], { cwd: ROOT, env });
  expect(listed.stdout).toContain(`${key!.slice(0, 10)}…  pro  active`);
  expect(listed.stdout).not.toContain(key!); // the full key is never shown again

  await run(TSX, ['bin/keys.ts', 'revoke', '--key', key!], { cwd: ROOT, env });
  const denied = await postJson(
    `${base}/convert/text`,
    { text: 'Hola otra vez.' },
    { authorization: `Bearer ${key}` },
  );
  expect(denied.status).toBe(401);
});

test('the CLI refuses bad arguments with usage', async () => {
  await expect(
    run(TSX, ['bin/keys.ts', 'create', '--plan', 'gold', '--email', 'a@b.co'], { cwd: ROOT, env }),
  ).rejects.toMatchObject({
    stderr: expect.stringContaining('--plan must be pro, scale (documents) or lifetime'),
  });
});
