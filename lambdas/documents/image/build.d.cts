// Types of build.cjs (plain CommonJS so the Docker builder stage runs it with Node alone) for TypeScript importers
// such as scripts/bundle-report.ts.
/** Packages left out of the image bundles and installed in the image's node_modules. */
export declare const EXTERNALS: string[];
/** Files copied into each handler bundle's folder. */
export declare const FILES_BESIDE_BUNDLES: string[];
/** [source, destination] pairs the runtime stage copies next to the bundles. */
export declare const RUNTIME_FILES: [string, string][];
/** Files resolved inside the externals at run time. */
export declare const RUNTIME_RESOLVES: string[];
/** The esbuild command-line arguments of the image bundles. */
export declare function esbuildArgs(entries: string[], outDir: string): string[];
