// GET /, GET /gracias, GET /panel and GET /site/{file}: the web pages (lambdas/narration/site/src, built into
// site/files.generated.ts by `npm run build:site`), served by one handler (site.ts); the platform's builder
// (lambdas/shared/http/page-routes.ts) makes the specs, routes.ts lists them.
import { siteRoutes } from '../../shared/http/page-routes';

export const SITE_ROUTES = siteRoutes({
  handler: 'lambdas/narration/handlers/site.ts',
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
