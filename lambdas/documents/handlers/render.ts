// POST /v1/render — JSON {template | custom_html, format, data, options} → the document as binary.
// 400 `{"detail": [{loc, msg, type}]}` for anything the caller can fix (all problems at once), 401 bad key,
// 403 custom_html on the free plan, 429 over the monthly quota (RateLimit-* + Retry-After), 500 with a request id
// only for a real rendering fault. Free-plan PDFs carry a subtle watermark. Documents over
// DOCUMENTS_INLINE_MAX_BYTES (4 MiB) are answered with 303 to a presigned URL valid for an hour.
// options.async (Scale plan; 403 for other plans): 202 {id, status: "queued", status_url} + Location, charged now,
// rendered by the render worker (domain/jobs.ts), announced to the account's webhook endpoint.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import {
  HttpError,
  RequestValidationError,
  ServiceUnavailableError,
  TooManyRequestsError,
} from '../../shared/http/errors';
import { logger } from '../../shared/logger';
import { observeRender, recordQuotaRejection } from '../../shared/observability/events';
import { rateLimitHeaders } from '../../shared/quota/windows';
import { awsDeps, type DocumentsDeps } from '../deps';
import { DocumentRequestError } from '../domain/errors';
import { monthlyRules, planOf, quotaSubject } from '../domain/plans';
import { parseRenderRequest, renderDocument } from '../domain/render-request';
import { acceptAsyncRender, assertAsyncAllowed } from '../domain/jobs';
import { json } from '../../shared/http/response';
import { documentsManifest } from '../routes';

const route = documentsManifest.routes.find((r) => r.id === 'Render')!;

/** Counters behind GET /stats (never fail a render over them). */
export async function recordRender(deps: Pick<DocumentsDeps, 'growth'>, format: string): Promise<void> {
  await deps.growth
    .add('docs#stats', { documents: 1, [`format_${format}`]: 1 })
    .catch((err) => logger.warn('documents stats not recorded', { error: err as Error }));
}

/** Thrown when the caller was already answered 503 by the early timeout (ApiRequest.signal): refund, deliver nothing. */
const ABANDONED = new ServiceUnavailableError(
  'The request took too long and was stopped. Please retry; this attempt was not counted.',
);

export const makeHandler = (deps: DocumentsDeps) =>
  apiHandler(
    async (req) => {
      let body: unknown;
      try {
        body = req.body();
      } catch (err) {
        // Malformed JSON is an invalid request like any other: 400 here (the contract), not narration's 422.
        if (err instanceof RequestValidationError) throw new DocumentRequestError(err.items);
        throw err;
      }
      const request = parseRenderRequest(body);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      const plan = planOf(caller);
      // Async (Scale): refused before anything is charged.
      if (request.options.async) assertAsyncAllowed(plan);
      if (request.kind === 'custom' && plan === 'free')
        throw new HttpError(
          403,
          'custom_html (your own templates) is a Pro, Scale or Lifetime feature: send `Authorization: Bearer <key>`, ' +
            'or use a built-in template (GET /templates).',
        );
      const now = deps.now();
      const decision = await deps.quotas.consume(quotaSubject(caller), monthlyRules(plan), now);
      const headers = rateLimitHeaders(decision, now);
      if (!decision.allowed) {
        recordQuotaRejection('documents', req.event.routeKey);
        throw new TooManyRequestsError(
          `Monthly limit reached: ${decision.binding.limit} documents per calendar month (UTC) on the ${plan} plan. ` +
            `It resets in ${headers['retry-after']} seconds; a paid plan raises it (GET /pricing).`,
          headers,
        );
      }
      if (request.options.async && caller.kind === 'key') {
        // 202 + a job: rendered by the render worker, announced by webhook (domain/jobs.ts).
        const accepted = await acceptAsyncRender(deps, {
          body,
          request,
          key: caller.key,
          plan,
          decision,
          now,
        });
        return json(accepted.statusCode, accepted.body, { ...headers, ...accepted.headers });
      }
      let doc;
      let location: string | undefined;
      try {
        if (req.signal?.aborted) throw ABANDONED;
        doc = await observeRender(request.format, async () =>
          renderDocument(request, await deps.renderer(), { watermark: plan === 'free' }),
        );
        // Too large for a Lambda response: stored, and answered 303 See Other to it (clients follow with a GET).
        if (doc.bytes.length > deps.config.DOCUMENTS_INLINE_MAX_BYTES)
          location = await deps.results.publish(doc.bytes, doc.contentType, doc.filename, 3600);
        // The route's deadline already answered 503 (retry): this document is not delivered, so not counted.
        if (req.signal?.aborted) throw ABANDONED;
      } catch (err) {
        // Nothing was delivered (render fault, storing the large result failed, or abandoned): it does not count.
        await deps.quotas
          .refund(decision)
          .catch((e) => logger.error('quota refund failed', { error: e as Error }));
        throw err;
      }
      await recordRender(deps, request.format);
      // An XML input whose figures do not add up (SAT's rules): said here and on the PDF, never corrected.
      if (doc.warnings?.length) headers['x-cfdi-avisos'] = doc.warnings.join('; ');
      if (location)
        return { statusCode: 303, headers: { ...headers, location, 'cache-control': 'no-store' }, body: '' };
      return {
        statusCode: 200,
        headers: {
          ...headers,
          'content-type': doc.contentType,
          'content-disposition': `attachment; filename="${doc.filename}"`,
          'cache-control': 'no-store',
        },
        body: doc.bytes.toString('base64'),
        isBase64Encoded: true,
      };
    },
    { maxBodyBytes: route.maxBodyBytes, invalidStatus: documentsManifest.invalidRequestStatus },
  );

export const handler = makeHandler(awsDeps());
