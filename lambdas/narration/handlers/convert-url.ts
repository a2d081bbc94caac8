// POST /convert/url — the article at a web address, narrated. JSON or form-urlencoded body {url, voice?, fmt?}.
// Answers like /convert/text (200, or 202 for long articles) plus `title`; when the article had to be cut to the
// 100,000-character limit also `truncated: true` and `article_chars` (and the audio says so at the end).
// Order: validate → voice → caller (a bad key gets 401 before anything is fetched) → fetch through safeFetch (the
// SSRF boundary: public addresses only) → extract the article → charge and narrate. Nothing is charged when the
// page cannot be fetched or holds no article: those are 422 on body.url with the reason and what to do instead.
import { resolveCaller } from '../../shared/auth/resolve-caller';
import { apiHandler } from '../../shared/http/api-handler';
import { idempotency, idempotentId } from '../../shared/idempotency/idempotency';
import { observeConversion } from '../metrics';
import { type DomainError, Unavailable, invalid } from '../../shared/errors';
import { json } from '../../shared/http/response';
import { validate } from '../../shared/validation';
import {
  SafeFetchError,
  allowlistFrom,
  safeFetch,
  type FetchRefusal,
  type SafeFetchOptions,
} from '../../shared/net/safe-fetch';
import { awsDeps, type NarrationDeps } from '../deps';
import { NoArticleError, decodeHtml, extractArticle, fitForNarration } from '../core/article';
import { retentionDays, retentionLimits } from '../use-cases/data-control';
import { startConversion } from '../use-cases/conversion';
import { isDryRun, previewConversion } from '../core/preview';
import { convertUrlRoute as route, ConvertUrlReq } from './convert-url.route';
import { MAX_TEXT_CHARS, assertSpeakable, resolveVoice } from '../requests';
import { speechFields, speechRequest } from '../use-cases/speech-request';
import { spokenText } from '../core/speech';

/** What one page fetch may cost: fits well inside the route's 29 s with narration of a short article after it. */
export const FETCH_LIMITS = {
  connectTimeoutMs: 5000,
  totalTimeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
  maxRedirects: 5,
} as const;

/** pydantic's names where one exists (url_parsing, url_scheme), else url_<reason>. */
const ERROR_TYPE: Partial<Record<FetchRefusal, string>> = {
  invalid_url: 'url_parsing',
  scheme: 'url_scheme',
};

/** What a listener can do when the page cannot be had (safeFetch's messages are not narration-specific). */
const HINT: Partial<Record<FetchRefusal, string>> = {
  content_type: 'Give the address of an article page (a web page, not a file).',
  too_large: 'Give the address of a single article, or copy its text and send it to /convert/text.',
  timeout: 'If the page opens in your browser, copy its text and send it to /convert/text.',
  http_status: 'If the page opens in your browser, copy its text and send it to /convert/text.',
};

export function fetchErrorToDomain(err: SafeFetchError): DomainError {
  // Our resolver failing is our problem, not the caller's address: retryable.
  if (err.code === 'dns_unavailable') return new Unavailable(err.message, 10);
  const hint = HINT[err.code];
  return invalid(
    ['body', 'url'],
    hint ? `${err.message} ${hint}` : err.message,
    ERROR_TYPE[err.code] ?? `url_${err.code}`,
  );
}

/** People paste `elpais.com/...` without a scheme: read it as https. */
function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}

/** `fetchOptions` lets tests pass a resolver stub, an allowlist and short timeouts; production uses config. */
export const makeHandler = (deps: NarrationDeps, fetchOptions: SafeFetchOptions = {}) =>
  apiHandler(
    async (req, context) => {
      const body = validate(ConvertUrlReq, req.body());
      const voice = resolveVoice(body.voice, body.engine);
      const caller = await resolveCaller(req.headers, req.clientIp, deps.keys);

      let page;
      try {
        page = await safeFetch(withScheme(body.url), {
          ...FETCH_LIMITS,
          ...fetchOptions,
          allowlist: fetchOptions.allowlist ?? allowlistFrom(deps.config.URL_FETCH_ALLOWLIST),
        });
      } catch (err) {
        if (err instanceof SafeFetchError) throw fetchErrorToDomain(err);
        throw err;
      }

      let article;
      try {
        article = extractArticle(decodeHtml(page.body, page.charset));
      } catch (err) {
        if (err instanceof NoArticleError)
          throw invalid(
            ['body', 'url'],
            err.message,
            `article_${err.reason === 'no_article' ? 'not_found' : err.reason}`,
          );
        throw err;
      }
      const narration = fitForNarration(article, MAX_TEXT_CHARS);
      assertSpeakable(narration.text, ['body', 'url']);

      const title = article.title || new URL(page.url).hostname;
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
        return json(200, {
          ...previewConversion({
            text: narration.text,
            voice,
            fmt: body.fmt,
            syncMaxChars: deps.config.SYNC_MAX_CHARS,
            pauseS: how.breakS,
            title,
            headings: narration.headings,
            ...(how.speech ? { spoken: spokenText(how.pieces()) } : {}),
          }),
          ...extra,
        });
      const out = await observeConversion(req.event.routeKey, body.fmt, () =>
        startConversion(deps, {
          audioId: idempotentId(req),
          pauseS: how.breakS,
          signal: req.signal,
          remainingMs: () => context.getRemainingTimeInMillis(),
          headings: narration.headings.map((h) => ({ text: h.text, offset: h.offset })),
          text: narration.text,
          voice,
          fmt: body.fmt,
          caller,
          ttlDays: retentionDays(body.retention_days, caller, retentionLimits(deps.config)),
          // The contract promises a title: a page without one is named by its host.
          title,
          ...(how.speech ? { speech: how.speech } : {}),
        }),
      );
      return json(out.statusCode, { ...out.body, ...extra }, out.headers);
    },
    { maxBodyBytes: route.maxBodyBytes, ...idempotency(route, deps) },
  );

export const handler = makeHandler(awsDeps());
