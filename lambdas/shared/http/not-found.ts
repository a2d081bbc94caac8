// The `$default` route of a service: anything its manifest does not route. 405 (with Allow) for a known path with
// another method, 204 for CORS preflights of known paths, else 404 — all as `{"detail": ...}`.
import type { ServiceManifest } from '../manifest';
import { apiHandler, CORS_HEADERS } from './api-handler';
import { HttpError, NotFoundError } from './errors';
import { matchPath } from './paths';

export function makeNotFoundHandler(manifest: ServiceManifest) {
  const routes = manifest.routes.filter((r) => r.path !== '$default');
  return apiHandler(async (req) => {
    const allowed = routes.filter((r) => matchPath(r.path, req.path)).map((r) => r.method);
    if (allowed.length === 0) throw new NotFoundError('Not Found');
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
