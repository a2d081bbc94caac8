// Response shapes of the documents API for its description (GET /api). The request schemas are the handlers' own
// (handlers/render.route.ts, shared/billing/requests.ts); test/unit/documents-openapi.test.ts checks that what the
// handlers answer parses with these, so the description cannot drift from the answers.
import { z } from 'zod';
import { FORMATS } from '../core/formats';

export const ValidationError = z.strictObject({
  detail: z.array(
    z.object({
      loc: z
        .array(z.union([z.string(), z.int()]))
        .meta({ description: 'Where: ["body", "data", "items", 0, "precio"], ["query", "email"]…' }),
      msg: z.string(),
      type: z
        .string()
        .meta({ description: 'missing, unknown_template, unsupported_format, template_syntax_error…' }),
      ctx: z
        .record(z.string(), z.unknown())
        .optional()
        .meta({ description: 'Extra facts: `allowed` values, template `line` and `column`' }),
    }),
  ),
});

export { ErrorDetail } from '../../shared/http/openapi';

export const LapsedKey = z.object({
  detail: z
    .string()
    .meta({ description: 'Why, and the ways out: POST /pay/portal, GET /pay/checkout/{plan}' }),
  plan: z.enum(['pro', 'scale', 'lifetime']),
  status: z.string().meta({ description: "Stripe's subscription status: canceled, unpaid, incomplete…" }),
});

export const Binary = z.string().meta({ format: 'binary' });

export const TemplateListing = z.looseObject({
  slug: z.string().meta({ example: 'factura' }),
  title: z.string().meta({ description: 'Short Spanish name' }),
  purpose: z.string(),
  formats: z.array(z.enum(FORMATS)).meta({ description: 'What `format` may be with this template' }),
  page: z.object({
    size: z.string(),
    landscape: z.boolean(),
    margin: z.string(),
  }),
  fields: z
    .record(z.string(), z.unknown())
    .meta({ description: 'JSON Schema (draft 2020-12) of `data`, generated from the validation schema' }),
  sample: z.unknown().meta({ description: 'Sample `data` (validates; used for sample.pdf)' }),
  source_url: z.string().meta({ description: '/templates/{slug}/source' }),
  sample_pdf_url: z.string().meta({ description: '/templates/{slug}/sample.pdf' }),
});

export const TemplatesResponse = z.strictObject({
  templates: z.array(TemplateListing),
  partials: z
    .array(z.string())
    .meta({ description: 'Built-in partials custom_html may include, import or extend' }),
  custom_html_formats: z.array(z.enum(FORMATS)),
});

export const PlanView = z.strictObject({
  id: z.enum(['free', 'pro', 'scale', 'lifetime']),
  name: z.string(),
  price_usd: z.number(),
  billing: z.enum(['free', 'monthly', 'once']),
  documents_per_month: z.int(),
  scope: z.enum(['ip', 'account']),
  features: z.array(z.string()),
  checkout: z
    .string()
    .nullable()
    .meta({ description: 'GET path that buys the plan (/pay/checkout/{plan}); null for free' }),
});

export const PricingResponse = z.strictObject({
  currency: z.literal('USD'),
  quota_reset: z.string(),
  plans: z.array(PlanView),
});

export const StatsResponse = z.strictObject({
  documents_rendered: z.int().meta({ description: 'Documents delivered since launch (counter)' }),
  by_format: z.record(z.enum(FORMATS), z.int()),
  templates: z.int(),
  formats: z.int(),
});

const UsageWindow = z.strictObject({
  period: z.literal('month'),
  limit: z.int(),
  used: z.int(),
  remaining: z.int(),
  reset_at: z.string().meta({ description: '00:00 UTC on the 1st of next month (ISO 8601)' }),
  reset_in_s: z.int(),
});

export const PayStatusResponse = z.strictObject({
  plan: z.enum(['free', 'pro', 'scale', 'lifetime']),
  status: z
    .string()
    .meta({ description: '`free`, or the subscription status (active, past_due, canceled…)' }),
  paid_access: z.boolean(),
  key_prefix: z.string().nullable(),
  account: z
    .strictObject({
      email: z.string().nullable(),
      since: z.string(),
      current_period_end: z.string().nullable(),
      cancel_at_period_end: z.boolean(),
      manage: z.string(),
    })
    .nullable(),
  usage: z.strictObject({ limited: z.boolean(), windows: z.array(UsageWindow) }),
  plans: z.array(PlanView),
});

export const WebhookAck = z.strictObject({
  received: z.literal(true),
  event_id: z.string(),
  type: z.string(),
  outcome: z.enum(['processed', 'duplicate', 'ignored', 'stale', 'awaiting_payment']),
});
