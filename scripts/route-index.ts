// Writes lambdas/<service>/route-index.generated.ts from the service's manifest: the method and path of every route,
// data only, for the `$default` route (404/405/CORS), whose bundle must not load the route specs and their zod schemas.
// test/unit/route-index.test.ts fails when a file is stale: `npx tsx scripts/route-index.ts` rewrites them.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { documentsManifest } from '../lambdas/documents/routes';
import { narrationManifest } from '../lambdas/narration/routes';
import type { ServiceManifest } from '../lambdas/shared/manifest';

export const MANIFESTS = [narrationManifest, documentsManifest];

export const routeIndexPath = (m: ServiceManifest) =>
  join(__dirname, '..', 'lambdas', m.service, 'route-index.generated.ts');

export function routeIndexSource(m: ServiceManifest): string {
  const rows = m.routes.filter((r) => r.path !== '$default').map((r) => `  ['${r.method}', '${r.path}'],\n`);
  return (
    `// Generated from routes.ts by scripts/route-index.ts (do not edit): what the $default route answers 405 for.\n` +
    `import type { RouteIndex } from '../shared/http/not-found';\n\n` +
    `export const ROUTE_INDEX: RouteIndex = [\n${rows.join('')}];\n`
  );
}

if (require.main === module) for (const m of MANIFESTS) writeFileSync(routeIndexPath(m), routeIndexSource(m));
