// POST /v1/render with `documents` (several documents merged into one PDF) over HTTP against the local runtime:
// the merged file has every page of every part, in order (qpdf --show-npages against each part rendered alone;
// pdftotext page by page finds each part's own text), one bookmark per part (qpdf's JSON), the file-level options
// apply once (PDF/A-3b with each part's source attached, read back by pdfdetach; password, checked by qpdf), and the
// merge counts one document per part, all or nothing (429 leaves the count as it was). Bad merges are 400s in the
// contract's shape, every problem at once, at their place in `documents`.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { monthlyRules } from '../../lambdas/documents/core/plans';
import { windowBounds } from '../../lambdas/shared/quota/windows';
import { Charges, windowOf } from '../helpers/quota-window';
import ventas from '../../templates/ventas/sample.json';
import cotizacion from '../../templates/cotizacion/sample.json';
import { tempDir } from '../helpers/env';
import { pdfTextPages } from '../helpers/template-render';
import { startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

let rt: TestRuntime;
const files = tempDir('merge-');
const xmlOf = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', name), 'utf8');
const uuidOf = (xml: string) => /UUID="([0-9A-Fa-f-]{36})"/.exec(xml)![1]!;

beforeAll(async () => {
  rt = await startRuntime({}, { trustProxy: true });
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

let ipN = 1;
const newIp = () => `198.51.100.${ipN++}`;
const render = (body: unknown, ip = newIp()) =>
  fetch(`${rt.documentsUrl!}/v1/render`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
    body: JSON.stringify(body),
  });
let n = 0;
async function save(res: Response): Promise<string> {
  const file = join(files.path, `m-${++n}.pdf`);
  writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return file;
}
const npages = (file: string, pw?: string) =>
  Number(
    execFileSync('qpdf', [...(pw ? [`--password=${pw}`] : []), '--show-npages', file], {
      encoding: 'utf8',
    }).trim(),
  );
const flat = (s: string) => s.replace(/\s+/g, ' ');

const basico = xmlOf('ingreso-basico.xml');
const usd = xmlOf('ingreso-usd.xml');
const parts = [
  { template: 'factura', cfdi_xml: basico },
  { template: 'ventas', data: ventas },
  { template: 'factura', cfdi_xml: usd },
  { template: 'cotizacion', data: cotizacion },
];

test('every page of every part, in order; each part its own text; one bookmark per part; counted per part', async () => {
  // Each part alone: its page count and its text.
  const alone: { pages: number; file: string }[] = [];
  for (const p of parts) {
    const res = await render({ ...p, format: 'pdf', options: { pdfa: false } });
    expect(res.status).toBe(200);
    const file = await save(res);
    alone.push({ pages: npages(file), file });
  }

  const ip = newIp();
  const res = await render({ format: 'pdf', documents: parts }, ip);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/pdf');
  expect(res.headers.get('content-disposition')).toBe('attachment; filename="documentos.pdf"');
  // One per part, of 50 a month (a turn of the month before the next render starts a full one there).
  const charges = new Charges(50, 'month');
  expect(res.headers.get('ratelimit-remaining')).toBe(String(charges.add(res, parts.length)));
  const file = await save(res);
  execFileSync('qpdf', ['--check', file]);
  const total = alone.reduce((a, p) => a + p.pages, 0);
  expect(npages(file)).toBe(total);
  expect(total).toBeGreaterThanOrEqual(parts.length);

  // Page by page: the merged pages are the parts' pages, in order (same text as the part rendered alone).
  const merged = pdfTextPages(file).map(flat);
  let at = 0;
  for (const p of alone) {
    const own = pdfTextPages(p.file).map(flat);
    for (const page of own) {
      // The free plan's watermark is on both; pdftotext may place its letters differently.
      const words = page.split(' ').filter((w) => w.length > 3 && !/Generado|gratuito/.test(w));
      for (const w of words.slice(0, 40)) expect([at, merged[at]!.includes(w)]).toEqual([at, true]);
      at++;
    }
  }
  const text = merged.join(' ');
  expect(text).toContain(uuidOf(basico));
  expect(text).toContain(uuidOf(usd));

  // One top-level bookmark per part, each on its part's first page.
  const json = JSON.parse(
    execFileSync('qpdf', ['--json', '--json-key=outlines', file], { encoding: 'utf8' }),
  ) as {
    outlines: { title: string; destpageposfrom1: number }[];
  };
  const firstPages = alone.map((_, i) => 1 + alone.slice(0, i).reduce((a, p) => a + p.pages, 0));
  expect(json.outlines.map((o) => o.destpageposfrom1)).toEqual(firstPages);
  expect(json.outlines.map((o) => o.title)).toEqual([
    expect.stringMatching(/^1\. /),
    expect.stringMatching(/^2\. /),
    expect.stringMatching(/^3\. /),
    expect.stringMatching(/^4\. /),
  ]);

  // The next render from the same address sees the count of four (in the same month).
  const next = await render({ template: 'ventas', format: 'csv', data: ventas }, ip);
  expect(next.headers.get('ratelimit-remaining')).toBe(String(charges.add(next)));
  await next.arrayBuffer();
});

test('options.pdfa on a merge: PDF/A-3b carrying each part’s source; options.password: opens with it only', async () => {
  const res = await render({ format: 'pdf', documents: parts.slice(0, 3), options: { pdfa: true } });
  expect(res.status).toBe(200);
  const file = await save(res);
  expect(execFileSync('pdfdetach', ['-list', file], { encoding: 'utf8' })).toMatch(
    /3 embedded files\n1: 01-factura\.xml\n2: 02-data\.json\n3: 03-factura\.xml/,
  );
  const saved = join(files.path, 'detached-usd.xml');
  execFileSync('pdfdetach', ['-save', '3', '-o', saved, file]);
  expect(readFileSync(saved).equals(Buffer.from(usd, 'utf8'))).toBe(true);
  execFileSync('qpdf', ['--check', file]);

  const locked = await render({
    format: 'pdf',
    documents: parts.slice(0, 2),
    options: { password: 'lote-7' },
  });
  expect(locked.status).toBe(200);
  const lockedFile = await save(locked);
  expect(spawnSync('qpdf', ['--requires-password', lockedFile]).status).toBe(0);
  expect(spawnSync('qpdf', ['--password=otra', '--check', lockedFile]).status).toBe(2);
  expect(npages(lockedFile, 'lote-7')).toBeGreaterThanOrEqual(2);
});

test('over the allowance: 429 and nothing charged (all or nothing)', async () => {
  const ip = newIp();
  const subject = `docs#${ipSubject(ip)}`;
  const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
  // Use up all but two of this address's 50 of a month without rendering anything, then merge three parts: refused
  // in that month. A turn of the month before the merge starts a full one (the merge is charged there): once more.
  let res: Response | undefined;
  for (let round = 0; round < 2; round++) {
    const at = new Date();
    const [month] = await quotas.peek(subject, monthlyRules('free'), at);
    for (let i = month!.used; i < 48; i++) await quotas.consume(subject, monthlyRules('free'), at);
    res = await render({ format: 'pdf', documents: parts.slice(0, 3) }, ip);
    if (res.status === 429) break;
    expect(windowOf(res, 'month')).toBe(windowBounds('month', at).end.getTime() / 1000);
    expect(res.headers.get('ratelimit-remaining')).toBe('47');
    await res.arrayBuffer();
  }
  expect(res!.status).toBe(429);
  const body = (await res!.json()) as { detail: string };
  expect(body.detail).toContain('counts as 3');
  const two = await render({ format: 'pdf', documents: parts.slice(0, 2) }, ip);
  expect(two.status).toBe(200); // the failed three-part merge left the two
  // All it had left, in the month the three were refused in (a month begun since: 48 left after them).
  expect(two.headers.get('ratelimit-remaining')).toBe(
    windowOf(two, 'month') === windowOf(res!, 'month') ? '0' : '48',
  );
  await two.arrayBuffer();
});

test('bad merges: 400 with every problem at its place in documents; nothing charged', async () => {
  const ip = newIp();
  const res = await render(
    {
      format: 'zip',
      template: 'factura',
      documents: [
        { template: 'factura', cfdi_xml: basico },
        { template: 'ventas', data: { title: 'V', rows: [{ product: 'A', units: -1 }] } },
        { template: 'nope', data: {}, options: { landscape: true } },
      ],
      options: { require_xml: true },
    },
    ip,
  );
  expect(res.status).toBe(400);
  const { detail } = (await res.json()) as { detail: { loc: (string | number)[]; type: string }[] };
  const locs = detail.map((d) => `${d.loc.join('.')}:${d.type}`);
  expect(locs).toEqual(
    expect.arrayContaining([
      'body.format:unsupported_format',
      'body.template:documents_conflict',
      'body.options.require_xml:unsupported_option',
      'body.documents.2.options:extra_forbidden',
      'body.documents.2.template:unknown_template',
    ]),
  );
  expect(locs.some((l) => l.startsWith('body.documents.1.data.rows.0.'))).toBe(true);
  expect(locs.some((l) => l.startsWith('body.documents.0'))).toBe(false);

  const tooMany = await render({ format: 'pdf', documents: Array.from({ length: 21 }, () => parts[1]) }, ip);
  expect(tooMany.status).toBe(400);
  expect(((await tooMany.json()) as { detail: unknown[] }).detail).toEqual([
    expect.objectContaining({ loc: ['body', 'documents'], type: 'too_long' }),
  ]);
  const none = await render({ format: 'pdf', documents: [] }, ip);
  expect(none.status).toBe(400);
  await none.arrayBuffer();

  const after = await render({ template: 'ventas', format: 'csv', data: ventas }, ip);
  expect(after.headers.get('ratelimit-remaining')).toBe('49');
  await after.arrayBuffer();
});
