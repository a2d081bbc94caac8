// Shared by the artifact tests: the assembly's functions matched to their manifest entries, a Lambda process for a
// bundle, and what is wrong with a route's answer by its API documentation (contractProblems).
import { join, resolve } from 'node:path';
import { mkdirSync } from 'node:fs';
import { documentsManifest } from '../../lambdas/documents/routes';
import { narrationManifest } from '../../lambdas/narration/routes';
import { ErrorDetail } from '../../lambdas/shared/http/openapi';
import type { ResponseDoc } from '../../lambdas/shared/http/route-doc';
import type { RouteSpec, ScheduleSpec, ServiceManifest, WorkerSpec } from '../../lambdas/shared/manifest';
import { bundleSources, readAssembly, type AssemblyFunction } from './assembly';
import { artifactReady, type ArtifactState } from './global-setup';
import {
  lambdaEnvironment,
  LambdaProcess,
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
  /** Starts a zip function from its bundle in cdk.out, in Node 22, with the template's environment. */
  startBundle(m: MatchedFunction): Promise<LambdaProcess>;
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
    startBundle(m) {
      const bundleDir = join(state.runDir, m.fn.assetPath);
      return LambdaProcess.start({
        node: state.node22.bin,
        modulePath: join(bundleDir, 'index.js'),
        cwd: bundleDir,
        env: lambdaEnvironment(m.fn, backends, bundleDir),
      });
    },
    close: () => xray.close(),
  };
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

/** The $default route (404, 405, preflight) has no docs of its own: it answers the platform's {"detail"} errors. */
const DEFAULT_ROUTE_RESPONSES: Record<number, ResponseDoc> = {
  404: { description: 'No such route', schema: ErrorDetail },
};

/**
 * What is wrong with `a` as an answer of `route` by the route's API documentation (its `docs.responses`, what GET
 * /api publishes): a status it does not document, another content type, a JSON body its schema refuses, a redirect
 * without Location. [] when nothing is. (Documented headers are not required: some are conditional, e.g. the
 * RateLimit-* headers of free-tier answers only.)
 */
export function contractProblems(route: RouteSpec, a: HttpAnswer): string[] {
  const responses = route.docs?.responses ?? (route.path === '$default' ? DEFAULT_ROUTE_RESPONSES : {});
  const doc = responses[a.statusCode];
  if (!doc) return [`status ${a.statusCode} is not documented (${Object.keys(responses).join(', ')})`];
  const problems: string[] = [];
  const contentType = (header(a, 'content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  const documented =
    doc.contentTypes ?? (doc.contentType ? [doc.contentType] : doc.schema ? ['application/json'] : []);
  if (documented.length > 0 && !documented.includes(contentType))
    problems.push(`content type ${contentType || '(none)'}, documented ${documented.join(' or ')}`);
  if (doc.schema && /json/.test(contentType)) {
    let body: unknown;
    try {
      body = JSON.parse(bodyText(a));
    } catch {
      return [...problems, 'body is not JSON'];
    }
    const parsed = doc.schema.safeParse(body);
    if (!parsed.success)
      problems.push(`body does not match its schema: ${parsed.error.message.slice(0, 600)}`);
  }
  if (a.statusCode >= 300 && a.statusCode < 400 && a.statusCode !== 304 && !header(a, 'location'))
    problems.push(`redirect ${a.statusCode} without Location`);
  return problems;
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
