// GET /api and GET /api/assets/{file} (the reference page's files), served by api.ts: the specs from the platform's
// builder (lambdas/shared/http/page-routes.ts) with this service's limits; routes.ts lists them.
import { apiRoutes } from '../../shared/http/page-routes';

export const API_ROUTES = apiRoutes({
  handler: 'lambdas/narration/handlers/api.ts',
  memoryMb: 256,
  timeoutS: 5,
});
