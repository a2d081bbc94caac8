// POST /waitlist — join the waitlist. JSON or form-urlencoded body {email, source?, interest?} (WaitlistReq).
// 200 {"status":"registered","position":N} for a new email; 200 {"status":"already_registered"} when the
// (trimmed, lower-cased) email is already on the list — nothing is counted twice and the first sign-up's source
// and interest are kept. A `source` of the form ab:<experiment>:<variant>[:<visitor>] also counts as an A/B
// conversion. Per-IP limit (WAITLIST_PER_HOUR / WAITLIST_PER_DAY) → 429 with Retry-After. See docs/growth.md.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { chargePerIp, WAITLIST_SIGN_UPS } from '../../shared/growth/limits';
import { joinWaitlist } from '../../shared/growth/waitlist';
import { awsDeps, type NarrationDeps } from '../deps';
import { waitlistRoute as route, WaitlistReq } from './waitlist.route';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const body = validate(WaitlistReq, req.body());
      const now = deps.now();
      const { WAITLIST_PER_HOUR: hour, WAITLIST_PER_DAY: day } = deps.config;
      const limits = await chargePerIp(deps.quotas, WAITLIST_SIGN_UPS, req.clientIp, { hour, day }, now);
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
    { maxBodyBytes: route.maxBodyBytes },
  );

export const handler = makeHandler(awsDeps());
