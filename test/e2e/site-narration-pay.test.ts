// The narration site's pricing, checkout, /gracias and waitlist in a real browser (headless Chromium on the real
// local runtime; Stripe is the local stand-in, test/helpers/billing-stripe.ts). The pricing is the A/B experiment
// `precios`: a visitor of each variant sees that variant's layout, seeing the pricing records an exposure, a click
// on a plan a conversion (counted in GET /ab/results with the dashboard token), and the checkout the API creates at
// the stand-in carries the experiment's ref. After paying, Stripe's success_url (/gracias) shows the key once with
// a working copy button. A waitlist sign-up is counted. axe-core finds no serious or critical violation; no request
// leaves loopback.
import { join } from 'node:path';
import type { Browser, HTTPRequest, Page } from 'puppeteer-core';
import { assignVariant, parseExperiments } from '../../lambdas/shared/growth/experiments';
import { expectNoSeriousA11yViolations } from '../helpers/axe';
import { launchChromium, loopbackPage } from '../helpers/browser';
import {
  TEST_PRICE_LIFETIME,
  TEST_PRICE_PRO,
  TEST_SECRET_KEY,
  TEST_WEBHOOK_SECRET,
  startStripeStandIn,
  type StripeStandIn,
} from '../helpers/billing-stripe';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(300_000); // its waits allow a loaded machine minutes

const EXPERIMENTS_JSON = JSON.stringify({ precios: { variants: { mensual: 1, vitalicio: 1 } } });
const EXPERIMENT = parseExperiments(EXPERIMENTS_JSON).get('precios')!;
const TOKEN = 'tablero-de-pruebas-0123456789';

/** A visitor id (the page keeps it in localStorage) that the experiment assigns to `variant`. */
function visitorOf(variant: string): string {
  for (let i = 0; i < 1000; i++) {
    const v = `visitante-prueba-${i}`;
    if (assignVariant(EXPERIMENT, v) === variant) return v;
  }
  throw new Error(`no visitor for ${variant}`);
}

const files = tempDir('site-pay-');
let tripwire: Tripwire;
let stripe: StripeStandIn;
let rt: TestRuntime;
let browser: Browser;
const blocked: string[] = [];
/** Browser navigations to the stand-in's hosted checkout page (answered by the browser's interceptor). */
const checkoutPages: string[] = [];
const pages: Page[] = [];

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  stripe = await startStripeStandIn();
  rt = await startRuntime(
    {
      STRIPE_SECRET_KEY: TEST_SECRET_KEY,
      STRIPE_API_BASE: stripe.base,
      STRIPE_WEBHOOK_SECRET: TEST_WEBHOOK_SECRET,
      STRIPE_PRICE_PRO: TEST_PRICE_PRO,
      STRIPE_PRICE_LIFETIME: TEST_PRICE_LIFETIME,
      AB_EXPERIMENTS: EXPERIMENTS_JSON,
      DASHBOARD_TOKEN: TOKEN,
    },
    { startWorker: false },
  );
  browser = await launchChromium(join(files.path, 'profile'));
  await browser
    .defaultBrowserContext()
    .overridePermissions(new URL(rt.url('/')).origin, [
      'clipboard-read',
      'clipboard-write',
      'clipboard-sanitized-write',
    ]);
});

afterAll(async () => {
  await browser?.close();
  await rt?.stop();
  await stripe?.stop();
  files.cleanup();
  tripwire?.uninstall();
  expect(tripwire.attempts).toEqual([]);
  // Only the API talked to the stand-in, with the right key and version.
  expect(stripe.rejected).toEqual([]);
});

afterEach(async () => {
  while (pages.length) await pages.pop()!.close();
});

/** The stand-in's hosted page is Stripe's in real life: the browser gets a stub from the interceptor. */
async function stripePage(req: HTTPRequest): Promise<boolean> {
  if (!req.url().startsWith(stripe.base)) return false;
  checkoutPages.push(req.url());
  await req.respond({
    status: 200,
    contentType: 'text/html',
    body: '<!doctype html><title>Stripe</title><p>Pago</p>',
  });
  return true;
}

/** A page with `visitor` already in localStorage (a returning visitor), at `path`. */
async function open(path: string, visitor?: string): Promise<Page> {
  const page = await loopbackPage(browser, blocked, stripePage);
  pages.push(page);
  if (visitor) {
    await page.goto(rt.url('/site/app.css'));
    await page.evaluate(`localStorage.setItem('voz-visitante', ${JSON.stringify(visitor)})`);
  }
  await page.goto(rt.url(path), { waitUntil: 'load' });
  return page;
}

async function results(): Promise<Record<string, { exposures: number; conversions: number }>> {
  const res = await fetch(rt.url('/ab/results/precios'), { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(res.status).toBe(200);
  const body = (await res.json()) as {
    variants: { variant: string; exposures: number; conversions: number }[];
  };
  return Object.fromEntries(body.variants.map((v) => [v.variant, v]));
}

/** Polls GET /ab/results until `check` holds (events are sent with sendBeacon, so they land shortly after). */
async function resultsUntil(check: (r: Awaited<ReturnType<typeof results>>) => boolean) {
  const deadline = Date.now() + 60_000; // generous: a loaded machine (the bound only ends a hang)
  let r = await results();
  while (!check(r) && Date.now() < deadline) {
    await new Promise((ok) => setTimeout(ok, 100));
    r = await results();
  }
  return r;
}

/**
 * Scrolls the pricing into view once the voices above it have rendered (they arrive after load from GET /voices and
 * push the pricing down: scrolled earlier, it could leave the screen before the page saw it).
 */
async function showPricing(page: Page) {
  await page.waitForFunction(`document.querySelectorAll('#lista-voces li').length > 0`, { timeout: 15_000 });
  await page.evaluate(`document.querySelector('#precios').scrollIntoView()`);
}

const visible = (page: Page, sel: string) =>
  page.evaluate(`(() => { const e = document.querySelector(${JSON.stringify(sel)});
    return !!e && getComputedStyle(e).display !== 'none'; })()`) as Promise<boolean>;

test('each variant: its layout, one exposure when the pricing is seen (not before), none twice on reload', async () => {
  const before = await results();
  expect(before.mensual!.exposures + before.vitalicio!.exposures).toBe(0);
  for (const variant of ['mensual', 'vitalicio']) {
    const page = await open('/', visitorOf(variant));
    await page.waitForFunction(`document.documentElement.dataset.precios === ${JSON.stringify(variant)}`, {
      timeout: 10_000,
    });
    expect(await visible(page, '.precios-lema.variante-mensual')).toBe(variant === 'mensual');
    expect(await visible(page, '.precios-lema.variante-vitalicio')).toBe(variant === 'vitalicio');
    // Each checkout link carries the ref the API assigned.
    const href = (await page.evaluate(`document.querySelector('a.comprar[data-plan=pro]').href`)) as string;
    expect(new URL(href).searchParams.get('ref')).toBe(`ab:precios:${variant}:${visitorOf(variant)}`);
    // Not on screen yet: no exposure.
    expect((await results())[variant]!.exposures).toBe(0);
    await showPricing(page);
    const r = await resultsUntil((x) => x[variant]!.exposures === 1);
    expect(r[variant]!.exposures).toBe(1);
    // A reload by the same visitor is not a second exposure.
    const again = page.waitForResponse((res) => res.url().endsWith('/ab/event'));
    await page.reload({ waitUntil: 'load' });
    await showPricing(page);
    // The page reports it again (a beacon, whose body the browser does not keep); the API counts it once.
    expect((await again).status()).toBe(200);
    expect((await results())[variant]!.exposures).toBe(1);
  }
});

let sessionId: string;

test('a click on "Elegir Pro" → a conversion is counted and the checkout at Stripe carries the experiment ref', async () => {
  const visitor = visitorOf('vitalicio');
  const page = await open('/', visitor);
  await page.waitForFunction(`document.documentElement.dataset.precios === 'vitalicio'`, { timeout: 10_000 });
  const sessionsBefore = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions').length;
  await showPricing(page);
  await Promise.all([page.waitForNavigation({ timeout: 20_000 }), page.click('a.comprar[data-plan=pro]')]);
  // The browser was sent to the hosted checkout page of the session the API created.
  expect(checkoutPages).toHaveLength(1);
  sessionId = checkoutPages[0]!.split('/').pop()!;
  const created = stripe.requests.filter((r) => r.path === '/v1/checkout/sessions');
  expect(created).toHaveLength(sessionsBefore + 1);
  const sent = created.at(-1)!.form;
  expect(sent['metadata[ref]']).toBe(`ab:precios:vitalicio:${visitor}`);
  expect(sent['metadata[plan]']).toBe('pro');
  expect(sent.success_url).toBe(rt.url('/gracias?session_id={CHECKOUT_SESSION_ID}'));
  expect(sent.cancel_url).toBe(rt.url('/#precios'));
  const r = await resultsUntil((x) => x.vitalicio!.conversions === 1);
  expect(r.vitalicio!.conversions).toBe(1);
  expect(r.mensual!.conversions).toBe(0);
});

test('/gracias (Stripe success_url) shows the key once, copies it, and drops the session id from the address', async () => {
  stripe.complete(sessionId, { email: 'ana@ejemplo.mx' });
  const page = await open(`/gracias?session_id=${sessionId}`);
  await page.waitForSelector('#clave-caja:not([hidden])', { timeout: 20_000 });
  const key = (await page.evaluate(`document.querySelector('#clave').textContent`)) as string;
  expect(key.length).toBeGreaterThan(20);
  // The key works: the API knows it as a Pro key.
  const status = await fetch(rt.url('/pay/status'), { headers: { authorization: `Bearer ${key}` } });
  expect(((await status.json()) as { plan: string }).plan).toBe('pro');
  expect(new URL(page.url()).search).toBe('');
  await page.click('#copiar');
  await page.waitForFunction(`document.querySelector('#copiado').textContent !== ''`);
  expect(await page.evaluate(`document.querySelector('#copiado').textContent`)).toBe(
    'Clave copiada al portapapeles.',
  );
  expect(await page.evaluate(`navigator.clipboard.readText()`)).toBe(key);
  await expectNoSeriousA11yViolations(page, '/gracias');

  // Shown once: the same link again says so (in Spanish) and shows no key.
  const second = await open(`/gracias?session_id=${sessionId}`);
  await second.waitForFunction(`document.querySelector('#error').textContent !== ''`, { timeout: 20_000 });
  expect(await second.evaluate(`document.querySelector('#error strong').textContent`)).toMatch(
    /la clave ya se mostró antes/,
  );
  expect(await second.evaluate(`document.querySelector('#clave-caja').hidden`)).toBe(true);
  expect(await second.evaluate(`document.querySelector('#clave').textContent`)).toBe('');

  // An unknown session: a clear message, not a blank.
  const unknown = await open('/gracias?session_id=cs_test_noexiste0000000000');
  await unknown.waitForFunction(`document.querySelector('#error').textContent !== ''`, { timeout: 20_000 });
  expect(await unknown.evaluate(`document.querySelector('#error strong').textContent`)).toBe(
    'No encontramos esa compra. Revisa el enlace o escríbenos.',
  );
});

test('waitlist: a sign-up with its interest is counted and the page says so; a bad e-mail is explained', async () => {
  const page = await open('/');
  await page.waitForFunction(`document.querySelector('#lista-cuenta').textContent !== ''`, {
    timeout: 10_000,
  });
  expect(await page.evaluate(`document.querySelector('#lista-cuenta').textContent`)).toBe(
    'Sé la primera persona de la lista.',
  );
  await page.type('#correo', 'ana@');
  await page.click('#forma-lista button[type=submit]');
  await page.waitForFunction(`document.querySelector('#lista-error').textContent !== ''`);
  expect(await page.evaluate(`document.querySelector('#lista-error').textContent`)).toMatch(
    /^Escribe un correo electrónico válido/,
  );
  await page.type('#correo', 'ejemplo.mx');
  await page.click('#forma-lista input[value=lifetime]');
  const sent = page.waitForRequest((r) => r.url().endsWith('/waitlist') && r.method() === 'POST');
  await page.click('#forma-lista button[type=submit]');
  expect(JSON.parse((await sent).postData()!)).toEqual({
    email: 'ana@ejemplo.mx',
    source: 'sitio',
    interest: 'lifetime',
  });
  await page.waitForFunction(`document.querySelector('#lista-estado').textContent.startsWith('¡Listo!')`, {
    timeout: 10_000,
  });
  expect(await page.evaluate(`document.querySelector('#lista-estado').textContent`)).toBe(
    '¡Listo! Estás en la lista (lugar 1).',
  );
  expect(await page.evaluate(`document.querySelector('#lista-error').textContent`)).toBe('');
  const count = (await (await fetch(rt.url('/waitlist/count'))).json()) as { count: number };
  expect(count.count).toBe(1);
  await page.waitForFunction(`document.querySelector('#lista-cuenta').textContent === 'Ya hay 1 persona.'`);

  // axe on the page in the vitalicio layout, desktop and phone.
  const alt = await open('/', visitorOf('vitalicio'));
  await alt.waitForFunction(`document.documentElement.dataset.precios === 'vitalicio'`, { timeout: 10_000 });
  await expectNoSeriousA11yViolations(alt, '/ (precios: vitalicio, escritorio)');
  await alt.setViewport({ width: 390, height: 844, isMobile: true, hasTouch: true });
  await expectNoSeriousA11yViolations(alt, '/ (precios: vitalicio, teléfono)');
  expect(blocked).toEqual([]);
});
