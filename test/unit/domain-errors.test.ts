// The one mapping from domain errors (lambdas/shared/errors.ts) to the contract's answers (errorResponse in
// lambdas/shared/http/api-handler.ts): status, headers and body of each class.
import {
  Conflict,
  Forbidden,
  InvalidInput,
  InvalidRequest,
  NotFound,
  PaymentRequired,
  QuotaExceeded,
  Unauthenticated,
  Unavailable,
} from '../../lambdas/shared/errors';
import { errorResponse } from '../../lambdas/shared/http/api-handler';

const answer = (err: unknown, invalidStatus?: 400 | 422) => {
  const r = errorResponse(err, 'req-9', invalidStatus);
  return { status: r.statusCode, headers: r.headers, body: JSON.parse(String(r.body)) as unknown };
};

test.each([
  [new InvalidRequest('Bad page size.'), 400, {}],
  [new Unauthenticated('Send a key.'), 401, { 'www-authenticate': 'Bearer' }],
  [new PaymentRequired('Renew.', { plan: 'pro' }), 402, {}],
  [new Forbidden('Scale only.', { plan: 'free' }), 403, {}],
  [new NotFound(), 404, {}],
  [new Conflict('Pending.', { status: 'awaiting_payment' }, 60), 409, { 'retry-after': '60' }],
  [
    new QuotaExceeded('Limit.', { 'retry-after': '30', 'ratelimit-limit': '2' }),
    429,
    { 'ratelimit-limit': '2' },
  ],
  [new Unavailable('Busy.'), 503, { 'retry-after': '5' }],
  [new Unavailable('Not configured.', 60), 503, { 'retry-after': '60' }],
])('%s → %i with its headers and {detail, ...extra}', (err, status, headers) => {
  const a = answer(err);
  expect(a.status).toBe(status);
  expect(a.headers).toMatchObject({ 'content-type': 'application/json', ...headers });
  expect(a.body).toEqual({ ...err.extra, detail: err.message });
});

test('an Unavailable without a retry hint has no Retry-After', () => {
  expect(answer(new Unavailable('No token configured.', null)).headers).not.toHaveProperty('retry-after');
});

test("invalid input is the list of problems with the route's status (narration 422, documents 400)", () => {
  const items = [{ loc: ['body', 'text'], msg: 'Field required', type: 'missing' }];
  expect(answer(new InvalidInput(items))).toMatchObject({ status: 422, body: { detail: items } });
  expect(answer(new InvalidInput(items), 400)).toMatchObject({ status: 400, body: { detail: items } });
});

test('anything else is a 500 quoting the request id', () => {
  expect(answer(new Error('boom'))).toMatchObject({ status: 500, body: { request_id: 'req-9' } });
});
