// GET /pricing — the four plans as JSON (contract: Free, Pro, Scale, Lifetime).
import { apiHandler } from '../../shared/http/api-handler';
import { json } from '../../shared/http/response';
import { PLANS } from '../domain/plans';

export const makeHandler = () =>
  apiHandler(async () =>
    json(
      200,
      {
        currency: 'USD',
        quota_reset: 'Monthly allowances reset at 00:00 UTC on the 1st of each month (calendar months, UTC).',
        plans: PLANS,
      },
      { 'cache-control': 'public, max-age=3600' },
    ),
  );

export const handler = makeHandler();
