// The account's brand (PUT/GET/DELETE /v1/brand) over HTTP against the local runtime, with what it prints: a key's
// factura without options.marca carries its account's logo, colour, notes and legend — synchronous, async (the brand
// of the request's time, through the render worker) and in a merge — and stays SAT-complete, checked with independent
// tools: pdftotext (UUID, RFCs, total, notes, the legend on every page), qpdf --check, zbarimg (the SAT verification
// QR), pdfimages (the logo at its size), pdftoppm pixels (the colour). Negative controls: another account,
// `"marca": {}`, and after DELETE print no brand. Network rule: every connection goes to loopback (a tripwire).
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { PNG } from 'pngjs';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { putApiKey } from '../helpers/api-keys';
import { documentsClient, settled } from '../helpers/documents-client';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { pdftotext } from '../helpers/pdftotext';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import { pdfInfo, zbarQr } from '../helpers/template-render';

jest.setTimeout(180_000);

let rt: TestRuntime;
let tripwire: Tripwire;
const files = tempDir('docs-brand-');
const keys = { brandA: generateKey(), brandA2: generateKey(), brandB: generateKey(), brandS: generateKey() };
const { send, call, waitJob } = documentsClient(() => rt.documentsUrl!);

beforeAll(async () => {
  tripwire = installLoopbackTripwire();
  rt = await startRuntime();
  await putApiKey(rt, keys.brandA, 'pro', 'cus_brand_A');
  await putApiKey(rt, keys.brandA2, 'pro', 'cus_brand_A'); // a second key of account A
  await putApiKey(rt, keys.brandB, 'pro', 'cus_brand_B');
  await putApiKey(rt, keys.brandS, 'scale', 'cus_brand_S');
});

afterAll(async () => {
  tripwire?.uninstall();
  await rt?.stop();
  files.cleanup();
});

afterEach(() => {
  // Nothing in this file may even try to reach a non-loopback address.
  expect(tripwire.attempts).toEqual([]);
});

const GREEN = [0x0b, 0x6e, 0x4f] as const;
const XML = readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', 'ingreso-basico.xml'), 'utf8');
const UUID = 'F0A19269-6038-47DD-A9CF-9D9EBCF42886';

function pngLogo(w: number, h: number): string {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < w * h; i++) png.data.set([...GREEN, 255], i * 4);
  return `data:image/png;base64,${PNG.sync.write(png).toString('base64')}`;
}
const MARCA = {
  logo: pngLogo(180, 54),
  color: '#0b6e4f',
  notas: 'Pagos a la CLABE 012180001234567891, referencia con su folio.',
  leyenda_pie: 'Fletes del Bajío · www.fletes-bajio.example',
};

let n = 0;
/** POST /v1/render → the PDF written to a file. */
async function render(key: string, body: Record<string, unknown>): Promise<string> {
  const res = await send('POST', '/v1/render', key, { format: 'pdf', ...body });
  expect(res.status).toBe(200);
  return save(Buffer.from(await res.arrayBuffer()));
}

function save(bytes: Buffer): string {
  const file = join(files.path, `brand-${++n}.pdf`);
  writeFileSync(file, bytes);
  return file;
}

const images = (file: string) =>
  execFileSync('pdfimages', ['-list', file], { encoding: 'utf8' })
    .split('\n')
    .slice(2)
    .filter(Boolean)
    .map((l) => l.trim().split(/\s+/).slice(3, 5).join('×'));

/** Pixels of page 1 within 6 levels of the brand green (pdftoppm at 40 dpi). */
function greenPixels(file: string): number {
  const base = join(files.path, `px-${++n}`);
  execFileSync('pdftoppm', ['-png', '-r', '40', '-singlefile', '-f', '1', '-l', '1', file, base]);
  const page = PNG.sync.read(readFileSync(`${base}.png`));
  let green = 0;
  for (let i = 0; i < page.data.length; i += 4)
    if (GREEN.every((c, k) => Math.abs(page.data[i + k]! - c) <= 6)) green++;
  return green;
}

/** The checks of a plain factura (pdftotext, qpdf, QR) and the brand's marks. */
function expectBranded(file: string) {
  const text = pdftotext(file).replace(/\s+/g, ' ');
  for (const s of [UUID, 'EKU9003173C9', 'URE180429TM6', '32,044.97', MARCA.notas]) expect(text).toContain(s);
  expect(text.split(MARCA.leyenda_pie).length - 1).toBe(pdfInfo(file).pages);
  execFileSync('qpdf', ['--check', file], { encoding: 'utf8' }); // throws on a damaged file
  const base = join(files.path, `qr-${++n}`);
  execFileSync('pdftoppm', ['-gray', '-r', '200', '-f', '1', '-l', '1', '-singlefile', file, base]);
  expect(zbarQr(`${base}.pgm`)).toContain(`id=${UUID}`);
  expect(images(file)).toEqual(['180×54']);
  expect(greenPixels(file)).toBeGreaterThan(1000);
}

function expectUnbranded(file: string) {
  const text = pdftotext(file).replace(/\s+/g, ' ');
  expect(text).toContain(UUID);
  expect(text).not.toContain(MARCA.notas);
  expect(text).not.toContain(MARCA.leyenda_pie);
  expect(images(file)).toEqual([]);
}

describe("the account's brand (/v1/brand) and what it prints", () => {
  it('needs a key, says what is wrong with a brand (all at once), and stores one per account', async () => {
    expect((await call('PUT', '/v1/brand', undefined, MARCA)).status).toBe(401);
    expect((await call('GET', '/v1/brand')).status).toBe(401);
    expect((await call('GET', '/v1/brand', keys.brandA)).status).toBe(404);

    const bad = await call('PUT', '/v1/brand', keys.brandA, {
      logo: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=',
      color: 'green',
      tipografia: 'Comic Sans',
    });
    expect(bad.status).toBe(400);
    const locs = (bad.json.detail as { loc: string[] }[]).map((d) => d.loc.join('.')).sort();
    expect(locs).toEqual(['body', 'body.color', 'body.logo']);
    const empty = await call('PUT', '/v1/brand', keys.brandA, {});
    expect(empty.status).toBe(400);
    expect(empty.json.detail[0].msg).toMatch(/at least one of logo, color, notas, leyenda_pie/);
    expect((await call('GET', '/v1/brand', keys.brandA)).status).toBe(404); // nothing stored by a refusal

    const created = await call('PUT', '/v1/brand', keys.brandA, MARCA);
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ ...MARCA, updated_at: expect.any(String) });
    // Every key of the account sees it; another account does not.
    expect((await call('GET', '/v1/brand', keys.brandA2)).json).toMatchObject(MARCA);
    expect((await call('GET', '/v1/brand', keys.brandB)).status).toBe(404);

    // A script in an SVG logo is not stored: the logo is kept as it prints.
    const svg =
      '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10" onload="alert(1)"><script>alert(2)</script>' +
      '<rect width="10" height="10" fill="#0b6e4f"/></svg>';
    const withSvg = await call('PUT', '/v1/brand', keys.brandB, {
      logo: `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`,
    });
    expect(withSvg.status).toBe(201);
    const kept = Buffer.from(String(withSvg.json.logo).split(',')[1]!, 'base64').toString('utf8');
    expect(kept).toContain('<rect');
    expect(kept).not.toMatch(/script|onload|alert/);
    expect(withSvg.json).toMatchObject({ color: null, notas: null, leyenda_pie: null });
    // The logo is its own item (the brand item stays one read unit); replaced or removed, it goes too.
    const logoItem = async (logo: string) =>
      (
        await dynamo().send(
          new GetCommand({
            TableName: rt.emulators.tableNames.accounts,
            Key: { pk: `brand#acct:cus_brand_B#logo#${createHash('sha256').update(logo).digest('hex')}` },
          }),
        )
      ).Item;
    expect(await logoItem(withSvg.json.logo)).toBeDefined();
    const png = await call('PUT', '/v1/brand', keys.brandB, { logo: pngLogo(4, 4) });
    expect(png.status).toBe(200);
    expect(await logoItem(withSvg.json.logo)).toBeUndefined();
    expect(await logoItem(png.json.logo)).toBeDefined();
    expect((await call('DELETE', '/v1/brand', keys.brandB)).status).toBe(204);
    expect(await logoItem(png.json.logo)).toBeUndefined();
    expect((await call('DELETE', '/v1/brand', keys.brandB)).status).toBe(404);
  });

  it("prints the account's brand on a CFDI with every check of a plain factura; others and {} print none", async () => {
    expectBranded(await render(keys.brandA2, { template: 'factura', cfdi_xml: XML }));
    expectUnbranded(await render(keys.brandB, { template: 'factura', cfdi_xml: XML }));
    expectUnbranded(
      await render(keys.brandA, { template: 'factura', cfdi_xml: XML, options: { marca: {} } }),
    );
    // A request's own brand replaces the stored one whole.
    const own = await render(keys.brandA, {
      template: 'factura',
      cfdi_xml: XML,
      options: { marca: { notas: 'Nota propia de esta factura.' } },
    });
    const text = pdftotext(own);
    expect(text).toContain('Nota propia de esta factura.');
    expect(text).not.toContain(MARCA.leyenda_pie);
    expect(images(own)).toEqual([]);
  });

  it('a merge brands its factura parts only', async () => {
    const file = await render(keys.brandA, {
      documents: [
        { template: 'factura', cfdi_xml: XML },
        {
          template: 'certificado',
          data: JSON.parse(readFileSync(join(__dirname, '../../templates/certificado/sample.json'), 'utf8')),
        },
      ],
    });
    expect(images(file)).toEqual(['180×54']);
    const pages = pdfInfo(file).pages;
    const last = execFileSync('pdftotext', ['-f', String(pages), '-l', String(pages), file, '-'], {
      encoding: 'utf8',
    });
    expect(last).not.toContain(MARCA.leyenda_pie); // the certificado's page
  });

  it('an async job prints the brand stored when it was requested; after DELETE none is printed', async () => {
    const stored = await call('PUT', '/v1/brand', keys.brandS, MARCA);
    expect(stored.status).toBe(201);
    const accepted = await call('POST', '/v1/render', keys.brandS, {
      template: 'factura',
      format: 'pdf',
      cfdi_xml: XML,
      options: { async: true },
    });
    expect(accepted.status).toBe(202);
    // Removed before the worker renders: the job keeps the brand of its request.
    expect((await call('DELETE', '/v1/brand', keys.brandS)).status).toBe(204);
    const job = await waitJob(accepted.json.id, keys.brandS, settled);
    expect(job.status).toBe('done');
    expectBranded(save(Buffer.from(await (await fetch(job.download_url as string)).arrayBuffer())));
    expectUnbranded(await render(keys.brandS, { template: 'factura', cfdi_xml: XML }));
  });
});
