// GET /pricing — the four plans as JSON (contract: Free, Pro, Scale, Lifetime), each paid plan with the path that
// buys it (`checkout`: GET /pay/checkout/{plan}; null for free), and when the monthly allowances reset.
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { pricedPlans, QUOTA_RESET } from '../core/pricing';

export const makeHandler = () =>
  apiHandler(async () =>
    json(
      200,
      { currency: 'USD', quota_reset: QUOTA_RESET, plans: pricedPlans() },
      { 'cache-control': 'public, max-age=3600' },
    ),
  );

export const handler = makeHandler();
