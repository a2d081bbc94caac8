// The `$default` route of a service: anything its manifest does not route. 405 (with Allow) for a known path with
// another method, 204 for CORS preflights of known paths, else 404 — all as `{"detail": ...}`. It reads the
// service's route index (data only), not the manifest, whose specs would bring their zod schemas into this bundle.
import { apiHandler, CORS_HEADERS } from './api-handler';
import { NotFound } from '../errors';
import { HttpError } from './errors';
import { matchPath } from './paths';

/** Method and path of each route: lambdas/<service>/route-index.generated.ts, generated from the manifest. */
export type RouteIndex = readonly (readonly [method: string, path: string])[];

export function makeNotFoundHandler(routes: RouteIndex) {
  return apiHandler(async (req) => {
    const allowed = routes.filter(([, path]) => matchPath(path, req.path)).map(([method]) => method);
    if (allowed.length === 0) throw new NotFound();
    const allow = [...new Set([...allowed, 'OPTIONS'])].join(', ');
    if (req.method === 'OPTIONS')
      return {
        statusCode: 204,
        headers: {
          ...CORS_HEADERS,
          'access-control-allow-methods': allow,
          'access-control-allow-headers':
            'authorization, content-type, x-dashboard-token, stripe-signature, idempotency-key',
          'access-control-max-age': '86400',
        },
        body: '',
      };
    throw new HttpError(405, 'Method Not Allowed', { allow });
  });
}
