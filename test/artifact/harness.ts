// Shared by the artifact tests: the assembly's functions matched to their manifest entries, Lambda processes for a
// bundle and for its TypeScript source (same environment, same harness), paid keys in the emulator's table, and a
// comparable summary of a function's answer (status, content type, header names, body shape).
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import type { RouteSpec, ScheduleSpec, ServiceManifest, WorkerSpec } from '../../lambdas/shared/manifest';
import { bundleSources, readAssembly, type AssemblyFunction } from './assembly';
import { artifactReady, type ArtifactState } from './global-setup';
import {
  lambdaEnvironment,
  LambdaProcess,
  SOURCE_EXEC_ARGV,
  startXraySink,
  type InvokeResult,
  type LambdaBackends,
} from './lambda';

export const ROOT = resolve(__dirname, '..', '..');
export const MANIFESTS: ServiceManifest[] = [narrationManifest, documentsManifest];

export interface MatchedFunction {
  fn: AssemblyFunction;
  manifest: ServiceManifest;
  entry: RouteSpec | WorkerSpec | ScheduleSpec;
  /** Schedules count as workers: no route, invoked with an event of their own. */
  kind: 'route' | 'worker';
  /** Route key of the manifest entry (`GET /voices`, `$default`); undefined for workers. */
  routeKey?: string;
}

export const routeKeyOf = (r: RouteSpec) => (r.path === '$default' ? '$default' : `${r.method} ${r.path}`);

/** The manifest entry whose handler the function runs: zip by the bundle's entry source, image by its CMD. */
export function matchFunction(fn: AssemblyFunction, bundleDir: string | undefined): MatchedFunction {
  const candidates = MANIFESTS.flatMap((manifest) => [
    ...manifest.routes.map((entry) => ({ manifest, entry, kind: 'route' as const })),
    ...manifest.workers.map((entry) => ({ manifest, entry, kind: 'worker' as const })),
    ...(manifest.schedules ?? []).map((entry) => ({ manifest, entry, kind: 'worker' as const })),
  ]);
  // Zip: the handler files the bundle was built from (its source map); image: the file its CMD names.
  const handlerFiles =
    fn.packaging === 'image'
      ? [fn.handler.replace(/\.handler$/, '.ts')]
      : bundleSources(bundleDir!).filter((s) => candidates.some((c) => s.endsWith(`/${c.entry.handler}`)));
  const matches = candidates.filter(
    (c) =>
      handlerFiles.some((f) => f === c.entry.handler || f.endsWith(`/${c.entry.handler}`)) &&
      (c.kind === 'route' ? routeKeyOf(c.entry as RouteSpec) === fn.routeKey : fn.routeKey === undefined),
  );
  if (matches.length !== 1)
    throw new Error(
      `${fn.stack}/${fn.logicalId} (${fn.routeKey ?? 'no route'}, ${handlerFiles.join(', ')}) matches ${matches.length} manifest entries`,
    );
  const m = matches[0]!;
  return { fn, ...m, routeKey: m.kind === 'route' ? routeKeyOf(m.entry as RouteSpec) : undefined };
}

export interface Harness {
  state: ArtifactState;
  functions: MatchedFunction[];
  backends: LambdaBackends;
  xraySegments(): number;
  /** Starts `fn` from its bundle (zip) and from its source, in Node 22, with the same environment. */
  startPair(m: MatchedFunction): Promise<{ bundle: LambdaProcess; source: LambdaProcess }>;
  close(): void;
}

export async function harness(): Promise<Harness> {
  const state = await artifactReady();
  const xray = await startXraySink();
  const home = join(state.runDir, 'home');
  mkdirSync(home, { recursive: true });
  const backends: LambdaBackends = {
    env: state.env,
    pollyEndpoint: state.pollyEndpoint,
    xrayDaemon: xray.address,
    home,
  };
  const functions = readAssembly(state.cdkOut).functions.map((fn) =>
    matchFunction(fn, fn.packaging === 'zip' ? join(state.runDir, fn.assetPath) : undefined),
  );
  return {
    state,
    functions,
    backends,
    xraySegments: xray.segments,
    async startPair(m) {
      const bundleDir = join(state.runDir, m.fn.assetPath);
      const [bundle, source] = await Promise.all([
        LambdaProcess.start({
          node: state.node22.bin,
          modulePath: join(bundleDir, 'index.js'),
          cwd: bundleDir,
          env: lambdaEnvironment(m.fn, backends, bundleDir),
        }),
        LambdaProcess.start({
          node: state.node22.bin,
          execArgv: SOURCE_EXEC_ARGV,
          modulePath: join(ROOT, m.entry.handler),
          cwd: ROOT,
          env: lambdaEnvironment(m.fn, backends, ROOT),
        }),
      ]);
      return { bundle, source };
    },
    close: () => xray.close(),
  };
}

/** Structure of a JSON value: object keys (sorted) with the structure of their values, array element structure. */
export function shapeOf(value: unknown): unknown {
  if (value === null) return 'null';
  if (Array.isArray(value)) return value.length ? [shapeOf(value[0])] : [];
  if (typeof value === 'object')
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((k) => [k, shapeOf((value as Record<string, unknown>)[k])]),
    );
  return typeof value;
}

export interface HttpAnswer {
  statusCode: number;
  headers?: Record<string, string>;
  body?: string;
  isBase64Encoded?: boolean;
  cookies?: string[];
}

export const header = (a: HttpAnswer, name: string) =>
  Object.entries(a.headers ?? {}).find(([k]) => k.toLowerCase() === name)?.[1];

/** What must be equal between a function's bundle and its source for the same request. */
export function summary(r: InvokeResult): unknown {
  if (r.error) return { threw: r.error.name, message: r.error.message };
  const v = r.value as (HttpAnswer & { batchItemFailures?: unknown[] }) | null;
  if (v && Array.isArray(v.batchItemFailures)) return { batchItemFailures: v.batchItemFailures.length };
  if (!v || typeof v.statusCode !== 'number') return { value: shapeOf(v) };
  const contentType = header(v, 'content-type') ?? '';
  let body: unknown = v.body ? 'bytes' : 'empty';
  if (/json/.test(contentType) && v.body) {
    const text = v.isBase64Encoded ? Buffer.from(v.body, 'base64').toString('utf8') : v.body;
    body = shapeOf(JSON.parse(text));
  }
  return {
    statusCode: v.statusCode,
    contentType,
    headers: Object.keys(v.headers ?? {})
      .map((k) => k.toLowerCase())
      .sort(),
    cookies: (v.cookies ?? []).map((c) => c.split('=')[0]).sort(),
    isBase64Encoded: !!v.isBase64Encoded,
    body,
  };
}

/** The HTTP answer of an invocation (fails, with the function's logs, if it threw). */
export function answerOf(r: InvokeResult, logs = ''): HttpAnswer {
  if (r.error)
    throw new Error(`the function threw ${r.error.name}: ${r.error.message}\n${r.error.stack}\n${logs}`);
  return r.value as HttpAnswer;
}

export function bodyText(a: HttpAnswer): string {
  return a.isBase64Encoded ? Buffer.from(a.body ?? '', 'base64').toString('utf8') : (a.body ?? '');
}

export function bodyBytes(a: HttpAnswer): Buffer {
  return a.isBase64Encoded ? Buffer.from(a.body ?? '', 'base64') : Buffer.from(a.body ?? '', 'utf8');
}
