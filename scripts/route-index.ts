// Writes the route indexes from the services' manifests: the method and path of every route, data only, for the
// `$default` route (404/405/CORS), whose bundle must not load the route specs and their zod schemas. The routes
// every service serves alike (the platform's surfaces: /pay, /api, /stats, webhooks, the site) are written once,
// lambdas/shared/http/route-index.generated.ts; each service's own, lambdas/<service>/route-index.generated.ts.
// test/unit/route-index.test.ts fails when a file is stale: `npx tsx scripts/route-index.ts` rewrites them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentsManifest } from '../lambdas/documents/routes';
import { narrationManifest } from '../lambdas/narration/routes';
import type { ServiceManifest } from '../lambdas/shared/manifest';

export const MANIFESTS = [narrationManifest, documentsManifest];

const LAMBDAS = join(__dirname, '..', 'lambdas');
export const routeIndexPath = (m: ServiceManifest) => join(LAMBDAS, m.service, 'route-index.generated.ts');
export const SHARED_INDEX_PATH = join(LAMBDAS, 'shared', 'http', 'route-index.generated.ts');

const rowsOf = (m: ServiceManifest) =>
  m.routes.filter((r) => r.path !== '$default').map((r) => `  ['${r.method}', '${r.path}'],\n`);
/** The rows in every manifest, in the first one's order. */
const sharedRows = () => MANIFESTS.map(rowsOf).reduce((a, b) => a.filter((row) => b.includes(row)));

const source = (what: string, from: string, name: string, rows: string[]) =>
  `// Generated from ${from} by scripts/route-index.ts (do not edit): ${what}.\n` +
  `import type { RouteIndex } from '${from === 'routes.ts' ? '../shared/http/not-found' : './not-found'}';\n\n` +
  `export const ${name}: RouteIndex = [\n${rows.join('')}];\n`;

export function routeIndexSource(m: ServiceManifest): string {
  const shared = sharedRows();
  const own = rowsOf(m).filter((row) => !shared.includes(row));
  return source(
    "what the $default route answers 405 for, with the shared ones (shared/http's index)",
    'routes.ts',
    'ROUTE_INDEX',
    own,
  );
}

export function sharedRouteIndexSource(): string {
  return source(
    'the routes every service serves alike',
    "the services' routes.ts",
    'SHARED_ROUTE_INDEX',
    sharedRows(),
  );
}

if (require.main === module) {
  for (const m of MANIFESTS) writeFileSync(routeIndexPath(m), routeIndexSource(m));
  writeFileSync(SHARED_INDEX_PATH, sharedRouteIndexSource());
}
