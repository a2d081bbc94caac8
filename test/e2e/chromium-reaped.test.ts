// The documents renderer's Chromium dies with the local runtime: puppeteer starts it in a process group of its own,
// so a kill of the runtime's process group (SIGKILL: no exit hook runs) left it running — for as long as it was busy
// printing, since it only notices its parent's death when it next reads the pipe. The local runtime starts it through
// lib/local/chromium-with-parent.sh (a parent-death signal). Loopback only: `npm start` in a child process leading its
// own group, a Scale key made with `npm run keys`, a render that keeps Chromium busy, then `kill -9 -<pgid>`.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { tempDir } from '../helpers/env';
import { alive, startLocalProcess, type LocalProcess } from '../helpers/local-process';

jest.setTimeout(300_000); // its waits allow a loaded machine minutes

const run = promisify(execFile);
const ROOT = join(__dirname, '..', '..');
const TSX = join(ROOT, 'node_modules', '.bin', 'tsx');
// Pure CSS that takes Chromium minutes to print (test/integration/documents-chromium-lifecycle.test.ts).
const RUNAWAY =
  '<style>div{filter:blur(40px) drop-shadow(0 0 30px red);width:2000px;height:2000px;' +
  'background:repeating-radial-gradient(red,blue 3px)}</style>' +
  '<div></div>'.repeat(200);

const data = tempDir('reap-');
let rt: LocalProcess | undefined;
afterAll(async () => {
  await rt?.killGroup();
  data.cleanup();
});

function browserPids(output: string): number[] {
  return output
    .split('\n')
    .filter((l) => l.includes('"browser started"'))
    .map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { pid: number }).pid);
}

test('killing the runtime process group while Chromium is busy takes Chromium with it at once', async () => {
  rt = await startLocalProcess(data.path);
  const created = await run(
    TSX,
    ['bin/keys.ts', 'create', '--plan', 'scale', '--email', 'reap@example.com'],
    {
      cwd: ROOT,
      env: { ...process.env, DATA_DIR: data.path },
    },
  );
  const key = /(key_[A-Za-z0-9_-]{43})/.exec(created.stdout)![1]!;
  const render = fetch(`${rt.documentsUrl}/v1/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ custom_html: RUNAWAY, format: 'pdf', data: {} }),
  }).catch(() => 'connection lost');
  // Chromium started for this render (its log line), and is printing.
  const deadline = Date.now() + 60_000;
  while (browserPids(rt.output()).length === 0 && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 100));
  const [pid] = browserPids(rt.output());
  expect(alive(pid!)).toBe(true);

  await rt.killGroup();
  expect(await render).toBe('connection lost');
  const bound = Date.now() + 60_000; // generous: a loaded machine (the bound only ends a hang)
  while (alive(pid!) && Date.now() < bound) await new Promise((r) => setTimeout(r, 20));
  expect(alive(pid!)).toBe(false);
});
