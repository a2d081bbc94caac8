// POST /v1/render over HTTP while Chromium fails under it (the renderer-level cases are in
// test/integration/documents-chromium-lifecycle.test.ts): a browser that cannot start is a 500 with the request id,
// a browser killed between requests is replaced, a browser that hangs does not hang the request; a render that
// delivered nothing is never counted against the monthly allowance. No network: Chromium renders our own HTML.
import { join } from 'node:path';
import { awsDeps, type DocumentsDeps } from '../../lambdas/documents/deps';
import { monthlyRules } from '../../lambdas/documents/core/plans';
import { chargedSince, countersNow } from '../helpers/quota-window';
import { findTemplate } from '../../lambdas/documents/domain/template-registry';
import { Renderer } from '../../lambdas/documents/render/chromium';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import type { LambdaHandler } from '../../lib/local/front';
import { tempDir } from '../helpers/env';
import { startFronts, type Fronts } from '../helpers/front-runtime';

jest.setTimeout(300_000); // its waits allow a loaded machine minutes

let fronts: Fronts;
let renderer: Renderer;
const renderers: Renderer[] = [];
const dir = tempDir('faults-chromium-');

function useRenderer(options: ConstructorParameters<typeof Renderer>[0]): Renderer {
  renderer = new Renderer(options);
  renderers.push(renderer);
  return renderer;
}

beforeAll(async () => {
  fronts = await startFronts({
    services: ['documents'],
    override: async (route) => {
      if (route.id !== 'Render') return undefined;
      const base = awsDeps();
      const deps: DocumentsDeps = Object.assign(Object.create(base) as DocumentsDeps, {
        renderer: async () => ({
          renderPdf: (html: string, o: Parameters<Renderer['renderPdf']>[1]) => renderer.renderPdf(html, o),
          renderPng: (html: string, o: Parameters<Renderer['renderPng']>[1]) => renderer.renderPng(html, o),
        }),
      });
      const { makeHandler } = await import('../../lambdas/documents/handlers/render');
      return makeHandler(deps) as unknown as LambdaHandler;
    },
  });
});

afterAll(async () => {
  await Promise.all(renderers.map((r) => r.close()));
  await fronts?.stop();
  dir.cleanup();
});

/** Every request is bounded (no hang): a render that does not answer in `timeoutMs` fails the test. */
async function render(timeoutMs = 60_000) {
  const res = await fetch(`${fronts.urls.documents}/v1/render`, {
    signal: AbortSignal.timeout(timeoutMs),
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ template: 'ventas', format: 'pdf', data: findTemplate('ventas')!.sample }),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const body = /json/.test(res.headers.get('content-type') ?? '')
    ? (JSON.parse(bytes.toString('utf8')) as Record<string, unknown>)
    : {};
  return { res, bytes, body };
}

/** This client's documents counted this month (every request comes from 127.0.0.1, free plan), for chargedSince. */
const counted = () =>
  countersNow(
    awsDeps().quotas,
    `docs#${ipSubject('127.0.0.1')}`,
    monthlyRules('free').map((r) => r.period),
  );

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('Chromium cannot start: 500 with the request id, in {"detail"}, and the render is not counted', async () => {
  useRenderer({ executablePath: join(dir.path, 'no-such-chromium') });
  const before = await counted();
  const { res, body } = await render();
  expect(res.status).toBe(500);
  const id = res.headers.get('x-request-id');
  expect(id).toMatch(/\S/);
  expect(body.request_id).toBe(id);
  expect(String(body.detail)).toContain(id!);
  expect(String(body.detail)).not.toMatch(/no-such-chromium|Chromium did not start/); // internals stay in the logs
  expect(await chargedSince(awsDeps().quotas, before)).toEqual([0]);
});

test('Chromium killed between requests: the next request gets a fresh browser and its PDF', async () => {
  const r = useRenderer({});
  const first = await render();
  expect(first.res.status).toBe(200);
  expect(first.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const pid = r.stats().browserPid!;
  r.browserProcess()!.kill('SIGKILL');
  const second = await render();
  expect(second.res.status).toBe(200);
  expect(second.bytes.subarray(0, 5).toString()).toBe('%PDF-');
  expect(r.stats().browserPid).not.toBe(pid);
  expect(r.stats().launches).toBe(2);
});

test('Chromium hangs: the request is answered within the render timeout, not counted, and the next one works', async () => {
  const r = useRenderer({ renderTimeoutMs: 3_000 });
  // Warmed first (its browser started, a page made) under a limit of its own: the 3 s are for the hang below, and a
  // cold first render on a loaded machine can take longer (ci55: a trivial one took over 1.5 s at load ~10).
  await r.renderPdf('<p>calentar</p>', { timeoutMs: 60_000 });
  expect((await render()).res.status).toBe(200);
  const before = await counted();
  const pid = r.stats().browserPid!;
  process.kill(pid, 'SIGSTOP'); // the browser stops answering, as a wedged renderer does
  const hung = await render(15_000);
  // A built-in template never needs the whole render timeout: the browser is at fault, so 503 + Retry-After (a
  // caller's own HTML would get 400 naming the timeout: there the document may be what is too heavy).
  expect(hung.res.status).toBe(503);
  expect(hung.res.headers.get('retry-after')).toMatch(/^\d+$/);
  expect(String(hung.body.detail)).toMatch(/retry/i);
  expect(hung.res.headers.get('x-request-id')).toMatch(/\S/);
  expect(await chargedSince(awsDeps().quotas, before)).toEqual([0]);
  const next = await render();
  expect(next.res.status).toBe(200);
  expect(r.stats().browserPid).not.toBe(pid);
  // The stopped browser was killed, not leaked.
  const deadline = Date.now() + 60_000; // generous: a loaded machine (the bound only ends a hang)
  while (alive(pid) && Date.now() < deadline) await new Promise((res) => setTimeout(res, 100));
  expect(alive(pid)).toBe(false);
});
