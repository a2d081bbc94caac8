// Error answers in the caller's language, just before an answer leaves (apiHandler): for a caller whose
// Accept-Language prefers Spanish, the human text of `detail` (a message, or each validation item's `msg`) becomes
// the catalogue entry's Spanish (lambdas/shared/i18n). Nothing else changes: same status, same body keys in the same
// order, same `type` of each validation item. Every error answer whose `detail` is a message also carries the entry's
// stable code in `X-Error-Code`, whatever the language, so a program never has to match on wording. A message
// without an entry stays English and is logged (the catalogue test, test/unit/error-catalogue.test.ts, reads every
// message the sources can throw, so that should not happen).
import { matchMessage, preferredLanguage, translateMessage, type Lang } from '../i18n/errors';
import { logger } from '../logger';
import type { ApiResult } from './response';

const UNTRANSLATED = new Set<string>();

function localized(message: string, lang: Lang): string {
  const out = translateMessage(message, lang);
  if (out !== undefined) return out;
  if (!UNTRANSLATED.has(message) && UNTRANSLATED.size < 100) {
    UNTRANSLATED.add(message);
    logger.warn('error message without a catalogue entry', { detail: message });
  }
  return message;
}

/**
 * An error answer (status ≥ 400, JSON with `detail`) in the caller's language, with `X-Error-Code` for a message
 * detail and `Vary: Accept-Language`. Any other answer is returned as it is.
 */
export function localizeAnswer(result: ApiResult, acceptLanguage: string | undefined): ApiResult {
  if ((result.statusCode ?? 200) < 400 || typeof result.body !== 'string' || result.isBase64Encoded)
    return result;
  if (!/json/i.test(result.headers?.['content-type'] ?? '')) return result;
  let body: unknown;
  try {
    body = JSON.parse(result.body);
  } catch {
    return result;
  }
  if (!body || typeof body !== 'object' || !('detail' in body)) return result;
  const lang = preferredLanguage(acceptLanguage);
  const b = body as { detail: unknown };
  const headers: Record<string, string> = { ...result.headers };
  const vary = headers.vary;
  headers.vary =
    vary && !/accept-language/i.test(vary) ? `${vary}, Accept-Language` : (vary ?? 'Accept-Language');
  if (typeof b.detail === 'string') {
    const code = matchMessage(b.detail)?.code;
    if (code) headers['x-error-code'] = code;
    b.detail = localized(b.detail, lang);
  } else if (Array.isArray(b.detail) && lang !== 'en') {
    for (const item of b.detail as { msg?: unknown }[])
      if (item && typeof item.msg === 'string') item.msg = localized(item.msg, lang);
  }
  return { ...result, headers, body: JSON.stringify(body) };
}
