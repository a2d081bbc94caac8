// Bundle size and module-initialisation time of every Lambda in both manifests (routes and workers), bundled with
// esbuild exactly as the stacks do:
//   zip functions  (lib/constructs/zip-bundles.ts, ZIP_BUNDLE_OPTIONS): --bundle --platform=node --target=node22
//                  --format=cjs --minify --sourcemap --sources-content=false, the AWS SDK bundled, externals
//                  espeak-ng + the stack's per-function externalModules (documents zip routes: the renderer's).
//   image functions (lambdas/documents/Dockerfile): the same plus --keep-names, externals = build.cjs's EXTERNALS
//                  (installed in the image's node_modules, so their size is not in the bundle: see `externals`).
// Init time: `node -e` requiring the bundle in a fresh process (the handler module runs `makeHandler(awsDeps())`, as a
// Lambda cold start does), median of N, against an empty module measured the same way in the same run. The child
// processes get placeholder resource names and a loopback-only tripwire: nothing they do at import may connect.
//
//   npx tsx scripts/bundle-report.ts [filter]     (bench/cold-start.bench.ts prints the same with ratios)
import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';
// The image's externals: the image build's own list (installed in the image, outside the bundle).
import { EXTERNALS } from '../lambdas/documents/image/build.cjs';
import { documentsManifest } from '../lambdas/documents/routes';
import { narrationManifest } from '../lambdas/narration/routes';
import type { Access, ServiceManifest, TableId } from '../lambdas/shared/manifest';
import { ZIP_BUNDLE_OPTIONS, ZIP_EXTERNALS } from '../lib/constructs/zip-bundles';
import { TABLES } from '../lib/tables';

export const ROOT = resolve(__dirname, '..');

/** Packages that have no business in a light API handler's cold start. */
export const HEAVY_PACKAGES = [
  'pdfjs-dist',
  'stripe',
  'puppeteer-core',
  '@sparticuz/chromium',
  'exceljs',
  'docx',
  'pdf-lib',
  'linkedom',
  '@mozilla/readability',
  'wasm-media-encoders',
  '@wasm-audio-decoders/ogg-vorbis',
  'isolated-vm',
  'nunjucks',
  'jszip',
  'juice',
  'turndown',
  'html-to-text',
  'busboy',
  '@aws-sdk/client-polly',
  '@aws-sdk/lib-storage',
];

export interface Target {
  service: string;
  id: string;
  kind: 'route' | 'worker';
  handler: string;
  packaging: 'zip' | 'image';
  memoryMb: number;
  externals: string[];
  /** NODE_OPTIONS the function runs with (service-function.ts / image-function.ts). */
  nodeOptions: string;
  /** Resource variables the stack sets on this function from its manifest `access` (placeholder values). */
  env: Record<string, string>;
}

/**
 * The variables ManifestService's bind* helpers set for `access` (lib/constructs/manifest-service.ts): a table
 * variable per granted table, the service's bucket variables, queue URLs for sendTo and a worker's own queues.
 */
export function resourceEnv(
  m: ServiceManifest,
  access: Access,
  ownQueues: string[] = [],
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const id of Object.keys(access.tables ?? {}) as TableId[]) env[TABLES[id].envVar] = `t-${id}`;
  if (access.bucket) Object.assign(env, { [m.bucket.envVar]: `b-${m.service}` }, m.bucket.environment);
  for (const id of [...(access.sendTo ?? []), ...ownQueues]) {
    const q = m.queues.find((x) => x.id === id);
    if (q) env[q.envVar] = `http://127.0.0.1:9/q/${id}`;
  }
  return env;
}

export function targets(manifests: ServiceManifest[] = [narrationManifest, documentsManifest]): Target[] {
  const out: Target[] = [];
  for (const m of manifests) {
    const entries = [
      ...m.routes.map((r) => ({ ...r, kind: 'route' as const })),
      ...m.workers.map((w) => ({ ...w, kind: 'worker' as const })),
    ];
    for (const e of entries) {
      const packaging = e.packaging ?? 'zip';
      out.push({
        service: m.service,
        id: e.id,
        kind: e.kind,
        handler: e.handler,
        packaging,
        memoryMb: e.memoryMb,
        externals: packaging === 'image' ? EXTERNALS : [...ZIP_EXTERNALS, ...(m.externalModules ?? [])],
        nodeOptions:
          packaging === 'image' ? '--enable-source-maps --no-node-snapshot' : '--enable-source-maps',
        env: resourceEnv(m, e.access, 'queues' in e ? e.queues : []),
      });
    }
  }
  return out;
}

export interface BundleInfo {
  file: string;
  bytes: number;
  gzipBytes: number;
  mapBytes: number;
  /** Bytes in the output per npm package (or "(own code)"), largest first. */
  packages: [string, number][];
}

function packageOf(input: string): string {
  const i = input.lastIndexOf('node_modules/');
  if (i < 0) return '(own code)';
  const rest = input.slice(i + 'node_modules/'.length).split('/');
  return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
}

export async function bundle(t: Target, outDir: string): Promise<BundleInfo> {
  const dir = join(outDir, t.service, t.id);
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'index.js');
  const result = await build({
    absWorkingDir: ROOT,
    entryPoints: [join(ROOT, t.handler)],
    ...ZIP_BUNDLE_OPTIONS,
    outfile: file,
    keepNames: t.packaging === 'image',
    external: t.externals,
    metafile: true,
    logLevel: 'error',
  });
  const code = readFileSync(file);
  const sizes = new Map<string, number>();
  const output = Object.values((result.metafile as Metafile).outputs).find((o) => o.entryPoint);
  for (const [input, { bytesInOutput }] of Object.entries(output?.inputs ?? {}))
    sizes.set(packageOf(input), (sizes.get(packageOf(input)) ?? 0) + bytesInOutput);
  return {
    file,
    bytes: code.length,
    gzipBytes: gzipSync(code, { level: 9 }).length,
    mapBytes: statSync(`${file}.map`).size,
    packages: [...sizes.entries()].sort((a, b) => b[1] - a[1]),
  };
}

export interface InitTiming {
  /** Median time of `require(bundle)` inside the child, ms. */
  requireMs: number;
  /** Median wall time of the whole child process (start, require, exit), ms. */
  processMs: number;
  /** Median resident set size right after the require, MB. */
  rssMb: number;
}

/** What every function's environment has in Lambda (placeholders), before its resource variables. */
const CHILD_ENV: Record<string, string> = {
  AWS_REGION: 'us-east-1',
  AWS_ACCESS_KEY_ID: 'placeholder',
  AWS_SECRET_ACCESS_KEY: 'placeholder',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
  SPEECH_ENGINE: 'polly',
  LOG_LEVEL: 'WARN',
};

/** A CommonJS preload that refuses any TCP connect outside loopback in the child (same idea as the test tripwire). */
function tripwireFile(outDir: string): string {
  const file = join(outDir, 'loopback-only.cjs');
  writeFileSync(
    file,
    `const { TCP } = process.binding('tcp_wrap');
const ok = (a) => a.startsWith('127.') || a === '::1' || a.startsWith('::ffff:127.');
for (const m of ['connect', 'connect6']) {
  const orig = TCP.prototype[m];
  TCP.prototype[m] = function (req, address, port) {
    if (!ok(address)) { process.stderr.write('refused connect to ' + address + ':' + port + '\\n'); return -111; }
    return orig.call(this, req, address, port);
  };
}
`,
  );
  return file;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export function measureInit(
  file: string,
  runs: number,
  nodeOptions: string,
  outDir: string,
  env: Record<string, string> = {},
): InitTiming {
  const preload = tripwireFile(outDir);
  const script =
    `const t = performance.now(); require(${JSON.stringify(file)}); const ms = performance.now() - t;` +
    `process.stdout.write(JSON.stringify({ ms, rss: process.memoryUsage().rss }));`;
  const req: number[] = [];
  const proc: number[] = [];
  const rss: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    const r = spawnSync(process.execPath, ['-r', preload, '-e', script], {
      cwd: outDir,
      env: { PATH: process.env.PATH, ...CHILD_ENV, ...env, NODE_OPTIONS: nodeOptions },
      encoding: 'utf8',
      timeout: 60_000,
    });
    proc.push(performance.now() - t);
    if (r.status !== 0) throw new Error(`require(${file}) failed: ${r.stderr || r.error?.message}`);
    const out = JSON.parse(r.stdout) as { ms: number; rss: number };
    req.push(out.ms);
    rss.push(out.rss / 1024 / 1024);
  }
  return { requireMs: median(req), processMs: median(proc), rssMb: median(rss) };
}

/** An empty module measured the same way: the floor every function pays (Node start + an empty require). */
export function emptyModule(outDir: string): string {
  const file = join(outDir, 'empty', 'index.js');
  mkdirSync(join(outDir, 'empty'), { recursive: true });
  writeFileSync(file, '"use strict";\n');
  return file;
}

/** A temp dir inside the repository (gitignored .bench-tmp/): image bundles resolve their externals from node_modules. */
export function makeOutDir(): { path: string; cleanup(): void } {
  const path = join(ROOT, '.bench-tmp', `bundles-${process.pid}`);
  mkdirSync(path, { recursive: true });
  return { path, cleanup: () => rmSync(path, { recursive: true, force: true }) };
}

const kb = (n: number) => `${(n / 1024).toFixed(0)} KB`;

async function main(): Promise<void> {
  const filter = process.argv[2] ?? '';
  const out = makeOutDir();
  try {
    const empty = measureInit(emptyModule(out.path), 5, '--enable-source-maps', out.path);
    console.log(
      `empty module: require ${empty.requireMs.toFixed(2)} ms, process ${empty.processMs.toFixed(0)} ms, rss ${empty.rssMb.toFixed(0)} MB`,
    );
    for (const t of targets().filter((x) => `${x.service}/${x.id}`.includes(filter))) {
      const b = await bundle(t, out.path);
      const init = measureInit(b.file, 5, t.nodeOptions, out.path, t.env);
      const heavy = b.packages.filter(([p]) => HEAVY_PACKAGES.includes(p)).map(([p, n]) => `${p} ${kb(n)}`);
      console.log(
        `${t.service}/${t.id} (${t.packaging}, ${t.memoryMb} MB): ${kb(b.bytes)} (gzip ${kb(b.gzipBytes)}), ` +
          `require ${init.requireMs.toFixed(1)} ms, rss ${init.rssMb.toFixed(0)} MB` +
          (heavy.length ? `; heavy: ${heavy.join(', ')}` : ''),
      );
    }
  } finally {
    out.cleanup();
  }
}

if (require.main === module)
  main().catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
