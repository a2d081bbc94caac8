// The code samples of GET /api (lambdas/shared/http/snippets.ts), run as they are shown: for every operation of both
// services, the curl sample (bash + curl), the Python sample (python3, standard library) and the TypeScript sample
// (fetch, Node) are taken from the OpenAPI document the local runtime serves and run against it (loopback only) with
// VOZ_API, VOZ_API_KEY and, where an id must exist first, AUDIO_ID / JOB_ID in the environment; each must succeed
// (curl --fail-with-body and urllib raise on 4xx/5xx, the TypeScript throws unless res.ok). Every TypeScript sample
// is type-checked (strict, @types/node) in one tsc call, which also emits them; the runnable ones then run one after
// another in one node process (test/helpers/run-ts-samples.mjs). Operations that cannot succeed here are listed
// with the reason, and the list may only name operations that exist.
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { putApiKey } from '../helpers/api-keys';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(300_000);
const run = promisify(execFile);
const SYSTEM_PATH = '/usr/bin:/bin';

/** Operations whose samples cannot succeed against this runtime, and why. */
const NOT_RUN: Record<string, string> = {
  'narration POST /convert/url': 'fetches a public web page (tests reach loopback only)',
  'narration PUT /v1/webhook':
    'registers a public https callback (its host is resolved): tests reach loopback only',
  'narration GET /v1/webhook': 'needs a registered endpoint (see PUT)',
  'narration DELETE /v1/webhook': 'needs a registered endpoint (see PUT)',
  'narration POST /v1/webhook/rotate-secret': 'needs a registered endpoint (see PUT)',
  'documents PUT /v1/webhook':
    'registers a public https callback (its host is resolved): tests reach loopback only',
  'documents GET /v1/webhook': 'needs a registered endpoint (see PUT)',
  'documents DELETE /v1/webhook': 'needs a registered endpoint (see PUT)',
  'documents POST /v1/webhook/rotate-secret': 'needs a registered endpoint (see PUT)',
  'narration GET /ab/results/{experiment}': "needs the operator's dashboard token",
  'narration GET /dashboard/summary': "needs the operator's dashboard token",
  'narration GET /pay/checkout/{plan}':
    'Stripe is not configured here (test/e2e/billing.test.ts runs checkout)',
  'documents GET /pay/checkout/{plan}': 'Stripe is not configured here (test/e2e/documents-billing.test.ts)',
  'narration GET /pay/success': 'needs a paid Stripe checkout session',
  'documents GET /pay/success': 'needs a paid Stripe checkout session',
  'narration POST /pay/portal': 'Stripe is not configured here',
  'documents POST /pay/portal': 'Stripe is not configured here',
  'narration POST /pay/webhook': "only Stripe's signed events are accepted",
  'documents POST /pay/webhook': "only Stripe's signed events are accepted",
  'narration POST /pay/keys/rotate': 'rotates only keys issued by a purchase',
  'documents POST /pay/keys/rotate': 'rotates only keys issued by a purchase',
  'narration GET /audio/{audio_id}/seg/{segment}': 'a short narration is one file, without segments',
  'narration POST /v1/feeds':
    'registers a public feed and polls it at once: tests reach loopback only (test/e2e/feeds.test.ts uses a loopback feed)',
  'narration GET /v1/feeds/{feed_id}': 'needs a registered feed (see POST /v1/feeds)',
  'narration PATCH /v1/feeds/{feed_id}': 'needs a registered feed (see POST /v1/feeds)',
  'narration POST /v1/feeds/{feed_id}/poll': 'needs a registered feed (see POST /v1/feeds)',
  'narration DELETE /v1/feeds/{feed_id}': 'needs a registered feed (see POST /v1/feeds)',
  'narration GET /feeds/{feed_id}/podcast.xml': 'needs a registered feed (see POST /v1/feeds)',
  'narration GET /feeds/{feed_id}/article': 'needs a registered feed (see POST /v1/feeds)',
  'narration POST /feeds/{feed_id}/article': 'needs a registered first_play feed (see POST /v1/feeds)',
  'narration POST /listens': 'needs a registered feed that lists the article (see POST /v1/feeds)',
  'narration GET /v1/feeds/{feed_id}/listens': 'needs a registered feed (see POST /v1/feeds)',
};
/** Run first: what other samples read. Run last, in this order: what removes it. */
const FIRST = ['narration PUT /v1/lexicons/{name}', 'documents PUT /v1/brand'];
const LAST = [
  'narration DELETE /v1/lexicons/{name}',
  'narration DELETE /audio/{audio_id}',
  'documents DELETE /v1/brand',
];

interface Sample {
  lang: string;
  source: string;
}
type Doc = { paths: Record<string, Record<string, { 'x-codeSamples'?: Sample[] }>> };

const files = tempDir('api-snippets-');
let tripwire: Tripwire;
let rt: TestRuntime;
const env: Record<'narration' | 'documents', Record<string, string>> = { narration: {}, documents: {} };
let operations: { name: string; service: 'narration' | 'documents'; samples: Sample[] }[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  rt = await startRuntime({ FREE_PER_HOUR: '50', FREE_PER_DAY: '100', DEMO_PER_HOUR: '20' });
  await putApiKey(rt, 'sk_test_snippets_pro_0001', 'pro');
  await putApiKey(rt, 'sk_test_snippets_scale_0001', 'scale');
  // What the samples read: a PDF to upload, an audio, a job (a batch).
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  pdf
    .addPage([612, 792])
    .drawText('El informe anual de la cooperativa llegó a tiempo.', { x: 72, y: 700, size: 12, font });
  writeFileSync(join(files.path, 'documento.pdf'), await pdf.save());
  const audio = { audio_id: await newAudio() };
  env.narration = {
    VOZ_API: rt.narrationUrl,
    VOZ_API_KEY: 'sk_test_snippets_pro_0001',
    AUDIO_ID: audio.audio_id,
  };
  // A batch is a job too: its id answers both GET /v1/batches/{id} and GET /v1/jobs/{id} (one file, refused).
  const batch = (await (
    await fetch(`${rt.documentsUrl!}/v1/batches`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer sk_test_snippets_scale_0001' },
      body: JSON.stringify({ xml: ['<no-es-un-cfdi/>'] }),
    })
  ).json()) as { id: string };
  expect(batch.id).toEqual(expect.any(String));
  env.documents = {
    VOZ_API: rt.documentsUrl!,
    VOZ_API_KEY: 'sk_test_snippets_scale_0001',
    JOB_ID: batch.id,
  };
  for (const service of ['narration', 'documents'] as const) {
    const doc = (await (await fetch(`${env[service].VOZ_API}/api?format=json`)).json()) as Doc;
    for (const [path, ops] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(ops))
        operations.push({
          name: `${service} ${method.toUpperCase()} ${path}`,
          service,
          samples: op['x-codeSamples'] ?? [],
        });
  }
  const rank = (n: string) => (FIRST.includes(n) ? -1 : LAST.indexOf(n) + 1);
  operations = operations.sort((a, b) => rank(a.name) - rank(b.name));
});

async function newAudio(text = 'Hola. Esta es la prueba de los ejemplos.'): Promise<string> {
  const res = await fetch(rt.url('/convert/text'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text }),
  });
  return ((await res.json()) as { audio_id: string }).audio_id;
}

/** A sample that removes something gets it back before each run (curl's run removed it for Python's). */
const BEFORE_EACH: Record<string, () => Promise<void>> = {
  'narration DELETE /v1/lexicons/{name}': async () => {
    const put = operations.find((o) => o.name === 'narration PUT /v1/lexicons/{name}')!.samples[0]!;
    await run('/bin/sh', ['-c', put.source], {
      cwd: files.path,
      env: { PATH: SYSTEM_PATH, ...env.narration },
    });
  },
  'documents DELETE /v1/brand': async () => {
    const put = operations.find((o) => o.name === 'documents PUT /v1/brand')!.samples[0]!;
    await run('/bin/sh', ['-c', put.source], {
      cwd: files.path,
      env: { PATH: SYSTEM_PATH, ...env.documents },
    });
  },
  'narration DELETE /audio/{audio_id}': async () => {
    env.narration.AUDIO_ID = await newAudio();
  },
};

afterAll(async () => {
  await stopPdfWorkers();
  await rt?.stop();
  files.cleanup();
  tripwire?.uninstall();
});

test('every operation shows curl, TypeScript and Python; the not-run list names only real operations', () => {
  expect(operations.length).toBeGreaterThan(50);
  for (const op of operations)
    expect(op.samples.map((s) => s.lang)).toEqual(['curl', 'TypeScript', 'Python']);
  const names = new Set(operations.map((o) => o.name));
  expect(Object.keys(NOT_RUN).filter((n) => !names.has(n))).toEqual([]);
  expect(LAST.filter((n) => !names.has(n))).toEqual([]);
});

test('the curl and Python samples of every other operation run as shown', async () => {
  const failures: string[] = [];
  let ran = 0;
  for (const op of operations) {
    if (NOT_RUN[op.name]) continue;
    for (const sample of op.samples.filter((s) => s.lang !== 'TypeScript')) {
      // Debian's curl and python3 (standard library only), nothing from the test's own PATH.
      const [cmd, args] =
        sample.lang === 'curl' ? ['/bin/sh', ['-c', sample.source]] : ['python3', ['-c', sample.source]];
      try {
        await BEFORE_EACH[op.name]?.();
        await run(cmd, args as string[], {
          cwd: files.path,
          env: { PATH: SYSTEM_PATH, ...env[op.service] },
          timeout: 60_000,
          maxBuffer: 32 * 1024 * 1024,
        });
        ran++;
      } catch (err) {
        const e = err as { stdout?: string; stderr?: string; message: string };
        failures.push(`${op.name} (${sample.lang}): ${(e.stderr || e.stdout || e.message).slice(0, 300)}`);
      }
    }
  }
  expect(failures).toEqual([]);
  expect(ran).toBeGreaterThan(40);
});

test('the TypeScript samples type-check (one tsc call, strict) and those of every other operation run as shown (one node process)', async () => {
  const ROOT = join(__dirname, '..', '..');
  const dir = join(files.path, 'ts');
  mkdirSync(join(dir, 'src'), { recursive: true });
  const samples = operations.map((op, i) => ({
    op,
    file: `op${String(i).padStart(3, '0')}`,
    source: op.samples.find((s) => s.lang === 'TypeScript')!.source,
  }));
  for (const s of samples) writeFileSync(join(dir, 'src', `${s.file}.mts`), `// ${s.op.name}\n${s.source}\n`);
  // Negative controls: a type error tsc must name, and a sample that fails (a 404) the runner must report.
  writeFileSync(join(dir, 'src', 'control-type.mts'), "const n: number = 'texto';\nconsole.log(n);\n");
  writeFileSync(
    join(dir, 'src', 'control-404.mts'),
    'const res = await fetch(`${process.env.VOZ_API}/no-existe`);\nif (!res.ok) throw new Error(`${res.status}`);\n',
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        moduleDetection: 'force',
        strict: true,
        skipLibCheck: true,
        types: ['node'],
        typeRoots: [join(ROOT, 'node_modules', '@types')],
        outDir: 'out',
        rootDir: 'src',
      },
      include: ['src'],
    }),
  );
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const checked = await run(process.execPath, [tsc, '-p', dir]).then(
    () => '',
    (e: { stdout: string }) => e.stdout,
  );
  expect(checked.trim().split('\n')).toEqual([
    expect.stringMatching(/\/src\/control-type\.mts\(1,7\): error TS2322/),
  ]);

  // The curl/Python test deleted its audio last: a new one for the samples that read it (and the last, which
  // deletes it). The lexicon PUT runs first and its DELETE last, as above.
  env.narration.AUDIO_ID = await newAudio('Hola. Esta es la prueba de los ejemplos en TypeScript.');
  const runnable = samples.filter((s) => !NOT_RUN[s.op.name]);
  const plan = runnable.map((s) => ({
    name: s.op.name,
    file: join(dir, 'out', `${s.file}.mjs`),
    env: env[s.op.service],
  }));
  const control = { name: 'control 404', file: join(dir, 'out', 'control-404.mjs'), env: env.narration };
  writeFileSync(join(dir, 'plan.json'), JSON.stringify([...plan, control]));
  await run(
    process.execPath,
    [join(ROOT, 'test/helpers/run-ts-samples.mjs'), join(dir, 'plan.json'), join(dir, 'report.json')],
    { cwd: files.path, env: { PATH: SYSTEM_PATH }, timeout: 120_000, maxBuffer: 32 * 1024 * 1024 },
  );
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as {
    ran: string[];
    failures: string[];
  };
  expect(report.failures).toEqual([expect.stringMatching(/^control 404: Error: 404/)]);
  expect(report.ran).toEqual(plan.map((p) => p.name));
  expect(report.ran.length).toBeGreaterThan(40);
});
