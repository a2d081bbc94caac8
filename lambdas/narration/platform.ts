// The surfaces both services serve, as narration's data for the platform's builders: its web pages and the
// $default route, GET /api, the /pay routes, the /v1/webhook routes and GET /stats. Each service declares in this one
// file what differs (pages, limits, catalogue, wording, docs); the builders (lambdas/shared/http/page-routes.ts,
// lambdas/shared/billing/routes.ts, lambdas/shared/webhooks/routes.ts) make the specs, the handler files named in
// them serve them (handlers/pages.ts, api.ts, billing.ts, webhooks.ts, stats.ts), routes.ts lists them. Not a
// route file of one handler (handlers/<name>.route.ts): the service's settings of the platform's surfaces.
import { billingRoutes } from '../shared/billing/routes';
import { apiRoutes, notFoundRoute, siteRoutes, statsRoute } from '../shared/http/page-routes';
import { webhookRoutes } from '../shared/webhooks/routes';
import { common } from './api/doc-parts';
import { ErrorDetail } from './api/schemas';
import { NARRATION_WEBHOOK_DOCS } from './api/webhooks-doc';
import { NARRATION_PAY } from './billing';

// GET /, GET /gracias, GET /panel and GET /site/{file}: the web pages (lambdas/narration/site/src, built into
// site/files.generated.ts by `npm run build:site`), served with the $default route by one handler (pages.ts); the platform's builder
// (lambdas/shared/http/page-routes.ts) makes the specs.
export const SITE_ROUTES = siteRoutes({
  handler: 'lambdas/narration/handlers/pages.ts',
  files: 'script, style sheet, image',
  csp: "Its CSP also allows the bucket's origin (media-src, connect-src: the embed player's audio and HLS segments).",
  pages: [
    {
      id: 'SitePage',
      path: '/',
      summary: 'Web site (Spanish): try, pricing, waitlist',
      description: 'The HTML page for people (es-MX).',
    },
    {
      // After paying: Stripe's success_url (NARRATION_PAY.pages); its script picks up the key from GET /pay/success.
      id: 'SiteThanks',
      path: '/gracias',
      summary: 'Web page after paying (Spanish): shows the API key once',
      description:
        "Stripe Checkout's success_url (`/gracias?session_id=cs_…`). Its script calls GET /pay/success with the " +
        'session id and shows the key once, with a copy button; GET /pay/success itself stays JSON.',
    },
    {
      id: 'SitePanel',
      path: '/panel',
      summary: 'Dashboard page (Spanish, read-only)',
      description:
        'A/B results, waitlist, statistics and recent failures for the team. The page itself is public; it asks ' +
        'for the dashboard token, keeps it in sessionStorage and sends it as `Authorization: Bearer` to ' +
        'GET /dashboard/summary and GET /ab/results/{experiment} (never in a URL).',
    },
  ],
});

// GET /api and GET /api/assets/{file} (the reference page's files), served by api.ts: the specs from the platform's
// builder (lambdas/shared/http/page-routes.ts) with this service's limits.
export const API_ROUTES = apiRoutes({
  handler: 'lambdas/narration/handlers/api.ts',
  memoryMb: 256,
  timeoutS: 5,
});

// GET /pay/checkout/{plan}, GET /pay/success, GET /pay/status, POST /pay/portal, POST /pay/webhook and
// POST /pay/keys/rotate: the platform's builder (lambdas/shared/billing/routes.ts) with narration's catalogue
// (../billing.ts), its error answers and its own words; served by one handler (billing.ts).
export const BILLING_ROUTES = billingRoutes({
  ...NARRATION_PAY,
  handler: 'lambdas/narration/handlers/billing.ts',
  errors: {
    invalid: common[422],
    unauthenticated: common[401],
    unavailable: common[503],
    detail: ErrorDetail,
  },
  // The prices GET /pay/status shows (planCatalogue).
  statusSettings: ['PRICE_PRO_CENTS', 'PRICE_LIFETIME_CENTS', 'PRICE_CURRENCY'],
  docs: {
    PayCheckout: {
      description:
        '`plan` is `pro` ($7/month subscription) or `lifetime` ($49 once); anything else is a 422. Optional `email` ' +
        '(prefilled) and `ref` (attribution, e.g. `ab:<experiment>:<variant>`). Browsers get a 302 to Stripe; clients ' +
        'sending `Accept: application/json` get 200 with the URL. 503 naming the variable when Stripe is not configured.',
      params: [
        { name: 'email', in: 'query', description: 'Prefilled e-mail (≤ 200)' },
        { name: 'ref', in: 'query', description: 'Attribution reference (≤ 120)' },
      ],
    },
    PaySuccess: { responses: { 404: { description: 'Unknown session', schema: ErrorDetail } } },
    PayStatus: {
      description:
        "With a Bearer key: the account's plan, status and paid access. Without: this IP's free-tier usage, limits " +
        'and reset times (docs/billing.md has the bodies).',
    },
    PayPortal: {
      description:
        "Cancel, change the card, see invoices. Requires the account's API key and its e-mail; without a key every " +
        'e-mail gets the same 401, so the endpoint never reveals who is a customer. Lost the key? Use the Stripe ' +
        'portal login link or ask support.',
    },
    PayWebhook: {
      summary: 'Stripe webhook',
      description:
        'Verifies `Stripe-Signature` on the raw body with the signing secret (400 on a bad signature). Handles ' +
        'checkout.session.completed (account + new key), customer.subscription.updated/deleted (deleted revokes paid ' +
        'access: keys then get 402 pointing to the portal). Idempotent per event id; older events never overwrite newer state.',
      responses: { 200: { description: '`{"received": true}` (also for replays and ignored event types)' } },
    },
    PayKeysRotate: {
      description:
        'Issues a new key for the same account and revokes the one sent; the new key is shown once.',
    },
  },
});

// PUT/GET/DELETE /v1/webhook and POST /v1/webhook/rotate-secret: narration's completion webhooks, specs from the
// platform's builder (lambdas/shared/webhooks/routes.ts) with narration's reference (../api/webhooks-doc.ts); served
// by one handler (webhooks.ts); routes.ts lists them next to the delivery queue and worker.
export const WEBHOOK_ROUTES = webhookRoutes({
  handler: 'lambdas/narration/handlers/webhooks.ts',
  docs: NARRATION_WEBHOOK_DOCS.routes,
});

// ANY $default: the platform's spec (lambdas/shared/http/page-routes.ts), served by the pages' file (pages.ts).
export const NOT_FOUND_ROUTE = notFoundRoute('lambdas/narration/handlers/pages.ts');

// GET /stats: public counters (the growth table's counter items, no scans): the platform's spec
// (lambdas/shared/http/page-routes.ts), served by stats.ts.
export const STATS_ROUTE = statsRoute({
  id: 'Stats',
  handler: 'lambdas/narration/handlers/stats.ts',
  tag: 'growth',
  description:
    'Counters, not scans: conversions, characters and seconds narrated, waitlist size. Cached 60 s.',
  response: { description: 'Statistics (docs/growth.md)' },
});
