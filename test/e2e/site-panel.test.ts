// The dashboard: GET /dashboard/summary over HTTP against the local runtime (token required: 401 without or with a
// wrong one, 503 when none is configured, 200 with counts that follow real sign-ups, A/B events, and a message
// dead-lettered in the emulator's DLQ), and the /panel page in real headless Chromium: a wrong token gives a clear
// Spanish message (and the token never appears in a URL), the right one shows the A/B tables, waitlist, statistics
// and DLQ depth exactly as the API reports them; axe-core finds no serious/critical violation; no request leaves
// loopback.
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Browser, Page } from 'puppeteer-core';
import type { NarrationDeps } from '../../lambdas/narration/deps';
import { makeHandler as makeSummaryHandler } from '../../lambdas/narration/handlers/dashboard-summary';
import { config as rtConfig } from '../../lambdas/narration/config';
import type { DashboardSummary } from '../../lambdas/narration/use-cases/dashboard';
import { apiEvent, callHandler, untouchedDeps } from '../helpers/api-event';
import { expectNoSeriousA11yViolations } from '../helpers/axe';
import { launchChromium, loopbackPage } from '../helpers/browser';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

const TOKEN = 'panel-token-0123456789abcdef';
const EXPERIMENTS_JSON = JSON.stringify({
  'landing-cta': { variants: { control: 1, b: 1 } },
  pricing: { variants: { a: 1, b: 1 }, control: 'a' },
});

let tripwire: Tripwire;
let rt: TestRuntime;
let browser: Browser;
const profile = tempDir('panel-chrome-');
const blocked: string[] = [];

let ipSeq = 0;
const freshIp = () => ({ 'x-forwarded-for': `198.51.100.${++ipSeq}` });

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  rt = await startRuntime(
    { AB_EXPERIMENTS: EXPERIMENTS_JSON, DASHBOARD_TOKEN: TOKEN },
    { trustProxy: true, startWorker: false, documents: false },
  );
  // Real sign-ups (sources, one A/B ref), real A/B events, and one message in the priority DLQ.
  const signUps: [string, string | undefined, string | undefined][] = [
    ['ana@example.com', 'blog', 'pro'],
    ['beto@example.com', 'Twitter', undefined],
    ['caro@example.com', 'twitter', 'lifetime'],
    ['dani@example.com', undefined, undefined],
    ['eli@example.com', 'ab:pricing:b:visitor-b-0001', 'pro'],
  ];
  for (const [email, source, interest] of signUps) {
    const res = await postJson(rt.url('/waitlist'), { email, source, interest }, freshIp());
    expect(res.status).toBe(200);
  }
  for (let i = 0; i < 6; i++) {
    const visitor = `visitor-${String(i).padStart(4, '0')}`;
    for (const type of i % 2 ? ['exposure'] : ['exposure', 'conversion']) {
      const res = await postJson(
        rt.url('/ab/event'),
        { experiment: 'landing-cta', visitor, type },
        freshIp(),
      );
      expect(res.status).toBe(200);
    }
  }
  const sqs = new SQSClient({});
  await sqs.send(
    new SendMessageCommand({
      QueueUrl: rt.emulators.env['PRIORITY_DLQ_URL']!,
      MessageBody: JSON.stringify({ audioId: 'dead-1' }),
    }),
  );
  sqs.destroy();
  browser = await launchChromium(profile.path);
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  profile.cleanup();
  tripwire?.uninstall();
  expect(tripwire?.attempts ?? []).toEqual([]);
  expect(blocked).toEqual([]);
});

// Page-side code is passed as strings (the tests compile without the DOM library).
const DASHBOARD_SHOWN = `document.querySelector('#dashboard')?.hidden === false`;

const summary = async (headers: Record<string, string>) => fetch(rt.url('/dashboard/summary'), { headers });

describe('GET /dashboard/summary', () => {
  test('without a token → 401 naming both headers; a wrong one → 401', async () => {
    const none = await summary({});
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(((await none.json()) as { detail: string }).detail).toMatch(/X-Dashboard-Token/);
    const wrong = await summary({ authorization: 'Bearer not-the-token-at-all' });
    expect(wrong.status).toBe(401);
    expect(((await wrong.json()) as { detail: string }).detail).toBe('Wrong dashboard token.');
  });

  test('no DASHBOARD_TOKEN configured → 503 naming the variable, even with a token', async () => {
    // Deps holding only the config: the refusal must come before any storage or queue is touched.
    const deps = untouchedDeps<NarrationDeps>({
      config: { ...rtConfig(), DASHBOARD_TOKEN: undefined },
      now: () => new Date(),
    });
    const depth = untouchedDeps<{ depth: () => Promise<{ visible: number; inFlight: number }> }>({});
    const res = await callHandler(
      makeSummaryHandler(deps, depth),
      apiEvent('GET', '/dashboard/summary', { headers: { authorization: `Bearer ${TOKEN}` } }),
    );
    expect(res.statusCode).toBe(503);
    expect(res.json.detail).toMatch(/DASHBOARD_TOKEN/);
  });

  test('200 with either header: the counts follow the sign-ups, events and the dead-lettered message', async () => {
    const res = await summary({ 'x-dashboard-token': TOKEN });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as DashboardSummary;
    expect(body.experiments).toEqual(['landing-cta', 'pricing']);
    expect(body.waitlist).toEqual({
      count: 5,
      interest: { pro: 2, lifetime: 1 },
      sources: [
        { source: 'twitter', count: 2 },
        { source: 'ab:pricing:b', count: 1 },
        { source: 'blog', count: 1 },
      ],
      distinct_sources: 3,
    });
    expect(body.stats).toMatchObject({ conversions: 0, waitlist: 5 });
    expect(body.failures.jobs).toMatchObject({ total: 0, last_7_days: 0 });
    expect(body.failures.jobs.by_day).toHaveLength(7);
    expect(body.failures.dlqs).toEqual([
      { queue: 'priority', messages: 1, in_flight: 0 },
      { queue: 'standard', messages: 0, in_flight: 0 },
      { queue: 'webhooks', messages: 0, in_flight: 0 },
    ]);
    const bearer = await summary({ authorization: `Bearer ${TOKEN}` });
    expect(bearer.status).toBe(200);
  });
});

describe('/panel in headless Chromium', () => {
  let page: Page;
  /** Every request the page made: URL and whether it carried the token in a header. */
  const requests: { url: string; authorized: boolean }[] = [];

  beforeAll(async () => {
    page = await loopbackPage(browser, blocked);
    page.on('request', (req) =>
      requests.push({ url: req.url(), authorized: req.headers()['authorization'] === `Bearer ${TOKEN}` }),
    );
  });

  const text = (selector: string) => page.$eval(selector, (e) => (e.textContent ?? '').trim());

  test('a wrong token: a clear Spanish message, the form stays, nothing is stored', async () => {
    const res = await page.goto(rt.url('/panel'), { waitUntil: 'load' });
    expect(res?.status()).toBe(200);
    expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self'/);
    await expectNoSeriousA11yViolations(page, '/panel (login form)');
    await page.type('#token', 'esto-no-es-el-token');
    await page.click('#login button[type=submit]');
    await page.waitForFunction(
      `document.querySelector('#login-status')?.classList.contains('error') === true`,
      {
        timeout: 15_000,
      },
    );
    expect(await text('#login-status')).toBe(
      'El token no es correcto. Revísalo (sin espacios de más) y vuelve a intentarlo.',
    );
    expect(await page.evaluate(`document.querySelector('#dashboard').hidden`)).toBe(true);
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    await expectNoSeriousA11yViolations(page, '/panel (wrong token)');
  });

  test('the right token: the A/B tables, waitlist, statistics and DLQ depth match the API', async () => {
    await page.evaluate(`document.querySelector('#token').value = ''`);
    await page.type('#token', TOKEN);
    await page.click('#login button[type=submit]');
    await page.waitForFunction(DASHBOARD_SHOWN, { timeout: 15_000 });
    const nf = new Intl.NumberFormat('es-MX');
    const pct = (x: number | null, signed = false) =>
      x === null ? '—' : `${signed && x > 0 ? '+' : ''}${(x * 100).toFixed(1)} %`;
    for (const experiment of ['landing-cta', 'pricing']) {
      const api = (await (
        await fetch(rt.url(`/ab/results/${experiment}`), { headers: { authorization: `Bearer ${TOKEN}` } })
      ).json()) as {
        variants: {
          variant: string;
          exposures: number;
          conversions: number;
          rate: number | null;
          uplift: number | null;
          z: number | null;
          p_value: number | null;
          significant: boolean | null;
        }[];
      };
      for (const v of api.variants) {
        const cell = (field: string) =>
          text(
            `table[data-experiment="${experiment}"] tr[data-variant="${v.variant}"] [data-field="${field}"]`,
          );
        expect(await cell('exposures')).toBe(nf.format(v.exposures));
        expect(await cell('conversions')).toBe(nf.format(v.conversions));
        expect(await cell('rate')).toBe(pct(v.rate));
        expect(await cell('uplift')).toBe(pct(v.uplift, true));
        expect(await cell('z')).toBe(v.z === null ? '—' : v.z.toFixed(2));
        expect(await cell('p_value')).toBe(v.p_value === null ? '—' : v.p_value.toFixed(4));
        expect(await cell('significant')).toBe(v.significant === null ? '—' : v.significant ? 'Sí' : 'No');
      }
    }
    // landing-cta: 6 exposures, 3 conversions, split by the deterministic assignment.
    const shown = await page.$$eval(
      'table[data-experiment="landing-cta"] [data-field="exposures"]',
      (cells) => cells.reduce((s, c) => s + Number(c.textContent), 0),
    );
    expect(shown).toBe(6);
    expect(await text('[data-field="waitlist-count"]')).toBe('5');
    expect(await text('[data-field="interest-pro"]')).toBe('2');
    expect(await text('#sources tr[data-source="twitter"] [data-field="count"]')).toBe('2');
    expect(await text('#sources tr[data-source="ab:pricing:b"] [data-field="count"]')).toBe('1');
    expect(await text('#dlqs tr[data-queue="priority"] [data-field="messages"]')).toBe('1');
    expect(await text('#dlqs tr[data-queue="standard"] [data-field="messages"]')).toBe('0');
    expect(await text('[data-field="failed-total"]')).toBe('0');
    await expectNoSeriousA11yViolations(page, '/panel (dashboard)');
  });

  test('the token travels only in a header, never in a URL; a reload stays signed in (sessionStorage)', async () => {
    const api = requests.filter((r) => /\/(dashboard|ab)\//.test(r.url));
    expect(api.length).toBeGreaterThanOrEqual(3);
    for (const r of [...requests, { url: page.url(), authorized: false }]) expect(r.url).not.toContain(TOKEN);
    expect(api.filter((r) => r.authorized).length).toBeGreaterThanOrEqual(3);
    await page.reload({ waitUntil: 'load' });
    await page.waitForFunction(DASHBOARD_SHOWN, { timeout: 15_000 });
    await page.click('#logout');
    expect(await page.evaluate('sessionStorage.length')).toBe(0);
    expect(await page.evaluate(`document.querySelector('#login').hidden`)).toBe(false);
  });
});
