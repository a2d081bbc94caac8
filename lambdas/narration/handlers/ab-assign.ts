// GET /ab/assign/{experiment}?visitor=<id> — the visitor's variant, for the landing page and the embed widget.
// Deterministic (hash of experiment + visitor, weights from AB_EXPERIMENTS): the same visitor always gets the
// same variant, so the answer is cacheable. Without `visitor` a random id is minted and returned (not cached):
// keep it (localStorage) and send it with later events. `ref` is the attribution string to pass as the waitlist
// `source` or the checkout `ref`. Records nothing: report what the visitor saw with POST /ab/event.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { assignVariant, formatAbRef } from '../../shared/growth/experiments';
import { experimentField, findExperiment, visitorField } from '../../shared/growth/http';
import { awsDeps, type NarrationDeps } from '../deps';

const absentIfEmpty = (v: unknown) => (v === '' ? undefined : v);
export const AbAssignPath = z.object({ experiment: experimentField });
export const AbAssignQuery = z.object({ visitor: z.preprocess(absentIfEmpty, visitorField.optional()) });

/** 16 random bytes, base64url: 22 characters matching the visitor pattern. */
export function newVisitorId(): string {
  return randomBytes(16).toString('base64url');
}

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(async (req) => {
    const { experiment: name } = validate(AbAssignPath, req.pathParams, ['path']);
    const { visitor: given } = validate(AbAssignQuery, req.query, ['query']);
    const experiment = findExperiment(deps.config.AB_EXPERIMENTS, name);
    const visitor = given ?? newVisitorId();
    const variant = assignVariant(experiment, visitor);
    return json(
      200,
      { experiment: name, visitor, variant, ref: formatAbRef({ experiment: name, variant, visitor }) },
      { 'cache-control': given ? 'public, max-age=300' : 'no-store' },
    );
  });

export const handler = makeHandler(awsDeps());
