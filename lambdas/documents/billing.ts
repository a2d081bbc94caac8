// How the documents service's /pay routes differ from narration's (the routes themselves are one implementation,
// lambdas/shared/billing/handlers.ts): it sells pro, scale and lifetime with its own Stripe prices, webhook secret
// and public address (DOCUMENTS_BILLING, DOCS_* settings); invalid requests are 400 in the house list shape
// `{"detail": [{loc, msg, type}]}` like POST /v1/render; and it runs no A/B experiments, so a purchase's `ref` is only
// kept on the purchase.
import { stripeCatalogue, type BillingCatalogue, type StringSetting } from '../shared/billing/catalogue';
import type { PayRoutes } from '../shared/billing/routes';
import type { Config } from './config';

export const DOCUMENTS_BILLING: BillingCatalogue<StringSetting<Config>> = stripeCatalogue(
  'documents',
  'DOCS_',
  ['pro', 'scale', 'lifetime'],
);

export const DOCUMENTS_PAY: PayRoutes = {
  catalogue: DOCUMENTS_BILLING,
  invalidStatus: 400,
  abAttribution: false,
};
