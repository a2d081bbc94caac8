// The isolation boundary for callers' Jinja2 templates (custom_html, header_html, footer_html).
//
// Why isolated-vm (5.0.4, pinned: 6.x needs Node 22; 5.x builds on 20 and 22): nunjucks compiles templates to
// JavaScript and runs them, and in-process `{{ range.constructor("return process...")() }}` reaches the host
// (docs/design-notes.md). A V8 isolate is a separate heap with its own globals: the realm gets nothing from the host but
// strings (engine sources, the template, the data as JSON text, the built-in partials) and returns one string.
// There is no process, require, fs, network or timer inside. CPU/wall time is bounded by isolated-vm's `timeout`
// (V8 TerminateExecution) and memory by `memoryLimit` (the isolate is disposed, the host lives on).
// worker_threads resource limits were measured not to be a safe fence (range(1e8) aborted the whole process).
//
// One isolate per process is reused; every render gets a FRESH context (new global object, engine re-evaluated
// from scripts compiled once per isolate), so nothing a template does survives into the next caller's render.
// The template is first compiled to JavaScript in the isolate's long-lived compiler context (JIT-warm, ~5× faster
// than compiling in a cold context), which only ever runs the nunjucks compiler on the source, never template
// code; the compiled code then runs in the fresh context. Built-in partials arrive precompiled from trusted.ts.
// After a limit is hit, the isolate is thrown away and rebuilt on the next render.
//
// Node ≥ 20 needs `--no-node-snapshot` for isolated-vm (laverdet/isolated-vm#420: isolates built from a different
// snapshot than Node's can crash the process). Set NODE_OPTIONS=--no-node-snapshot on the Lambda and for jest.
import ivm from 'isolated-vm';
import { TemplateError } from '../errors';
import type { TemplateRenderer, TemplateRenderOptions } from '../ports';
import { realmScripts, type RealmInput, type RealmResult } from './realm-sources';
import { precompilePartials } from './trusted';

export interface SandboxOptions {
  /** Wall-clock limit for compiling + rendering one template. */
  timeoutMs?: number;
  /** V8 heap limit of the isolate, MB. */
  memoryMb?: number;
}

/** The port's (../ports.ts TemplateRenderer): name, error location, partials. */
export type SandboxRenderOptions = TemplateRenderOptions;

/** Engine setup is trusted code; it gets its own, generous time budget. */
const SETUP_TIMEOUT_MS = 5_000;

/** The message of an error from isolated-vm (not `instanceof Error` under jest: it comes from another realm). */
function messageOf(err: unknown): string {
  const m = (err as { message?: unknown } | null)?.message;
  return typeof m === 'string' ? m : String(err);
}

/**
 * Isolates this process disposed itself (recycle after another render's limit hit). A render that was running in
 * one fails with "Isolate was disposed during execution": not its own fault, so it is retried, not blamed.
 */
const disposedByHost = new WeakSet<ivm.Isolate>();

function isMemoryError(err: unknown, isolate: ivm.Isolate | undefined): boolean {
  const msg = messageOf(err);
  if (/memory limit|Array buffer allocation failed|heap out of memory/i.test(msg)) return true;
  // V8 disposed it on its own: the memory limit was reached (isolated-vm's documented behaviour).
  return !!isolate?.isDisposed && !disposedByHost.has(isolate);
}

/** Thrown for a render whose isolate was recycled under it; `render()` retries once on a fresh isolate. */
class IsolateRecycled extends Error {}

function isTimeout(err: unknown): boolean {
  return /timed out/i.test(messageOf(err));
}

export class TemplateSandbox implements TemplateRenderer {
  readonly timeoutMs: number;
  readonly memoryMb: number;
  private isolate: ivm.Isolate | undefined;
  private compiled: ivm.Script[] = [];
  /** The isolate's compiler context: runs the nunjucks compiler on callers' sources, never their code. */
  private compiler: ivm.Context | undefined;
  /** Counters for benchmarks and health checks. */
  readonly stats = { isolatesCreated: 0, renders: 0, limitHits: 0 };

  constructor(options: SandboxOptions = {}) {
    this.timeoutMs = options.timeoutMs ?? 500;
    this.memoryMb = options.memoryMb ?? 64;
  }

  private ensureIsolate(): ivm.Isolate {
    if (this.isolate && !this.isolate.isDisposed) return this.isolate;
    const isolate = new ivm.Isolate({ memoryLimit: this.memoryMb });
    this.compiled = realmScripts().map((s) => isolate.compileScriptSync(s.source, { filename: s.name }));
    const compiler = isolate.createContextSync();
    for (const script of this.compiled) script.runSync(compiler, { timeout: SETUP_TIMEOUT_MS });
    this.compiler = compiler;
    this.isolate = isolate;
    this.stats.isolatesCreated++;
    return isolate;
  }

  /** Creates the isolate and compiles the engine now (cold start), instead of on the first render. */
  warm(): void {
    this.ensureIsolate();
  }

  private recycle(): void {
    const iso = this.isolate;
    this.isolate = undefined;
    this.compiler = undefined;
    this.compiled = [];
    if (iso && !iso.isDisposed) {
      disposedByHost.add(iso);
      iso.dispose();
    }
  }

  /** Renders `source` with `data` (top-level keys become template variables); autoescape is on. */
  async render(source: string, data: unknown, options: SandboxRenderOptions = {}): Promise<string> {
    try {
      return await this.renderOnce(source, data, options);
    } catch (err) {
      // Another render that hit the memory limit may have disposed the shared isolate under this one:
      // that is not this template's fault, so try once more on a fresh isolate.
      if (err instanceof IsolateRecycled || /isolate (is|was) disposed/i.test(messageOf(err))) {
        return this.renderOnce(source, data, options);
      }
      throw err;
    }
  }

  /** Runs one step inside the isolate; a timeout or the memory limit becomes the caller's 400. */
  private async step(
    isolate: ivm.Isolate,
    run: (timeout: number) => Promise<unknown>,
    timeout: number,
    loc: (string | number)[],
  ): Promise<string> {
    try {
      return (await run(Math.max(1, Math.round(timeout)))) as string;
    } catch (err) {
      if (disposedByHost.has(isolate)) throw new IsolateRecycled(messageOf(err));
      if (isTimeout(err)) {
        this.stats.limitHits++;
        this.recycle();
        throw new TemplateError(
          'timeout',
          `The template took too long to render (limit ${this.timeoutMs} ms): look for very long loops such as range() over millions of items`,
          null,
          null,
          loc,
        );
      }
      if (isMemoryError(err, isolate)) {
        this.stats.limitHits++;
        this.recycle();
        throw new TemplateError(
          'memory',
          `The template used too much memory (limit ${this.memoryMb} MB): look for strings or lists that grow without bound`,
          null,
          null,
          loc,
        );
      }
      throw err;
    }
  }

  private async renderOnce(source: string, data: unknown, options: SandboxRenderOptions): Promise<string> {
    const loc = options.loc ?? ['body', 'custom_html'];
    const name = options.name ?? 'custom_html';
    const isolate = this.ensureIsolate();
    // The budget is the template's: creating the isolate and our realm scripts are not counted.
    const started = performance.now();
    const compiled = this.compiled;
    const compiler = this.compiler!;
    this.stats.renders++;

    // 1. Compile in the compiler context (JIT-warm; no template code runs there).
    const compiledJson = await this.step(
      isolate,
      (timeout) =>
        compiler.evalClosure('return __njCompile($0, $1)', [name, source], {
          timeout,
          arguments: { copy: true },
          result: { copy: true },
        }),
      this.timeoutMs,
      loc,
    );
    const compiledResult = JSON.parse(compiledJson) as
      { ok: true; code: string } | Extract<RealmResult, { ok: false }>;
    if (!compiledResult.ok) {
      const r = compiledResult;
      throw new TemplateError(r.kind, r.message, r.line, r.column, loc);
    }

    // 2. Run it in a fresh context, with what is left of the time budget.
    const input: RealmInput = {
      source,
      code: compiledResult.code,
      data,
      partials: options.partials ?? {},
      precompiled: precompilePartials(options.partials ?? {}),
      name,
    };
    const inputJson = JSON.stringify(input);
    const context = await isolate.createContext();
    try {
      const setupStarted = performance.now();
      for (const script of compiled) await script.run(context, { timeout: SETUP_TIMEOUT_MS });
      const setupMs = performance.now() - setupStarted;
      const out = await this.step(
        isolate,
        (timeout) =>
          context.evalClosure('return __njRender($0)', [inputJson], {
            timeout,
            arguments: { copy: true },
            result: { copy: true },
          }),
        this.timeoutMs - (performance.now() - started - setupMs),
        loc,
      );
      const result = JSON.parse(out) as RealmResult;
      if (result.ok) return result.html;
      throw new TemplateError(result.kind, result.message, result.line, result.column, loc);
    } finally {
      if (!isolate.isDisposed) context.release();
    }
  }

  dispose(): void {
    this.recycle();
  }
}

let shared: TemplateSandbox | undefined;

/** The process-wide sandbox (one isolate, fresh context per render). */
export function sharedSandbox(): TemplateSandbox {
  shared ??= new TemplateSandbox();
  return shared;
}
