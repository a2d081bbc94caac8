// A thrown error as a caller sees it: the answer of the platform's one mapping (errorResponse in
// lambdas/shared/http/api-handler.ts), so a test of a use case can assert the status, headers and body it leads to.
import { errorResponse } from '../../lambdas/shared/http/api-handler';

/** `e`'s own fields plus the answer's statusCode, headers and body fields (`detail`, extras). */
export function asHttp(e: unknown, invalidStatus: 400 | 422 = 422) {
  const res = errorResponse(e, 'test', invalidStatus);
  const body = JSON.parse(String(res.body)) as { detail: unknown } & Record<string, unknown>;
  return { ...(e as object), ...body, statusCode: res.statusCode, headers: res.headers ?? {} };
}

/** What `p` rejects with, as a caller sees it; fails when `p` resolves. */
export const rejectsAsHttp = (p: Promise<unknown>, invalidStatus: 400 | 422 = 422) =>
  p.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => asHttp(e, invalidStatus),
  );

/** What `fn` throws, as a caller sees it; fails when it returns. */
export function throwsAsHttp(fn: () => unknown, invalidStatus: 400 | 422 = 422) {
  try {
    fn();
  } catch (e) {
    return asHttp(e, invalidStatus);
  }
  throw new Error('expected a throw');
}
