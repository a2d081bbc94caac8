// GET /ab/results/{experiment} — behind the dashboard token (`Authorization: Bearer <token>` or
// `X-Dashboard-Token: <token>`, constant-time compare; 401 otherwise, 503 when DASHBOARD_TOKEN is unset; 429 after
// 20 wrong tokens from one address in the hour: lambdas/shared/growth/dashboard-auth.ts).
// Per variant: exposures, conversions (and by channel), rate, uplift vs control, z and a two-sided p-value of the
// two-proportion z-test; the method is named in the body. Read from counters, never cached. See docs/growth.md.
import { z } from 'zod';
import { apiHandler } from '../../shared/http/api-handler';
import { NO_STORE, json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import { experimentResults } from '../../shared/growth/ab';
import { authorizeDashboard } from '../../shared/growth/dashboard-auth';
import { experimentField, findExperiment } from '../../shared/growth/http';
import { awsDeps, type NarrationDeps } from '../deps';

export const AbResultsPath = z.object({ experiment: experimentField });

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(async (req) => {
    // Authenticate first: nothing (not even which experiments exist) is told to a caller without the token.
    // Without a configured token the 503 comes before any storage is reached.
    await authorizeDashboard(req, deps);
    const { experiment: name } = validate(AbResultsPath, req.pathParams, ['path']);
    const experiment = findExperiment(deps.config.AB_EXPERIMENTS, name);
    const results = await experimentResults(deps.growth, experiment, deps.now());
    return json(200, results, NO_STORE);
  });

export const handler = makeHandler(awsDeps());
