// Parameters of the /pay routes: the zod schemas the handlers validate with (the service's validation shape) and
// GET /api documents. Kept apart from the handlers so the API description does not load Stripe. The schemas that
// name plans come per service (planSchemas); the plain exports are narration's.
import { z } from 'zod';
import type { PaidPlan } from '../auth/keys';
import { chars } from '../validation';
import { offeredPlans, type BillingCatalogue } from './catalogue';

export const EMAIL_MAX_CHARS = 200;
export const REF_MAX_CHARS = 120;
/** Checkout Session ids: `cs_test_…` / `cs_live_…`, letters, digits and underscores. */
export const SESSION_ID_PATTERN = '^cs_[A-Za-z0-9_]{1,250}$';

const trimmedOrUndefined = (v: unknown) => {
  if (typeof v !== 'string') return v;
  const t = v.trim();
  return t === '' ? undefined : t;
};

/** An e-mail address as Stripe accepts it, at most 200 characters. */
export const emailField = chars(1, EMAIL_MAX_CHARS).pipe(
  z.email({ message: 'value is not a valid email address' }),
);

export const CheckoutQuery = z.object({
  /** Prefills the e-mail on Stripe's page (the customer may change it there). */
  email: z.preprocess(trimmedOrUndefined, emailField.optional()),
  /** Attribution (e.g. an A/B reference `ab:<experiment>:<variant>[:<visitor>]`): kept on the purchase. */
  ref: z.preprocess(
    trimmedOrUndefined,
    chars(1, REF_MAX_CHARS)
      .refine((s) => !/\p{Cc}/u.test(s), { message: 'ref must not contain control characters' })
      .optional(),
  ),
});

export const SuccessQuery = z.object({
  session_id: z.preprocess(trimmedOrUndefined, z.string().regex(new RegExp(SESSION_ID_PATTERN))),
});

export const PortalQuery = z.object({
  email: z.preprocess(trimmedOrUndefined, emailField),
});

export const PortalResponse = z.object({ url: z.string().describe('Stripe customer portal session') });

/** The schemas that name a service's plans: the {plan} path parameter and the response bodies (documentation). */
export function planSchemas(plans: readonly [PaidPlan, ...PaidPlan[]]) {
  const plan = z.enum(plans);
  return {
    PlanParam: z.object({ plan }),
    CheckoutResponse: z.object({
      plan,
      url: z.string().describe('Stripe Checkout page; browsers get a 302 to it instead of this JSON'),
      expires_at: z.string().describe('ISO time after which the page no longer accepts payment'),
    }),
    SuccessResponse: z.object({
      plan,
      status: z.string().describe('active, trialing, past_due, canceled, unpaid, incomplete…'),
      paid_access: z.boolean(),
      key_prefix: z.string().describe('First characters of the key, to recognise it'),
      api_key: z.string().nullable().describe('The API key: in the first answer only, null afterwards'),
      message: z.string(),
    }),
    RotateResponse: z.object({
      api_key: z.string(),
      key_prefix: z.string(),
      revoked_key_prefix: z.string(),
      plan,
      status: z.string(),
      message: z.string(),
    }),
  };
}

export function catalogueSchemas(cat: BillingCatalogue): ReturnType<typeof planSchemas> {
  return planSchemas(offeredPlans(cat) as [PaidPlan, ...PaidPlan[]]);
}
