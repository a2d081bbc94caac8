// ZipBundles: how a stack's zip functions are bundled. Every handler of the stack is built by ONE esbuild build with
// all of them as entry points (no code splitting: each entry's output is a whole, self-contained bundle, the same
// bytes a build of that entry alone gives), run the first time CDK stages one of the stack's functions. NodejsFunction
// ran one `npx esbuild` process per handler instead; esbuild parses the shared modules (AWS SDK, Powertools, the
// platform) once per build, so the one build takes a third of the CPU of the ~40 separate ones (docs/performance.md).
// Each function's code is still its own asset: Code.fromAsset of that handler's output, hashed by content, so a
// deploy updates only the functions whose bundle changed. CDK's bundling switch (`aws:cdk:bundling-stacks`, which
// `cdk deploy <Stack>` narrows to the deployed stacks) applies as to any bundled asset: a skipped stack builds nothing.
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs';
import * as path from 'node:path';
import { AssetHashType, DockerImage, type ILocalBundling } from 'aws-cdk-lib';
import * as lambda from 'aws-cdk-lib/aws-lambda';
import { buildSync } from 'esbuild';

/**
 * esbuild options of every zip function: Node 22 (the runtime) CommonJS, minified, with source maps (stack traces
 * point at the TypeScript sources; mappings only, embedding the sources would double the bundle). The AWS SDK is
 * bundled (a pinned, tested version; the runtime's copy changes under us).
 */
export const ZIP_BUNDLE_OPTIONS = {
  bundle: true,
  platform: 'node',
  target: 'node22',
  format: 'cjs',
  minify: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: 'warning',
} as const;

/** Left out of every zip bundle: the local speech engine, imported lazily when SPEECH_ENGINE is espeak*, never in the cloud. */
export const ZIP_EXTERNALS = ['espeak-ng'];

export interface ZipBundlesProps {
  /** Names the build's output folders (the service). */
  name: string;
  /** Repository root: esbuild's working directory; handler paths are relative to it. */
  projectRoot: string;
  /** Every zip handler of the stack (repository-relative, duplicates allowed). */
  handlers: readonly string[];
  /**
   * Packages left out of the bundles besides ZIP_EXTERNALS. Only for modules the functions provably never load (e.g.
   * a lazily imported renderer that only image functions call): an external the code does load fails at run time.
   */
  externalModules?: readonly string[];
}

export class ZipBundles {
  private readonly handlers: string[];
  private readonly external: string[];
  /** Assembly folders this build ran in, in this process (a folder left by an earlier, failed synth is rebuilt). */
  private readonly builtIn = new Set<string>();

  constructor(private readonly props: ZipBundlesProps) {
    this.handlers = [...new Set(props.handlers)].sort();
    this.external = [...ZIP_EXTERNALS, ...(props.externalModules ?? [])];
    const dirs = new Map<string, string>();
    for (const handler of this.handlers) {
      const other = dirs.get(this.outputName(handler));
      if (other) throw new Error(`handlers ${other} and ${handler} would share a bundle folder`);
      dirs.set(this.outputName(handler), handler);
    }
  }

  /** The code of a function running `handler` (its `index.handler`). */
  code(handler: string): lambda.Code {
    if (!this.handlers.includes(handler))
      throw new Error(`${handler} is not one of the handlers of the ${this.props.name} bundles`);
    // Own enumerable fields make CDK's staging cache key (one staged asset per distinct key): the handler and the
    // build's externals. The method is left out of the key.
    const local: ILocalBundling & { handler: string; external: string[] } = {
      handler,
      external: this.external,
      tryBundle: (outputDir) => this.stage(handler, outputDir),
    };
    return lambda.Code.fromAsset(this.props.projectRoot, {
      assetHashType: AssetHashType.OUTPUT,
      // Never used: esbuild is a dev dependency, so bundling is always local (tryBundle returns true or throws).
      bundling: { image: DockerImage.fromRegistry('dummy'), local },
    });
  }

  /** Output folder of `handler`, a sibling of CDK's own bundling folders (same depth: same source-map paths). */
  private outputName(handler: string): string {
    return `bundling-${this.props.name}-${handler.replace(/\.[cm]?[jt]s$/, '').replace(/[^A-Za-z0-9]+/g, '-')}`;
  }

  /** Moves the bundle of `handler` into CDK's output folder, building all of them first if it is not there. */
  private stage(handler: string, outputDir: string): boolean {
    const root = path.dirname(outputDir);
    const built = path.join(root, this.outputName(handler));
    if (!this.builtIn.has(root) || !existsSync(path.join(built, 'index.js'))) {
      this.build(root);
      this.builtIn.add(root);
    }
    mkdirSync(outputDir, { recursive: true });
    for (const file of readdirSync(built)) renameSync(path.join(built, file), path.join(outputDir, file));
    rmSync(built, { recursive: true, force: true });
    return true;
  }

  /** One esbuild build of every handler: <root>/<outputName>/index.js and index.js.map each. */
  private build(root: string): void {
    const entryPoints = Object.fromEntries(
      this.handlers.map((h) => [`${this.outputName(h)}/index`, path.join(this.props.projectRoot, h)]),
    );
    process.stderr.write(
      `Bundling ${this.handlers.length} ${this.props.name} handlers (one esbuild build)...\n`,
    );
    buildSync({
      ...ZIP_BUNDLE_OPTIONS,
      absWorkingDir: this.props.projectRoot,
      entryPoints,
      outdir: root,
      external: this.external,
    });
  }
}
