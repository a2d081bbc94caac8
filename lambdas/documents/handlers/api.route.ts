// GET /api and GET /api/assets/{file} (the reference page's files), served by api.ts: the specs from the platform's
// builder (lambdas/shared/http/page-routes.ts) with this service's limits; routes.ts lists them.
import { apiRoutes } from '../../shared/http/page-routes';

export const API_ROUTES = apiRoutes({
  handler: 'lambdas/documents/handlers/api.ts',
  // Image: the description includes POST /v1/render's own request schema, whose module loads the template
  // sandbox (isolated-vm), which only the image carries.
  packaging: 'image',
  memoryMb: 512,
  timeoutS: 10,
});
