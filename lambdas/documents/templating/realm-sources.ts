// The scripts evaluated, in order, into every template realm: the nunjucks browser bundle (the complete engine,
// compiler included, with no Node built-ins; unminified because the Jinja2 patches call internal compiler methods
// whose names the .min build mangles), decimal.js (exact money arithmetic for `sum`, `round`, `currency`), our
// filter arguments and es-MX formatting (realm-format.js) and our Jinja2 compatibility bootstrap
// (realm-bootstrap.js). They are read once per process: the first two from node_modules, ours from beside the
// running code (this folder; in the container image, the folder of the handler bundles, where
// lambdas/documents/image/build.cjs copies them).
// Bundling note: isolated-vm is a native addon and these files are read at run time, so a bundle must keep
// `isolated-vm`, `nunjucks` and `decimal.js` in node_modules (esbuild `nodeModules`/external; the container image
// installs production dependencies) and ship REALM_SCRIPT_FILES beside it.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Our realm scripts, in evaluation order; a bundle that renders templates carries them in its own folder. */
export const REALM_SCRIPT_FILES = ['realm-format.js', 'realm-bootstrap.js'] as const;

export interface RealmScript {
  name: string;
  source: string;
}

let scripts: RealmScript[] | undefined;

export function realmScripts(): RealmScript[] {
  if (!scripts) {
    scripts = [
      // `self` lets both UMD wrappers find the global object (there is no window, module or define in a realm).
      { name: 'prelude.js', source: 'var self = globalThis;' },
      { name: 'nunjucks.js', source: readFileSync(require.resolve('nunjucks/browser/nunjucks.js'), 'utf8') },
      { name: 'decimal.js', source: readFileSync(require.resolve('decimal.js/decimal.js'), 'utf8') },
      ...REALM_SCRIPT_FILES.map((name) => ({ name, source: readFileSync(join(__dirname, name), 'utf8') })),
    ];
  }
  return scripts;
}

/** What a realm answers for one render. */
export type RealmResult =
  | { ok: true; html: string }
  | {
      ok: false;
      kind: 'syntax' | 'render' | 'include' | 'output';
      message: string;
      line: number | null;
      column: number | null;
    };

export interface RealmInput {
  source: string;
  /** The source already compiled to JavaScript (by the sandbox's compiler context); used instead of `source`. */
  code?: string;
  data: unknown;
  partials: Record<string, string>;
  /** Partials already compiled to JavaScript (by precompilePartials), name → code. */
  precompiled?: Record<string, string>;
  /** Template name shown in errors. */
  name?: string;
  /** Trusted realms only: reuse the compiled template across renders under this key. */
  cacheKey?: string;
}
