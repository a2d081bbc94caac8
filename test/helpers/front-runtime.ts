// The local fronts (lib/local/front.ts) over the manifests' handlers, for tests that must replace what a route talks
// to: a resolver stub for the routes that fetch URLs (fuzzing), a failing speech engine or a short route timeout
// (fault injection), endpoints pointed at fault proxies. Same emulators, same handler files and the same front as
// `npm start` (lib/local/runtime.ts); only the overridden routes differ, and no queue worker runs.
import type { Server } from 'node:http';
import { narrationManifest } from '../../lambdas/narration/routes';
import { documentsManifest } from '../../lambdas/documents/routes';
import { resetClients } from '../../lambdas/shared/aws/clients';
import { resetConfig } from '../../lambdas/shared/config';
import type { RouteSpec, ServiceManifest } from '../../lambdas/shared/manifest';
import { startEmulators, type Emulators } from '../../lib/local/emulators';
import { createFront, listen, type LambdaHandler } from '../../lib/local/front';
import { loadHandlers } from '../../lib/local/runtime';
import { tempDir } from './env';

export type ServiceName = 'narration' | 'documents';

export const MANIFESTS: Record<ServiceName, ServiceManifest> = {
  narration: narrationManifest,
  documents: documentsManifest,
};

export interface FrontsOptions {
  /** Handler environment, applied over the emulators' (may read the emulators, e.g. to put proxies in front). */
  env?:
    | Record<string, string>
    | ((emulators: Emulators) => Record<string, string> | Promise<Record<string, string>>);
  /** A replacement handler for a route, or undefined to load the manifest's. Called after `env` is applied. */
  override?: (route: RouteSpec, service: ServiceName) => Promise<LambdaHandler | undefined>;
  /** Adjusts a manifest before it is served (e.g. a short route timeout). */
  manifest?: (manifest: ServiceManifest) => ServiceManifest;
  services?: ServiceName[];
  log?: (line: string) => void;
}

export interface Fronts {
  urls: Partial<Record<ServiceName, string>>;
  manifests: Partial<Record<ServiceName, ServiceManifest>>;
  emulators: Emulators;
  stop(): Promise<void>;
}

export async function startFronts(options: FrontsOptions = {}): Promise<Fronts> {
  const dir = tempDir('fronts-');
  const host = '127.0.0.1';
  const emulators = await startEmulators({
    dataDir: dir.path,
    persistDynamo: false,
    host,
    prefix: 'fronts-',
  });
  const env = typeof options.env === 'function' ? await options.env(emulators) : (options.env ?? {});
  Object.assign(
    process.env,
    { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
    emulators.env,
    { SPEECH_ENGINE: process.env.SPEECH_ENGINE ?? 'espeak' },
    env,
  );
  resetConfig();
  resetClients();

  const servers: Server[] = [];
  const urls: Fronts['urls'] = {};
  const manifests: Fronts['manifests'] = {};
  for (const service of options.services ?? (['narration', 'documents'] as const)) {
    const manifest = options.manifest ? options.manifest(MANIFESTS[service]) : MANIFESTS[service];
    const handlers: Record<string, LambdaHandler> = await loadHandlers(manifest);
    for (const route of manifest.routes) {
      const replacement = await options.override?.(route, service);
      if (replacement) handlers[route.id] = replacement;
    }
    const front = createFront({ manifest, handlers, host, port: 0, trustProxy: false, log: options.log });
    servers.push(front);
    urls[service] = await listen(front, host, 0);
    manifests[service] = manifest;
  }

  return {
    urls,
    manifests,
    emulators,
    async stop() {
      await Promise.all(
        servers.map(
          (s) =>
            new Promise<void>((r) => {
              s.close(() => r());
              s.closeAllConnections();
            }),
        ),
      );
      resetClients();
      await emulators.stop();
      dir.cleanup();
    },
  };
}
