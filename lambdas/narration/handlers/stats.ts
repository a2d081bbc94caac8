// GET /stats — public aggregates: conversions, characters and seconds narrated, by format and voice, waitlist
// size. Two counter items read in one batch (no scans), cacheable for a minute. Body: see docs/growth.md.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { publicStats } from '../../shared/growth/stats';
import { awsDeps, type NarrationDeps } from '../deps';

export const CACHE_CONTROL = 'public, max-age=60, stale-while-revalidate=300';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(async () =>
    json(200, await publicStats(deps.growth, deps.now()), { 'cache-control': CACHE_CONTROL }),
  );

export const handler = makeHandler(awsDeps());
