// GET /, GET /gracias and GET /site/{file}: the web pages (lambdas/narration/site/src, built into site/files.generated.ts by
// `npm run build:site`), served by one handler (site.ts); routes.ts lists both specs.
import type { RouteSpec } from '../../shared/manifest';

export const sitePageRoute = {
  id: 'SitePage',
  method: 'GET',
  path: '/',
  handler: 'lambdas/narration/handlers/site.ts',
  memoryMb: 256,
  timeoutS: 3,
  access: {},
  docs: {
    summary: 'Web site (Spanish): try, pricing, waitlist',
    tags: ['meta'],
    description:
      'The HTML page for people (es-MX). Strict Content-Security-Policy (own scripts and styles only), HSTS, ' +
      'no framing; weak ETag (304 on If-None-Match); brotli/gzip per Accept-Encoding.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
} satisfies RouteSpec;

export const siteFileRoute = {
  ...sitePageRoute,
  id: 'SiteFile',
  path: '/site/{file}',
  docs: {
    summary: 'A file of the web site (script, style sheet, image)',
    tags: ['meta'],
    description: 'The files the pages load, by name; unknown names → 404 `{"detail": ...}`.',
    responses: {
      200: { description: 'The file' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
      404: { description: 'No such file' },
    },
  },
} satisfies RouteSpec;

/** After paying: Stripe's success_url (NARRATION_PAY.pages); its script picks up the key from GET /pay/success. */
export const siteThanksRoute = {
  ...sitePageRoute,
  id: 'SiteThanks',
  path: '/gracias',
  docs: {
    summary: 'Web page after paying (Spanish): shows the API key once',
    tags: ['meta'],
    description:
      "Stripe Checkout's success_url (`/gracias?session_id=cs_…`). Its script calls GET /pay/success with the " +
      'session id and shows the key once, with a copy button; GET /pay/success itself stays JSON. Same headers as /.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
} satisfies RouteSpec;

/** The read-only dashboard (panel.html; its data needs the dashboard token, asked for on the page). */
export const sitePanelRoute = {
  ...sitePageRoute,
  id: 'SitePanel',
  path: '/panel',
  docs: {
    summary: 'Dashboard page (Spanish, read-only)',
    tags: ['meta'],
    description:
      'A/B results, waitlist, statistics and recent failures for the team. The page itself is public; it asks for ' +
      'the dashboard token, keeps it in sessionStorage and sends it as `Authorization: Bearer` to ' +
      'GET /dashboard/summary and GET /ab/results/{experiment} (never in a URL). Same headers as `/`.',
    responses: {
      200: { description: 'The page', contentType: 'text/html' },
      304: { description: 'Not modified: If-None-Match matched the ETag' },
    },
  },
} satisfies RouteSpec;
