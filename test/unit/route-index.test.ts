// Each service's route index (what its $default route answers 405/204 for) is generated from its manifest: a stale
// file fails here (rewrite with `npx tsx scripts/route-index.ts`), and the $default handler's bundle stays data only.
import { readFileSync } from 'node:fs';
import { build } from 'esbuild';
import {
  MANIFESTS,
  routeIndexPath,
  routeIndexSource,
  SHARED_INDEX_PATH,
  sharedRouteIndexSource,
} from '../../scripts/route-index';

test.each(MANIFESTS.map((m) => [m.service, m] as const))(
  '%s: route-index.generated.ts matches routes.ts',
  (_, m) => {
    expect(readFileSync(routeIndexPath(m), 'utf8')).toBe(routeIndexSource(m));
  },
);

test('the shared route index (the routes every service serves alike) matches the routes.ts files', () => {
  expect(readFileSync(SHARED_INDEX_PATH, 'utf8')).toBe(sharedRouteIndexSource());
});

test.each(MANIFESTS.map((m) => [m.service] as const))(
  '%s: the pages file (the $default handler) bundles neither the specs nor zod',
  async (service) => {
    const out = await build({
      entryPoints: [`lambdas/${service}/handlers/pages.ts`],
      bundle: true,
      platform: 'node',
      write: false,
      metafile: true,
      outfile: 'nf.js',
    });
    const inputs = Object.keys(out.metafile.inputs);
    expect(inputs.filter((i) => /\.route\.ts$|\/routes\.ts$|node_modules\/zod\//.test(i))).toEqual([]);
  },
);
