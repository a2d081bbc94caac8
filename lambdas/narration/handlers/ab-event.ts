// POST /ab/event — public, per-IP rate-limited A/B event: {experiment, visitor, type: exposure|conversion,
// variant?} as JSON or form-urlencoded (navigator.sendBeacon with URLSearchParams sends the latter). The variant
// is the visitor's deterministic assignment; when sent it must match (422 otherwise). Exposures count once per
// visitor per experiment (reloads don't inflate them), conversions once per visitor; a conversion also counts a
// missing exposure. 200 {"status":"recorded"|"duplicate", experiment, variant, type}; 404 unknown experiment;
// 429 with Retry-After and RateLimit-* past AB_EVENTS_PER_HOUR / AB_EVENTS_PER_DAY per IP. See docs/growth.md.
import { apiHandler } from '../../shared/http/api-handler';
import { invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { recordAbConversion, recordExposure } from '../../shared/growth/ab';
import { assignVariant } from '../../shared/growth/experiments';
import { findExperiment } from '../../shared/growth/http';
import { AB_EVENTS, chargePerIp } from '../../shared/growth/limits';
import { awsDeps, type NarrationDeps } from '../deps';
import { abEventRoute as route, AbEventReq } from './ab-event.route';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(
    async (req) => {
      const body = validate(AbEventReq, req.body());
      const experiment = findExperiment(deps.config.AB_EXPERIMENTS, body.experiment);
      const variant = assignVariant(experiment, body.visitor);
      if (body.variant !== undefined && body.variant !== variant) {
        const names = experiment.variants.map((v) => v.name);
        throw names.includes(body.variant)
          ? invalid(
              ['body', 'variant'],
              `Visitor '${body.visitor}' is assigned variant '${variant}' of experiment '${experiment.name}', ` +
                `not '${body.variant}'. Send the variant from GET /ab/assign/${experiment.name}?visitor=${body.visitor}, or leave variant out.`,
              'value_error',
            )
          : invalid(
              ['body', 'variant'],
              `Input should be ${names.map((n) => `'${n}'`).join(', ')} (the variants of '${experiment.name}')`,
              'literal_error',
            );
      }
      const now = deps.now();
      const { AB_EVENTS_PER_HOUR: hour, AB_EVENTS_PER_DAY: day } = deps.config;
      const limits = await chargePerIp(deps.quotas, AB_EVENTS, req.clientIp, { hour, day }, now);
      const counted =
        body.type === 'exposure'
          ? await recordExposure(deps.growth, experiment, variant, body.visitor, now)
          : await recordAbConversion(
              deps.growth,
              experiment,
              variant,
              'event',
              { visitor: body.visitor },
              now,
            );
      return json(
        200,
        { status: counted ? 'recorded' : 'duplicate', experiment: experiment.name, variant, type: body.type },
        { ...limits, 'cache-control': 'no-store' },
      );
    },
    { maxBodyBytes: route.maxBodyBytes },
  );

export const handler = makeHandler(awsDeps());
