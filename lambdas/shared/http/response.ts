// Response helpers: JSON bodies in the contract's shapes.
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';

/** For answers that hold a secret or one caller's state: no cache keeps them. */
export const NO_STORE = { 'cache-control': 'no-store' };

export type ApiResult = APIGatewayProxyStructuredResultV2 & { headers?: Record<string, string> };

export function json(statusCode: number, body: unknown, headers: Record<string, string> = {}): ApiResult {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  };
}

export function redirect(location: string, headers: Record<string, string> = {}): ApiResult {
  return { statusCode: 302, headers: { location, ...headers }, body: '' };
}
