// An article page, fetched and read for narration: POST /convert/url and the feed article worker (use-cases/feed-article.ts)
// both go through here, so both keep exactly the same SSRF boundary (safeFetch: public addresses only, redirects
// re-checked, URL_FETCH_ALLOWLIST the only exemption), limits and extraction. Refusals are 422 on `loc` with the
// reason and what to do instead; a resolver outage is a retryable 503.
import { type DomainError, Unavailable, invalid } from '../../shared/errors';
import {
  SafeFetchError,
  allowlistFrom,
  safeFetch,
  type FetchRefusal,
  type SafeFetchOptions,
} from '../../shared/net/safe-fetch';
import {
  NoArticleError,
  decodeHtml,
  extractArticle,
  fitForNarration,
  type Article,
  type NarrationText,
} from '../core/article';
import { MAX_TEXT_CHARS, assertSpeakable } from '../requests';

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

export function fetchErrorToDomain(
  err: SafeFetchError,
  loc: (string | number)[] = ['body', 'url'],
): DomainError {
  // Our resolver failing is our problem, not the caller's address: retryable.
  if (err.code === 'dns_unavailable') return new Unavailable(err.message, 10);
  const hint = HINT[err.code];
  return invalid(
    loc,
    hint ? `${err.message} ${hint}` : err.message,
    ERROR_TYPE[err.code] ?? `url_${err.code}`,
  );
}

/** People paste `elpais.com/...` without a scheme: read it as https. */
export function withScheme(url: string): string {
  return /^[a-z][a-z0-9+.-]*:/i.test(url) ? url : `https://${url}`;
}

export interface ArticleSource {
  /** The final address (after redirects). */
  url: string;
  article: Article;
  narration: NarrationText;
  /** The article's title, else the page's host name (the contract promises a title). */
  title: string;
}

/** Fetches `url` under the SSRF policy and extracts its article, fitted to the narration limit. */
export async function readArticle(
  url: string,
  /** URL_FETCH_ALLOWLIST, read only when the caller passes no allowlist (tests pass one and no config). */
  allowlistSpec: () => string | undefined,
  fetchOptions: SafeFetchOptions = {},
  loc: (string | number)[] = ['body', 'url'],
): Promise<ArticleSource> {
  let page;
  try {
    page = await safeFetch(withScheme(url), {
      ...FETCH_LIMITS,
      ...fetchOptions,
      allowlist: fetchOptions.allowlist ?? allowlistFrom(allowlistSpec()),
    });
  } catch (err) {
    if (err instanceof SafeFetchError) throw fetchErrorToDomain(err, loc);
    throw err;
  }
  let article;
  try {
    article = extractArticle(decodeHtml(page.body, page.charset));
  } catch (err) {
    if (err instanceof NoArticleError)
      throw invalid(loc, err.message, `article_${err.reason === 'no_article' ? 'not_found' : err.reason}`);
    throw err;
  }
  const narration = fitForNarration(article, MAX_TEXT_CHARS);
  assertSpeakable(narration.text, loc);
  return { url: page.url, article, narration, title: article.title || new URL(page.url).hostname };
}
