// The surfaces both services serve, as the documents service's data for the platform's builders: its web pages and the
// $default route, GET /api, the /pay routes, the /v1/webhook routes and GET /stats. Each service declares in this one
// file what differs (pages, limits, catalogue, wording, docs); the builders (lambdas/shared/http/page-routes.ts,
// lambdas/shared/billing/routes.ts, lambdas/shared/webhooks/routes.ts) make the specs, the handler files named in
// them serve them (handlers/pages.ts, api.ts, billing.ts, webhooks.ts, document-stats.ts), routes.ts lists them. Not a
// route file of one handler (handlers/<name>.route.ts): the service's settings of the platform's surfaces.
import { billingRoutes } from '../shared/billing/routes';
import { apiRoutes, notFoundRoute, siteRoutes, statsRoute } from '../shared/http/page-routes';
import { webhookRoutes } from '../shared/webhooks/routes';
import { common, invalid400 } from './api/doc-parts';
import { ErrorDetail, PayStatusResponse, StatsResponse, WebhookAck } from './api/schemas';
import { DOCUMENTS_WEBHOOK_DOCS } from './api/webhooks-doc';
import { DOCUMENTS_PAY } from './billing';

// GET / and GET /site/{file}: the documents playground (lambdas/documents/site/src, built into
// site/files.generated.ts by `npm run build:site`), served with the $default route by one handler (pages.ts); the platform's builder
// (lambdas/shared/http/page-routes.ts) makes the specs.
export const SITE_ROUTES = siteRoutes({
  handler: 'lambdas/documents/handlers/pages.ts',
  files: 'script, style sheet',
  csp: 'Its CSP also allows `frame-src blob:` for the PDF preview.',
  pages: [
    {
      id: 'SitePage',
      path: '/',
      summary: 'Playground (Spanish): try the templates in the browser',
      description:
        'The HTML page for people (es-MX): pick a template, edit its sample data (checked as you type against ' +
        "the template's JSON Schema from GET /templates), pick a format and render through POST /v1/render (PDF " +
        'and PNG previewed, everything downloadable); a custom_html tab for paid keys.',
    },
  ],
});

// GET /api and GET /api/assets/{file} (the reference page's files), served by api.ts: the specs from the platform's
// builder (lambdas/shared/http/page-routes.ts) with this service's limits.
export const API_ROUTES = apiRoutes({
  handler: 'lambdas/documents/handlers/api.ts',
  // Image: the description includes POST /v1/render's own request schema, whose module loads the template
  // sandbox (isolated-vm), which only the image carries.
  packaging: 'image',
  memoryMb: 512,
  timeoutS: 10,
});

// GET /pay/checkout/{plan}, GET /pay/success, GET /pay/status, POST /pay/portal, POST /pay/webhook and
// POST /pay/keys/rotate: the platform's builder (lambdas/shared/billing/routes.ts) with the documents catalogue
// (../billing.ts), its 400 answers and its own words; served by one handler (billing.ts).
export const BILLING_ROUTES = billingRoutes({
  ...DOCUMENTS_PAY,
  handler: 'lambdas/documents/handlers/billing.ts',
  errors: {
    invalid: invalid400,
    unauthenticated: common[401],
    unavailable: common[503],
    detail: ErrorDetail,
  },
  docs: {
    PayCheckout: {
      description:
        '`plan` is `pro` ($9/month) or `scale` ($29/month), both subscriptions, or `lifetime` ($49 once); anything ' +
        'else is a 400. Browsers get a 302 to Stripe; clients sending `Accept: application/json` get 200 with the ' +
        'URL. After paying, Stripe sends the buyer to GET /pay/success, which shows the API key once.',
    },
    PaySuccess: {
      responses: {
        404: { description: 'Unknown session, or not a purchase of this API', schema: ErrorDetail },
        409: { description: 'Checkout not completed, or payment still pending', schema: ErrorDetail },
      },
    },
    PayStatus: {
      summary: 'Plan, status and this month’s usage',
      description:
        "With a Bearer key: the key's plan, billing status, paid access, account and this month's usage of the " +
        "plan's allowance (a lapsed key is answered too). Without: this IP's free-tier usage. Both list the plans.",
      responses: { 200: { description: 'Status', schema: PayStatusResponse } },
    },
    PayPortal: {
      responses: {
        403: { description: "The e-mail is not the key's account's", schema: ErrorDetail },
        409: {
          description: 'The key has no billing account (issued by an administrator)',
          schema: ErrorDetail,
        },
      },
    },
    PayWebhook: {
      responses: {
        200: { description: 'Acknowledged (also replays and ignored events)', schema: WebhookAck },
        409: {
          description: 'Another delivery of the event is in progress; Stripe retries',
          schema: ErrorDetail,
        },
      },
    },
    PayKeysRotate: {
      responses: { 409: { description: 'Not a purchased key, or already rotated', schema: ErrorDetail } },
    },
  },
});

// PUT/GET/DELETE /v1/webhook and POST /v1/webhook/rotate-secret: Scale webhooks, specs from the platform's builder
// (lambdas/shared/webhooks/routes.ts) with the documents reference (../api/webhooks-doc.ts); served by one handler
// (webhooks.ts); routes.ts lists them next to the delivery queue and worker.
export const WEBHOOK_ROUTES = webhookRoutes({
  handler: 'lambdas/documents/handlers/webhooks.ts',
  docs: DOCUMENTS_WEBHOOK_DOCS.routes,
});

// ANY $default: the platform's spec (lambdas/shared/http/page-routes.ts), served by the pages' file (pages.ts).
export const NOT_FOUND_ROUTE = notFoundRoute('lambdas/documents/handlers/pages.ts');

// GET /stats: public counters (the growth table's counter items, no scans): the platform's spec
// (lambdas/shared/http/page-routes.ts), served by document-stats.ts.
export const DOCUMENT_STATS_ROUTE = statsRoute({
  id: 'DocumentStats',
  handler: 'lambdas/documents/handlers/document-stats.ts',
  tag: 'meta',
  description: 'Counters, not scans: documents delivered, by format. Cached 60 s.',
  response: { description: 'Statistics', schema: StatsResponse },
});
