// Logs: secrets and callers' content fed through the real logger never reach the output; request lines carry the
// API Gateway request id, the route and the cold-start flag. Output is captured where Powertools writes it
// (process.stdout / process.stderr through its own Console).
import { randomUUID } from 'node:crypto';
import type { Context } from 'aws-lambda';
import { apiEvent } from '../helpers/api-event';
import { apiHandler } from '../../lambdas/shared/http/api-handler';
import { logger } from '../../lambdas/shared/logger';
import { MAX_LOGGED_STRING, REDACTED, redact } from '../../lambdas/shared/observability/redact';

/** Everything written to stdout/stderr while `fn` runs, split into parsed JSON lines. */
type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function capture(fn: () => unknown | Promise<unknown>): Promise<{ raw: string; lines: Json[] }> {
  let raw = '';
  const grab = (chunk: unknown) => {
    raw += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(grab as never);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(grab as never);
  try {
    await fn();
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
  const lines = raw
    .split('\n')
    .filter((l) => l.trim().startsWith('{'))
    .map((l) => JSON.parse(l) as Json);
  return { raw, lines };
}

const API_KEY = `key_${'Zx9_'.repeat(10)}abc`; // 43 characters after the prefix, like generateKey()
const STRIPE_SECRET = 'sk_live_51HqLyjWDarjtT1zdp7dcXyZ0123456789abcdef';
const STRIPE_RESTRICTED = 'rk_test_51HqLyjWDarjtT1zdAbCdEf9876543210';
const WEBHOOK_SECRET = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
const STRIPE_SIGNATURE =
  't=1492774577,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd,v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39';
const DASHBOARD_TOKEN = 'dash-7f3a9c1e5b2d4f6a8c0e';
const SECRET_TEXT = 'Érase una vez un texto privado que el cliente quería narrar';
const SECRET_HTML = '<html><body><h1>Factura confidencial de Ana</h1></body></html>';

const everySecret = [
  API_KEY,
  STRIPE_SECRET,
  STRIPE_RESTRICTED,
  WEBHOOK_SECRET,
  STRIPE_SIGNATURE,
  '5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
  DASHBOARD_TOKEN,
  SECRET_TEXT,
  SECRET_HTML,
  'Factura confidencial',
];

describe('the logger never prints secrets or callers’ content', () => {
  test('credentials by key name, by shape inside strings and inside errors; content by key; ids and sizes stay', async () => {
    const err = new Error(
      `Stripe said no for ${STRIPE_SECRET} (Authorization: Bearer ${API_KEY})`,
    ) as Error & {
      headers?: Record<string, string>;
    };
    err.headers = { 'stripe-signature': STRIPE_SIGNATURE, authorization: `Bearer ${API_KEY}` };
    const { raw, lines } = await capture(() => {
      logger.info(`caller sent Authorization: Bearer ${API_KEY}`, {
        headers: {
          authorization: `Bearer ${API_KEY}`,
          'x-api-key': API_KEY,
          'stripe-signature': STRIPE_SIGNATURE,
          'content-type': 'application/json',
        },
        STRIPE_SECRET_KEY: STRIPE_SECRET,
        STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
        DASHBOARD_TOKEN,
        note: `restricted key ${STRIPE_RESTRICTED} and signing secret ${WEBHOOK_SECRET} in free text`,
        text: SECRET_TEXT,
        custom_html: SECRET_HTML,
        data: { cliente: 'Ana', total: 1234.5, notas: SECRET_TEXT },
        body: JSON.stringify({ text: SECRET_TEXT }),
        audioId: 'aud_123',
        chars: 4321,
        keyPrefix: 'key_abc1',
      });
      logger.error('stripe call failed', { error: err });
    });
    for (const secret of everySecret) expect(raw).not.toContain(secret);
    expect(lines).toHaveLength(2);
    const [info, error] = lines as [Json, Json];
    // What an operator needs is still there.
    expect(info).toMatchObject({
      audioId: 'aud_123',
      chars: 4321,
      keyPrefix: 'key_abc1',
      headers: { authorization: REDACTED, 'x-api-key': REDACTED, 'content-type': 'application/json' },
      STRIPE_SECRET_KEY: REDACTED,
      text: `[redacted: ${[...SECRET_TEXT].length} chars]`,
    });
    expect(info.message).toContain('Bearer [REDACTED]');
    expect(error.error).toMatchObject({ name: 'Error', headers: { 'stripe-signature': REDACTED } });
    expect(error.error.message).toContain('Stripe said no for [REDACTED]');
  });

  test('very long strings are logged as their size', async () => {
    const long = 'palabra '.repeat(MAX_LOGGED_STRING);
    const { raw, lines } = await capture(() => logger.warn('long', { detail: long }));
    expect(raw).not.toContain('palabra palabra palabra');
    expect(lines[0]!.detail).toBe(`[redacted: ${long.length} chars]`);
  });

  test('redact() applies the same rules to any value', () => {
    expect(redact({ authorization: 'Basic dXNlcjpwYXNz', n: 1, msg: `use ${WEBHOOK_SECRET}` })).toEqual({
      authorization: REDACTED,
      n: 1,
      msg: `use ${REDACTED}`,
    });
  });
});

const event = (body: string, headers: Record<string, string>) =>
  apiEvent('POST', '/convert/text', { headers, body, requestId: randomUUID() });

const context = {
  functionName: 'test-fn',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:us-east-1:000000000000:function:test-fn',
  memoryLimitInMB: '256',
  awsRequestId: 'lambda-req-1',
  getRemainingTimeInMillis: () => 10_000,
} as unknown as Context;

describe('request log lines', () => {
  test('carry the API Gateway request id, the route and cold_start; the failure is logged without the secrets', async () => {
    const handler = apiHandler(async (req) => {
      logger.info('working', { bytes: req.rawBody().length });
      throw new Error(`backend refused Bearer ${API_KEY} while narrating "${SECRET_TEXT}"`);
    });
    const ev = event(JSON.stringify({ text: SECRET_TEXT }), { authorization: `Bearer ${API_KEY}` });
    let status = 0;
    const { raw, lines } = await capture(async () => {
      const res = (await handler(ev, context)) as { statusCode: number };
      status = res.statusCode;
    });
    expect(status).toBe(500);
    expect(raw).not.toContain(API_KEY);
    const requestLines = lines.filter((l) => l.message === 'working' || l.message === 'unhandled error');
    expect(requestLines).toHaveLength(2);
    for (const line of requestLines) {
      expect(line).toMatchObject({
        request_id: ev.requestContext.requestId,
        route: 'POST /convert/text',
        cold_start: expect.any(Boolean),
        function_request_id: 'lambda-req-1',
      });
    }
    // The keys are per request: the next request's lines carry its own id.
    const ev2 = event('{}', {});
    const second = await capture(() =>
      apiHandler(async () => {
        logger.info('second');
        return { statusCode: 204, body: '' };
      })(ev2, context),
    );
    expect(second.lines.find((l) => l.message === 'second')).toMatchObject({
      request_id: ev2.requestContext.requestId,
    });
  });
});
