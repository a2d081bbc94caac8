// $default route: anything the manifest does not route. 405 (with Allow) for a known path with another method,
// 204 for CORS preflights of known paths, else 404 — all in the contract's {"detail": ...} shape.
import { apiHandler, CORS_HEADERS } from '../../shared/http/api-handler';
import { HttpError, NotFoundError } from '../../shared/http/errors';
import { matchPath } from '../../shared/http/paths';
import { narrationManifest } from '../routes';

const routes = narrationManifest.routes.filter((r) => r.path !== '$default');

export const makeHandler = () =>
  apiHandler(async (req) => {
    const allowed = routes.filter((r) => matchPath(r.path, req.path)).map((r) => r.method);
    if (allowed.length === 0) throw new NotFoundError('Not Found');
    const allow = [...new Set([...allowed, 'OPTIONS'])].join(', ');
    if (req.method === 'OPTIONS')
      return {
        statusCode: 204,
        headers: {
          ...CORS_HEADERS,
          'access-control-allow-methods': allow,
          'access-control-allow-headers': 'authorization, content-type, x-dashboard-token',
          'access-control-max-age': '86400',
        },
        body: '',
      };
    throw new HttpError(405, 'Method Not Allowed', { allow });
  });

export const handler = makeHandler();
