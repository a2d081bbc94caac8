// GET /waitlist/count — {"count": N}: how many distinct emails joined. One consistent read of a counter that
// only new sign-ups bump, so it is exact under parallel sign-ups. Cacheable for a few seconds.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { waitlistCounts } from '../../shared/growth/waitlist';
import { awsDeps, type NarrationDeps } from '../deps';

export const CACHE_CONTROL = 'public, max-age=10';

export const makeHandler = (deps: NarrationDeps) =>
  apiHandler(async () => {
    const { count } = await waitlistCounts(deps.growth);
    return json(200, { count }, { 'cache-control': CACHE_CONTROL });
  });

export const handler = makeHandler(awsDeps());
