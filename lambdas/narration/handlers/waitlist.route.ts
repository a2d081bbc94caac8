// POST /waitlist: the route's spec, next to its handler (waitlist.ts reads its limits here); routes.ts lists it.
import { z, z as zod } from 'zod';
import { normaliseEmail } from '../../shared/growth/waitlist';
import { chars } from '../../shared/validation';
import { GROWTH_FORM_ACCESS, publicPost } from '../api/doc-parts';
// The request body (validated by the handler; /api documents it).
export const EMAIL_MAX_CHARS = 200;
export const SOURCE_MAX_CHARS = 120;
export const INTEREST_PATTERN = '^(pro|lifetime)$';

/** zod's own address check (ASCII local part, dotted domain with a 2+ letter TLD); see docs/growth.md. */
const EMAIL = z.regexes.email;

const trimmed = (v: unknown) => (typeof v === 'string' ? v.trim() : v);
const absentIfEmpty = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

const emailField = z.preprocess(
  trimmed,
  z
    .string()
    .superRefine((s, ctx) => {
      if ([...s].length > EMAIL_MAX_CHARS)
        ctx.addIssue({
          code: 'too_big',
          origin: 'string',
          maximum: EMAIL_MAX_CHARS,
          inclusive: true,
          input: s,
          message: '',
        });
      else if (!EMAIL.test(s))
        ctx.addIssue({
          code: 'custom',
          input: s,
          message: 'value is not a valid email address: write it as name@example.com',
          params: { type: 'value_error' },
        });
    })
    .transform(normaliseEmail)
    // What /api shows (the checks above are custom, so JSON Schema cannot infer them).
    .meta({ format: 'email', maxLength: EMAIL_MAX_CHARS }),
);

const interestField = z
  .string()
  .superRefine((s, ctx) => {
    if (!new RegExp(INTEREST_PATTERN).test(s))
      ctx.addIssue({
        code: 'invalid_format',
        format: 'regex',
        pattern: INTEREST_PATTERN,
        input: s,
        message: '',
      } as Parameters<typeof ctx.addIssue>[0]);
  })
  .meta({ pattern: INTEREST_PATTERN });

export const WaitlistReq = z.object({
  email: emailField,
  source: z.preprocess((v) => trimmed(absentIfEmpty(v)), chars(1, SOURCE_MAX_CHARS).optional()),
  interest: z.preprocess(absentIfEmpty, interestField.optional()),
});

export const waitlistRoute = publicPost({
  id: 'Waitlist',
  path: '/waitlist',
  handler: 'lambdas/narration/handlers/waitlist.ts',
  // 200 + 120 characters, each escaped as up to 12 bytes of JSON, plus field names: well under 8 KiB.
  maxBodyBytes: 8 * 1024,
  access: GROWTH_FORM_ACCESS,
  docs: {
    summary: 'Join the waitlist',
    tags: ['growth'],
    description:
      'One entry per e-mail (trimmed, lower-cased). A `source` of the form `ab:<experiment>:<variant>[:<visitor>]` ' +
      'also counts as a conversion of that experiment. Per IP: 10 sign-ups per hour, 50 per day.',
    body: {
      schema: WaitlistReq,
      example: { email: 'ana.lopez@ejemplo.mx', source: 'docs', interest: 'pro' },
    },
    responses: {
      200: {
        description: '`{"status":"registered","position":N}` or `{"status":"already_registered"}`',
        schema: zod.object({
          status: zod.enum(['registered', 'already_registered']),
          position: zod.int().optional(),
        }),
      },
    },
  },
});
