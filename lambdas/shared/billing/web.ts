// HTTP details shared by the /pay handlers: where this API is reachable, where customers return to, and which
// clients get JSON instead of a redirect.
import type { PlatformConfig as Config } from '../config';
import type { ApiRequest } from '../http/request';
import { setting, type BillingCatalogue } from './catalogue';

/** An explicit JSON preference (API clients); browsers (text/html, any type) get the redirect. */
export function wantsJson(accept: string | undefined): boolean {
  return !!accept && /application\/json/i.test(accept) && !/text\/html/i.test(accept);
}

const LOCAL_HOST = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])(:\d+)?$/i;

/**
 * The service's public address setting (PUBLIC_BASE_URL, DOCS_PUBLIC_BASE_URL), else the host the request came in
 * on (API Gateway's domain in the cloud; the local front's address locally, over http). A forged Host header only
 * changes where the forger's own checkout returns to.
 */
export function publicBase(req: ApiRequest, cfg: Config, cat: BillingCatalogue): string {
  const configured = setting(cfg, cat.settings.publicBaseUrl);
  if (configured) return configured.replace(/\/+$/, '');
  const host = req.headers['host'] ?? req.event.requestContext?.domainName ?? 'localhost';
  const proto = req.headers['x-forwarded-proto'] ?? (LOCAL_HOST.test(host) ? 'http' : 'https');
  return `${proto === 'http' ? 'http' : 'https'}://${host}`;
}

/**
 * Where Stripe's pages send the customer back (Checkout's back button, the portal's return link): the return-URL
 * setting, else `back` (a path, default /pay/status) on the public address.
 */
export function returnUrl(req: ApiRequest, cfg: Config, cat: BillingCatalogue, back = '/pay/status'): string {
  return setting(cfg, cat.settings.returnUrl) ?? `${publicBase(req, cfg, cat)}${back}`;
}
