// The idempotent retry of POST /convert/url (cases of ../safe-fetch.test.ts, which starts the loopback origin): a
// retry whose first request made its conversion durable continues it without fetching the page again.
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import { makeHandler } from '../../../lambdas/narration/handlers/convert-url';
import { freeRules } from '../../../lambdas/narration/use-cases/free-charge';
import { ipSubject } from '../../../lambdas/shared/auth/resolve-caller';
import type { IdempotencyStore } from '../../../lambdas/shared/idempotency/idempotency';
import type { SafeFetchOptions } from '../../../lambdas/shared/net/safe-fetch';
import { fakeNarrationDeps } from '../../fakes/narration';

export function urlRetryCases(
  env: () => { origin: { port: number; requests: string[] }; fetchOptions: SafeFetchOptions },
  event: (body: unknown) => APIGatewayProxyEventV2,
  context: Context,
): void {
  describe('an idempotent retry of POST /convert/url', () => {
    test('whose first request made its conversion durable: continued without fetching the page again, charged once', async () => {
      const f = fakeNarrationDeps({ config: { SYNC_MAX_CHARS: 40, WAIT_WINDOW_S: 0 } });
      // The key's record as a request that died before keeping its answer leaves it: the retry takes the key over.
      Object.assign(f.deps, {
        idempotency: {
          begin: async () => ({ state: 'started' }),
          complete: async () => undefined,
          release: async () => undefined,
        } satisfies IdempotencyStore,
      });
      const { origin, fetchOptions } = env();
      const h = makeHandler(f.deps, fetchOptions);
      const send = async () => {
        const e = event({ url: `http://127.0.0.1:${origin.port}/once` });
        e.headers['idempotency-key'] = 'retry-url-1';
        const res = (await h(e, context)) as { statusCode: number; body: string };
        return { status: res.statusCode, body: JSON.parse(res.body) as Record<string, unknown> };
      };
      const first = await send();
      expect(first).toMatchObject({ status: 202, body: { status: 'queued' } });
      const retry = await send(); // the page is gone now (404): fetched again, this would be a 422
      expect(retry).toMatchObject({
        status: 202,
        body: { audio_id: first.body.audio_id, title: first.body.title, chars: first.body.chars },
      });
      expect(origin.requests.filter((r) => r === 'GET /once')).toHaveLength(1);
      const used = await f.quotas.peek(ipSubject('203.0.113.50'), freeRules(f.deps), new Date());
      expect(used.map((w) => w.used)).toEqual([1, 1]);
    });
  });
}
