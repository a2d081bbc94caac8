// Builds a Lambda handler for an HTTP API route: a middy chain that logs with the request id, refuses oversize
// bodies before parsing, maps errors to the contract's shapes and adds request-id and CORS headers.
// Observability: every log line of a request carries `request_id` (API Gateway's, also the x-request-id header) and
// `route` (the route key, e.g. "POST /convert/text"), plus `cold_start` from injectLambdaContext; X-Ray wraps the
// handler when tracing is on (lambdas/shared/observability/tracing.ts); business metrics recorded during the request
// are flushed as EMF when it ends (lambdas/shared/observability/metrics.ts).
import middy from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Context } from 'aws-lambda';
import { logger } from '../logger';
import { metricsMiddleware } from '../observability/metrics';
import { tracingMiddleware } from '../observability/tracing';
import { DomainError, InvalidInput, invalid } from '../errors';
import { HttpError, toHttpError } from './errors';
import { localizeAnswer } from './localize';
import { bodyBytes, toApiRequest, type ApiEvent, type ApiRequest } from './request';
import { json, type ApiResult } from './response';

export interface ApiHandlerOptions {
  /** Bodies above this many bytes are refused before any parsing. */
  maxBodyBytes?: number;
  /** Status of invalid input (that refusal too) in the service's contract: narration 422 (default), documents 400. */
  invalidStatus?: 400 | 422;
  /**
   * Runs the route function inside Idempotency-Key handling: `idempotency(route, deps)` of lambdas/shared/idempotency
   * for routes with `idempotent: true` (that module builds on this chain, not the other way round).
   */
  idempotency?: AroundRoute;
  /** Instead of that refusal: this status with `{"detail": detail}` (a route's RouteSpec.tooLarge). */
  tooLarge?: { status: number; detail: string };
  /** The `detail` of the 503 answered at the route's deadline. @default narration's wording (TIMEOUT_DETAIL) */
  timeoutDetail?: string;
}

/** Something that runs the route function `run` for `req` (and may answer without running it). */
export type AroundRoute = (req: ApiRequest, run: () => Promise<ApiResult>) => Promise<ApiResult>;

/** What the deadline's 503 says by default (narration: long texts have the queue). */
export const TIMEOUT_DETAIL =
  'The request took too long and was stopped. Please retry; long texts are processed in the background.';

/** Headers every answer carries; browsers (the embeddable player) call the API cross-origin. */
export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-expose-headers':
    'x-request-id, x-error-code, retry-after, location, ratelimit-limit, ratelimit-remaining, ratelimit-reset, ratelimit-policy, idempotent-replayed',
};

export function errorResponse(err: unknown, requestId: string, invalidStatus: 400 | 422 = 422): ApiResult {
  if (err instanceof InvalidInput) return json(invalidStatus, { detail: err.items });
  // Domain and HTTP errors by class; a throttled/unavailable AWS dependency → 503 with Retry-After and the request id.
  const http = toHttpError(err, requestId);
  if (http) {
    if (!(err instanceof HttpError) && !(err instanceof DomainError))
      logger.warn('dependency unavailable', { error: err as Error, requestId });
    return json(http.statusCode, { ...http.extra, detail: http.detail }, http.headers);
  }
  logger.error('unhandled error', { error: err as Error, requestId });
  return json(500, {
    detail: `Internal server error. If it persists, contact support quoting request id ${requestId}.`,
    request_id: requestId,
  });
}

export type RouteFn = (req: ApiRequest, context: Context) => Promise<ApiResult>;

/** middy answers the deadline's 503 this long before the Lambda would time out. */
const TIMEOUT_EARLY_MS = 500;
/** The route's own signal is aborted this much earlier still (see deadlineSignal). */
const ABORT_LEAD_MS = 50;

/**
 * This invocation's abort signal: aborted just before middy answers the deadline's 503 (its timer is due first, so
 * no 503 leaves while the route still sees a live request). middy's own signal is not used: it is one
 * AbortController for the whole process (@middy/core's module scope), which is right in Lambda (one invocation at a
 * time) but, in the local runtime, one request's deadline aborted every other request in flight.
 */
function deadlineSignal(context: Context): { signal?: AbortSignal; clear(): void } {
  if (typeof context?.getRemainingTimeInMillis !== 'function') return { clear: () => undefined };
  const controller = new AbortController();
  const ms = context.getRemainingTimeInMillis() - TIMEOUT_EARLY_MS - ABORT_LEAD_MS;
  const timer = setTimeout(() => controller.abort(), Math.max(0, ms));
  return { signal: controller.signal, clear: () => clearTimeout(timer) };
}

export function apiHandler(fn: RouteFn, options: ApiHandlerOptions = {}) {
  const maxBody = options.maxBodyBytes ?? 64 * 1024;
  return (
    middy<ApiEvent, ApiResult>({
      // Answer in the contract's shape just before Lambda would time out (API Gateway would send a bare 503).
      timeoutEarlyInMillis: TIMEOUT_EARLY_MS,
      timeoutEarlyResponse: () => ({
        ...json(503, { detail: options.timeoutDetail ?? TIMEOUT_DETAIL }),
        headers: { 'content-type': 'application/json', ...CORS_HEADERS, 'retry-after': '5' },
      }),
    })
      .use(injectLambdaContext(logger, { resetKeys: true }))
      // Every answer carries the request id, also the early-timeout 503 (middy runs `after` hooks on it too), and an
      // error answer speaks the caller's language with its stable code (lambdas/shared/i18n/errors.ts).
      .use({
        after: (request) => {
          const id = request.event.requestContext?.requestId ?? request.context.awsRequestId;
          if (request.response) {
            const headers = request.event.headers ?? {};
            request.response = localizeAnswer(request.response, headers['accept-language']);
            if (id) request.response.headers = { ...request.response.headers, 'x-request-id': id };
          }
        },
      })
      .use(tracingMiddleware())
      .use(metricsMiddleware())
      .handler(async (event, context) => {
        const requestId = event.requestContext?.requestId ?? context.awsRequestId ?? 'unknown';
        const deadline = deadlineSignal(context);
        // Temporary keys: injectLambdaContext's resetKeys clears them when the invocation ends.
        logger.appendKeys({ request_id: requestId, route: event.routeKey ?? 'unknown' });
        let result: ApiResult;
        try {
          const size = event.body
            ? event.isBase64Encoded
              ? Math.floor((event.body.length * 3) / 4)
              : Buffer.byteLength(event.body)
            : 0;
          if (size > maxBody && bodyBytes(event).length > maxBody) {
            if (options.tooLarge) throw new HttpError(options.tooLarge.status, options.tooLarge.detail);
            throw invalid(
              ['body'],
              `Request body is larger than ${maxBody} bytes, the limit for this endpoint`,
              'body_too_large',
            );
          }
          const req = toApiRequest(event, deadline.signal);
          result = options.idempotency
            ? await options.idempotency(req, () => fn(req, context))
            : await fn(req, context);
        } catch (err) {
          result = errorResponse(err, requestId, options.invalidStatus);
        } finally {
          deadline.clear();
        }
        result.headers = { ...CORS_HEADERS, ...result.headers, 'x-request-id': requestId };
        return result;
      })
  );
}
