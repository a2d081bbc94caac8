// POST /convert/url — the article at a web address, narrated. JSON or form-urlencoded body {url, voice?, fmt?}.
// Answers like /convert/text (200, or 202 for long articles) plus `title`; when the article had to be cut to the
// 100,000-character limit also `truncated: true` and `article_chars` (and the audio says so at the end).
// Order: validate → voice → caller (a bad key gets 401 before anything is fetched) → an idempotent retry's earlier
// conversion, continued without fetching again (answered with the conversion's fields and title; the page's
// `truncated`, `article_chars`, `lexicons` and `warnings` come only with a fetch) → fetch through safeFetch (the SSRF
// boundary: public addresses only) → extract the article → charge and narrate. Nothing is charged when the page
// cannot be fetched or holds no article: those are 422 on body.url with the reason and what to do instead.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency, idempotentId } from '../../shared/idempotency/idempotency';
import { observeConversion } from '../metrics';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import type { SafeFetchOptions } from '../../shared/net/safe-fetch';
import { awsDeps, type NarrationDeps } from '../deps';
import { retentionDays, retentionLimits } from '../use-cases/data-control';
import { earlierConversion, resumeConversion, startConversion } from '../use-cases/conversion';
import { isDryRun } from '../core/preview';
import { convertUrlRoute as route, ConvertUrlReq } from './convert-url.route';
import { resolveVoice } from '../requests';
import { speechFields, speechRequest } from '../use-cases/speech-request';
import { previewAnswer, requestFields } from './convert-request';
import { readArticle } from '../use-cases/article-source';

export { FETCH_LIMITS, fetchErrorToDomain } from '../use-cases/article-source';

/** `fetchOptions` lets tests pass a resolver stub, an allowlist and short timeouts; production uses config. */
export const makeHandler = (deps: NarrationDeps, fetchOptions: SafeFetchOptions = {}) =>
  apiHandler(
    async (req, context) => {
      const body = validate(ConvertUrlReq, req.body());
      const voice = resolveVoice(body.voice, body.engine);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);
      // An idempotent retry whose first request died after making its conversion durable continues it from its job
      // (which holds the text) without fetching the page again: the page may have changed or gone since, and a
      // refusal now would answer 422 "nothing charged" for a conversion that is charged and narrated. Only a job
      // retired meanwhile needs the page again (a new conversion, below).
      const earlier = isDryRun(req.query) ? undefined : await earlierConversion(deps, idempotentId(req));
      if (earlier) {
        const resumed = await resumeConversion(deps, earlier, {
          signal: req.signal,
          remainingMs: () => context.getRemainingTimeInMillis(),
        });
        if (resumed !== 'retired') return json(resumed.statusCode, resumed.body, resumed.headers);
      }

      const { narration, title } = await readArticle(
        body.url,
        () => deps.config.URL_FETCH_ALLOWLIST,
        fetchOptions,
      );
      const how = await speechRequest(
        deps,
        caller,
        { text: narration.text, lexicons: body.lexicons, loudness: body.loudness },
        voice,
      );
      const extra = {
        ...(narration.truncated ? { truncated: true, article_chars: narration.articleChars } : {}),
        ...speechFields(how),
      };
      if (isDryRun(req.query))
        return previewAnswer(
          deps,
          how,
          { text: narration.text, voice, fmt: body.fmt, title, headings: narration.headings },
          extra,
        );
      const out = await observeConversion(req.event.routeKey, body.fmt, () =>
        startConversion(deps, {
          ...requestFields(req, context, how),
          headings: narration.headings.map((h) => ({ text: h.text, offset: h.offset })),
          text: narration.text,
          voice,
          fmt: body.fmt,
          caller,
          ttlDays: retentionDays(body.retention_days, caller, retentionLimits(deps.config)),
          // The contract promises a title: a page without one is named by its host.
          title,
        }),
      );
      return json(out.statusCode, { ...out.body, ...extra }, out.headers);
    },
    { maxBodyBytes: route.maxBodyBytes, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
