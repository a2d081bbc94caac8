// PUT/GET/DELETE /v1/webhook and POST /v1/webhook/rotate-secret: Scale webhooks, specs from the platform's builder
// (lambdas/shared/webhooks/routes.ts) with the documents reference (../api/webhooks-doc.ts); served by one handler
// (webhooks.ts); routes.ts lists them next to the delivery queue and worker.
import { webhookRoutes } from '../../shared/webhooks/routes';
import { DOCUMENTS_WEBHOOK_DOCS } from '../api/webhooks-doc';

export const WEBHOOK_ROUTES = webhookRoutes({
  handler: 'lambdas/documents/handlers/webhooks.ts',
  docs: DOCUMENTS_WEBHOOK_DOCS.routes,
});
