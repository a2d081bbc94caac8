// How the documents service's /pay routes differ from narration's (the routes themselves are one implementation,
// lambdas/shared/billing/handlers.ts): it sells pro, scale and lifetime with its own Stripe prices, webhook secret
// and public address (DOCUMENTS_BILLING, DOCS_* settings); invalid requests are 400 in the house list shape
// `{"detail": [{loc, msg, type}]}` like POST /v1/render; and it runs no A/B experiments, so a purchase's `ref` is only
// kept on the purchase.
import type { BillingCatalogue, StringSetting } from '../shared/billing/catalogue';
import type { PayRoutes } from '../shared/billing/handlers';
import { RequestValidationError } from '../shared/http/errors';
import { validate } from '../shared/http/validation';
import type { Config } from './config';
import { DocumentRequestError } from './errors';
import type { z } from 'zod';

export const DOCUMENTS_BILLING: BillingCatalogue<StringSetting<Config>> = {
  service: 'documents',
  offers: [
    { plan: 'pro', priceSetting: 'DOCS_STRIPE_PRICE_PRO' },
    { plan: 'scale', priceSetting: 'DOCS_STRIPE_PRICE_SCALE' },
    { plan: 'lifetime', priceSetting: 'DOCS_STRIPE_PRICE_LIFETIME' },
  ],
  settings: {
    webhookSecret: 'DOCS_STRIPE_WEBHOOK_SECRET',
    publicBaseUrl: 'DOCS_PUBLIC_BASE_URL',
    returnUrl: 'DOCS_BILLING_RETURN_URL',
  },
};

/** The shared validation with this service's status: 400 instead of narration's 422, same items. */
export function validate400<S extends z.ZodType>(
  schema: S,
  input: unknown,
  loc: (string | number)[],
): z.output<S> {
  try {
    return validate(schema, input, loc);
  } catch (err) {
    if (err instanceof RequestValidationError && !(err instanceof DocumentRequestError))
      throw new DocumentRequestError(err.items);
    throw err;
  }
}

export const DOCUMENTS_PAY: PayRoutes = {
  catalogue: DOCUMENTS_BILLING,
  validate: validate400,
  abAttribution: false,
};
