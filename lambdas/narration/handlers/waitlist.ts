// POST /waitlist — join the waitlist. JSON or form-urlencoded body {email, source?, interest?} (WaitlistReq).
// 200 {"status":"registered","position":N} for a new email; 200 {"status":"already_registered"} when the
// (trimmed, lower-cased) email is already on the list — nothing is counted twice and the first sign-up's source
// and interest are kept. A `source` of the form ab:<experiment>:<variant>[:<visitor>] also counts as an A/B
// conversion. Per-IP limit (WAITLIST_PER_HOUR / WAITLIST_PER_DAY) → 429 with Retry-After. See docs/growth.md.
import { z } from 'zod';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { chars, validate } from '../../shared/http/validation';
import { chargePerIp, waitlistSubject } from '../../shared/growth/limits';
import { joinWaitlist, normaliseEmail } from '../../shared/growth/waitlist';
import { awsDeps, type NarrationDeps } from '../deps';
import { narrationManifest } from '../routes';

export const EMAIL_MAX_CHARS = 200;
export const SOURCE_MAX_CHARS = 120;
export const INTEREST_PATTERN = '^(pro|lifetime)$';
/** 200 + 120 characters, each escaped as up to 12 bytes of JSON, plus field names: well under 8 KiB. */
export const MAX_BODY_BYTES = 8 * 1024;

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

const route = narrationManifest.routes.find((r) => r.id === 'Waitlist');

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const body = validate(WaitlistReq, req.body());
      const now = deps.now();
      const limits = await chargePerIp(
        deps.quotas,
        waitlistSubject(req.clientIp),
        [
          { period: 'hour', limit: deps.config.WAITLIST_PER_HOUR },
          { period: 'day', limit: deps.config.WAITLIST_PER_DAY },
        ],
        now,
        'waitlist sign-ups',
      );
      const out = await joinWaitlist(
        deps.growth,
        {
          email: body.email,
          ...(body.source !== undefined ? { source: body.source } : {}),
          ...(body.interest !== undefined ? { interest: body.interest as 'pro' | 'lifetime' } : {}),
        },
        now,
        deps.config.AB_EXPERIMENTS,
      );
      const result =
        out.status === 'registered' ? { status: out.status, position: out.position } : { status: out.status };
      return json(200, result, { ...limits, 'cache-control': 'no-store' });
    },
    { maxBodyBytes: route?.maxBodyBytes ?? MAX_BODY_BYTES },
  );

export const handler = makeHandler(awsDeps());
