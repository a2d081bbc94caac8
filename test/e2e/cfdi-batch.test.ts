// CFDI batches over HTTP against the local runtime (the batch worker fed by its local queue, two pollers: parts
// render in parallel). A zip of 200 files — 195 distinct stamped CFDI from the corpus (UUIDs rewritten) and 5 broken
// ones — goes through the presigned upload; the result zip is checked by independent readers: pdftotext finds each
// PDF's UUID, LibreOffice Calc reads resumen.xlsx, and /usr/bin/python3 (stdlib ElementTree + Decimal) computes the
// totals per RFC and per month straight from the XML. Also: the JSON list way in, one PDF per repeated UUID, the
// quota charged per document, a Scale account's signed webhook on completion, and the account's brand (PUT
// /v1/brand) on its batch's facturas, not on another account's. Loopback only.
import { spawnSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { unzipSync, strFromU8 } from 'fflate';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { S3BatchFiles } from '../../lambdas/documents/adapters/batch-files';
import { monthlyRules } from '../../lambdas/documents/core/plans';
import { partSizes } from '../../lambdas/documents/use-cases/batch-split';
import { dynamo, s3Client } from '../../lambdas/shared/aws/clients';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { putApiKey } from '../helpers/api-keys';
import {
  batchCorpus,
  getBatch,
  startBatch,
  uploadAndStart,
  waitForBatch,
  zipOf,
} from '../helpers/cfdi-batch';
import { tempDir } from '../helpers/env';
import { installLoopbackTripwire, type Tripwire } from '../helpers/loopback-only';
import { requireSoffice, sofficeCells, type Cell } from '../helpers/office';
import { requirePdftotext, pdftotext } from '../helpers/pdftotext';
import { startRuntime, type TestRuntime } from '../helpers/runtime';
import {
  opensslHmac,
  startWebhookReceiver,
  tampered,
  webhookTestEnv,
  type WebhookReceiver,
} from '../helpers/webhook-receiver';

// The 200-file batch renders 195 PDFs on the machine's two cores: ~30 s quiet, minutes when the cores are shared.
jest.setTimeout(600_000);

const files = tempDir('cfdi-batch-');
const scale = generateKey();
const pro = generateKey();
const nearlyUsed = generateKey();
let rt: TestRuntime;
let receiver: WebhookReceiver;
let tripwire: Tripwire;
let secret = '';

beforeAll(async () => {
  requirePdftotext();
  requireSoffice();
  receiver = await startWebhookReceiver();
  tripwire = installLoopbackTripwire();
  rt = await startRuntime(webhookTestEnv(''));
  await putApiKey(rt, scale, 'scale', 'cus_batch_scale');
  await putApiKey(rt, pro, 'pro', 'cus_batch_pro');
  await putApiKey(rt, nearlyUsed, 'pro', 'cus_batch_nearly_used');
  const hook = await fetch(`${rt.documentsUrl}/v1/webhook`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${scale}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      url: receiver.hook('/batches'),
      events: ['document.rendered', 'document.failed'],
    }),
  });
  expect(hook.status).toBe(201);
  secret = ((await hook.json()) as { secret: string }).secret;
  // The Scale account's brand: its batch's facturas print the legend (pdftotext), the Pro account's do not.
  const brand = await fetch(`${rt.documentsUrl}/v1/brand`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${scale}`, 'content-type': 'application/json' },
    body: JSON.stringify({ leyenda_pie: LEGEND }),
  });
  expect(brand.status).toBe(201);
});

afterAll(async () => {
  tripwire?.uninstall();
  await rt?.stop();
  await receiver?.close();
  files.cleanup();
});

afterEach(() => expect(tripwire.attempts).toEqual([]));

/** Totals per RFC emisor and per month straight from the XML, by Python's own XML reader and Decimal. */
const PY_SUMS = `
import sys, os, json, xml.etree.ElementTree as ET
from decimal import Decimal, ROUND_HALF_UP
C = '{http://www.sat.gob.mx/cfd/4}'
COLS = ['subtotal', 'descuento', 'ivaTrasladado', 'iepsTrasladado', 'ivaRetenido', 'isrRetenido', 'iepsRetenido', 'total']
out = {'rfc': {}, 'mes': {}}
for name in sorted(os.listdir(sys.argv[1])):
    root = ET.parse(os.path.join(sys.argv[1], name)).getroot()
    rate = Decimal(1) if root.get('Moneda') in ('MXN', 'XXX') or not root.get('TipoCambio') else Decimal(root.get('TipoCambio'))
    imp = root.find(C + 'Impuestos')
    def tax(kind, code):
        if imp is None: return Decimal(0)
        return sum((Decimal(t.get('Importe')) for t in imp.iter(C + kind) if t.get('Impuesto') == code and t.get('Importe') is not None), Decimal(0))
    v = {
        'subtotal': Decimal(root.get('SubTotal')), 'descuento': Decimal(root.get('Descuento') or '0'),
        'ivaTrasladado': tax('Traslado', '002'), 'iepsTrasladado': tax('Traslado', '003'),
        'ivaRetenido': tax('Retencion', '002'), 'isrRetenido': tax('Retencion', '001'), 'iepsRetenido': tax('Retencion', '003'),
        'total': Decimal(root.get('Total')),
    }
    for group, key in (('rfc', root.find(C + 'Emisor').get('Rfc')), ('mes', root.get('Fecha')[:7])):
        t = out[group].setdefault(key, {'count': 0, **{c: Decimal(0) for c in COLS}})
        t['count'] += 1
        for c in COLS:
            t[c] += (v[c] * rate).quantize(Decimal('0.01'), rounding=ROUND_HALF_UP)
print(json.dumps({g: {k: {c: str(x) for c, x in t.items()} for k, t in m.items()} for g, m in out.items()}))
`;

/** The free plan's watermark text (render/post-process.ts WATERMARK_TEXT) without its spaces. */
const FREE_MARK = 'Generadoconelplangratuito';
const LEGEND = 'Despacho Ruiz Contadores, lote del mes';
const unspaced = (text: string) => text.replace(/\s+/g, '');

const COLS = [
  'subtotal',
  'descuento',
  'ivaTrasladado',
  'iepsTrasladado',
  'ivaRetenido',
  'isrRetenido',
  'iepsRetenido',
  'total',
];

/** A totals sheet as LibreOffice read it: key → [count, ...amounts] (header row dropped). */
function totalsFromSheet(rows: Cell[][]): Record<string, number[]> {
  return Object.fromEntries(rows.slice(1).map((r) => [String(r[0]), r.slice(1).map(Number)]));
}

test('a zip of 200 files: 195 PDFs with their UUIDs, 5 refusals with reasons, totals equal Python’s from the XML', async () => {
  const corpus = batchCorpus('e2e-200', 195);
  expect(corpus.files).toHaveLength(200);
  const { id, uploadId } = await uploadAndStart(rt.documentsUrl!, scale, zipOf(corpus.files));
  const seen = await waitForBatch(rt.documentsUrl!, scale, id, 480_000);
  const last = seen.at(-1)!;
  expect(last).toMatchObject({
    status: 'done',
    total: 195,
    done: 195,
    failed: 0,
    refused: 5,
    progress: 1,
    eta_s: 0,
  });
  // Its parts are the split's (partSizes, which the cost model counts): 20, 20, … and the tail cut smaller.
  const listed = await s3Client().send(
    new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: `batches/${id}/parts/` }),
  );
  const partsStored = new Set(
    (listed.Contents ?? []).flatMap((o) => /\/parts\/(\d+)\//.exec(o.Key ?? '')?.[1] ?? []),
  );
  expect(partSizes(195)).toEqual([...Array<number>(8).fill(20), 18, 9, 8]);
  expect(partsStored.size).toBe(11);
  // Progress was visible on the way (counts never go back; an ETA once a part was done).
  const dones = seen.map((s) => s.done as number);
  expect(dones).toEqual([...dones].sort((a, b) => a - b));
  expect(seen.some((s) => s.status === 'rendering' && typeof s.eta_s === 'number')).toBe(true);

  // Starting the same upload again answers the same batch.
  const again = await startBatch(rt.documentsUrl!, scale, { upload_id: uploadId });
  expect(again).toMatchObject({ status: 202, body: { id, status: 'done' } });

  const bytes = Buffer.from(await (await fetch(last.download_url as string)).arrayBuffer());
  const zip = unzipSync(bytes);
  const names = Object.keys(zip);
  // Every entry's CRC-32 and deflate stream as an independent reader checks them (the assembly computes them with
  // zlib and hands them to fflate's Zip): Python's zipfile names the first bad entry, else None. Negative control:
  // one byte of the first entry's data changed is found.
  const testzip = (zipBytes: Buffer, name: string) => {
    writeFileSync(join(files.path, name), zipBytes);
    const py = 'import sys, zipfile; print(zipfile.ZipFile(sys.argv[1]).testzip())';
    return spawnSync('/usr/bin/python3', ['-c', py, join(files.path, name)], {
      encoding: 'utf8',
    }).stdout.trim();
  };
  expect(testzip(bytes, 'result.zip')).toBe('None');
  const bad = Buffer.from(bytes);
  bad[30 + bad.readUInt16LE(26) + bad.readUInt16LE(28) + 100]! ^= 0xff;
  expect(testzip(bad, 'result-bad.zip')).toBe(names[0]);
  const pdfs = names.filter((n) => n.endsWith('.pdf'));
  expect(pdfs).toHaveLength(195);
  expect(names.filter((n) => n.endsWith('.xml'))).toHaveLength(195);
  expect(names).toEqual(expect.arrayContaining(['resumen.xlsx', 'resumen.csv']));
  expect(names).toHaveLength(195 * 2 + 2);

  const dir = join(files.path, 'out');
  mkdirSync(join(dir, 'xml'), { recursive: true });
  const byUuid = new Map(corpus.files.filter((f) => f.uuid).map((f) => [f.uuid!, f]));
  for (const name of pdfs) {
    // <RFC emisor>_<serie><folio>_<UUID>.pdf, its original XML beside it, byte for byte.
    const m = /^([A-ZÑ&0-9-]+)_([A-Za-z0-9-]*)_([0-9A-F-]{36})\.pdf$/.exec(name);
    expect({ name, ok: !!m }).toEqual({ name, ok: true });
    const uuid = m![3]!;
    const src = byUuid.get(uuid)!;
    expect(strFromU8(zip[name.replace(/\.pdf$/, '.xml')]!)).toBe(src.xml);
    // The emisor's RFC as written (XML-unescaped), with what is not a letter, digit or '-' written '-' (H&E → H-E).
    const rfc = /<(?:\w+:)?Emisor\b[^>]*?\sRfc="([^"]+)"/.exec(src.xml)![1]!.replace(/&amp;/g, '&');
    expect(m![1]).toBe(rfc.replace(/[^A-Za-z0-9-]/g, '-'));
    writeFileSync(join(dir, 'doc.pdf'), zip[name]!);
    const text = pdftotext(join(dir, 'doc.pdf'));
    // Its UUID; no free-plan watermark on a Scale account's PDF (the free test's negative control); the account's
    // brand legend on its facturas (nómina receipts print no brand, as with POST /v1/render).
    expect({
      name,
      found: text.toUpperCase().includes(uuid),
      free: unspaced(text).includes(FREE_MARK),
      brand: unspaced(text).includes(unspaced(LEGEND)),
    }).toEqual({
      name,
      found: true,
      free: false,
      brand: !/\bTipoDeComprobante="N"/.test(src.xml),
    });
    writeFileSync(join(dir, 'xml', `${uuid}.xml`), src.xml);
  }

  // The workbook as LibreOffice reads it.
  writeFileSync(join(dir, 'resumen.xlsx'), zip['resumen.xlsx']!);
  const [book] = sofficeCells([join(dir, 'resumen.xlsx')], dir);
  expect(Object.keys(book!)).toEqual(['CFDI', 'Totales por RFC', 'Totales por mes', 'Rechazados']);
  expect(book!['CFDI']!.length).toBe(196);
  expect(book!['CFDI']![0]!.slice(0, 5)).toEqual(['Tipo', 'Fecha', 'Serie', 'Folio', 'UUID']);
  const refused = book!['Rechazados']!.slice(1);
  expect(refused.map((r) => r[0]).sort()).toEqual(corpus.broken.map((b) => b.name).sort());
  for (const b of corpus.broken) {
    const reason = String(refused.find((r) => r[0] === b.name)![1]);
    expect({ file: b.name, reason: b.mentions.test(reason) ? 'ok' : reason }).toEqual({
      file: b.name,
      reason: 'ok',
    });
  }

  // Totals: Python from the XML vs. the workbook's cells (to the cent).
  const py = spawnSync('/usr/bin/python3', ['-c', PY_SUMS, join(dir, 'xml')], { encoding: 'utf8' });
  expect(py.stderr).toBe('');
  const expected = JSON.parse(py.stdout) as Record<'rfc' | 'mes', Record<string, Record<string, string>>>;
  for (const [group, sheet] of [
    ['rfc', 'Totales por RFC'],
    ['mes', 'Totales por mes'],
  ] as const) {
    const got = totalsFromSheet(book![sheet]!);
    expect(Object.keys(got).sort()).toEqual(Object.keys(expected[group]).sort());
    for (const [key, t] of Object.entries(expected[group])) {
      const want = [Number(t.count), ...COLS.map((c) => Number(t[c]))];
      expect({ key, cells: got[key]!.map((x) => x.toFixed(2)) }).toEqual({
        key,
        cells: want.map((x) => x.toFixed(2)),
      });
    }
    expect(Object.values(got).reduce((n, r) => n + r[0]!, 0)).toBe(195);
  }

  // Negative control of the Python checker: one CFDI's Total changed in its XML moves its RFC's total.
  const one = [...byUuid.values()][0]!;
  const altered = one.xml.replace(
    /(<(?:\w+:)?Comprobante\b[^>]*?\sTotal=")([0-9.]+)"/,
    (_, a: string, t: string) => `${a}${(Number(t) + 1).toFixed(2)}"`,
  );
  expect(altered).not.toBe(one.xml);
  writeFileSync(join(dir, 'xml', `${one.uuid}.xml`), altered);
  const py2 = JSON.parse(
    spawnSync('/usr/bin/python3', ['-c', PY_SUMS, join(dir, 'xml')], { encoding: 'utf8' }).stdout,
  ) as typeof expected;
  const rfcOf = /<(?:\w+:)?Emisor\b[^>]*?\sRfc="([^"]+)"/.exec(one.xml)![1]!.replace(/&amp;/g, '&');
  expect(py2.rfc[rfcOf]!.total).not.toBe(expected.rfc[rfcOf]!.total);

  // resumen.csv: the same 195 rows.
  const csv = strFromU8(zip['resumen.csv']!).trim().split('\n');
  expect(csv).toHaveLength(196);
  expect(csv[0]).toMatch(/^Tipo,Fecha,Serie,Folio,UUID,RFC emisor/);

  // Charged per document: 195, once.
  const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
  const [month] = await quotas.peek('docs#acct#cus_batch_scale', [{ period: 'month', limit: 10000 }]);
  expect(month!.used).toBe(195);

  // The Scale account's signed webhook: document.rendered for this batch, with the zip's link.
  const deadline = Date.now() + 120_000; // generous: a loaded machine (the bound only ends a hang)
  while (!receiver.at('/batches').length && Date.now() < deadline)
    await new Promise((r) => setTimeout(r, 200));
  const [delivery] = receiver.at('/batches');
  const event = JSON.parse(delivery!.body.toString('utf8')) as {
    type: string;
    data: { job: { id: string } };
  };
  expect(event).toMatchObject({
    type: 'document.rendered',
    data: { job: { id, status: 'done', format: 'zip' } },
  });
  // Signed as every documents webhook: OpenSSL's HMAC over the exact bytes is the v1 sent.
  const sig = String(delivery!.headers['docs-signature']);
  const t = Number(/t=(\d+)/.exec(sig)?.[1]);
  expect(sig).toBe(`t=${t},v1=${opensslHmac(secret, t, delivery!.body)}`);
  expect(sig).not.toBe(`t=${t},v1=${opensslHmac(secret, t, tampered(delivery!.body))}`);
});

test('the free plan, without a key: at most 10 files (a list over it is 403, a zip fails), one PDF per UUID, watermarked, charged per CFDI', async () => {
  // Over the plan's limit: 403 naming it, in English and in Spanish; a paid plan's own limit likewise.
  const eleven = Array.from({ length: 11 }, () => '<x/>');
  const over = await fetch(`${rt.documentsUrl}/v1/batches`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'accept-language': 'es-MX' },
    body: JSON.stringify({ xml: eleven }),
  });
  expect(over.status).toBe(403);
  expect(over.headers.get('x-error-code')).toBe('batch_plan_limit');
  expect(((await over.json()) as { detail: string }).detail).toMatch(
    /^Un lote en el plan gratuito admite como máximo 10 archivos; este tiene 11\./,
  );
  expect(await startBatch(rt.documentsUrl!, '', { xml: eleven })).toMatchObject({
    status: 403,
    body: {
      detail: expect.stringMatching(/^A batch on the free plan holds at most 10 files; this one has 11\./),
    },
  });
  expect(
    await startBatch(rt.documentsUrl!, pro, { xml: Array.from({ length: 1001 }, () => '<x/>') }),
  ).toMatchObject({
    status: 403,
    body: {
      detail: expect.stringMatching(/^A batch on the pro plan holds at most 1000 files; this one has 1001\./),
    },
  });

  // A zip is counted when it is read: over the limit, the batch fails at the split, naming it, charging nothing.
  const zipped = await uploadAndStart(
    rt.documentsUrl!,
    '',
    zipOf(eleven.map((xml, i) => ({ name: `f${i}.xml`, xml }))),
  );
  expect((await waitForBatch(rt.documentsUrl!, '', zipped.id, 60_000)).at(-1)).toMatchObject({
    status: 'failed',
    reason: expect.stringMatching(/more than 10 files, the most a batch holds on the free plan/),
  });

  const corpus = batchCorpus('e2e-free', 3, false);
  const xml = [...corpus.files.map((f) => f.xml), corpus.files[0]!.xml];
  const started = await startBatch(rt.documentsUrl!, '', { xml });
  expect(started).toMatchObject({ status: 202, body: { object: 'batch', status: 'queued', total: null } });
  const id = started.body.id as string;
  const last = (await waitForBatch(rt.documentsUrl!, '', id, 60_000)).at(-1)!;
  expect(last).toMatchObject({ status: 'done', total: 3, done: 3, refused: 1 });
  const zip = unzipSync(new Uint8Array(await (await fetch(last.download_url as string)).arrayBuffer()));
  const pdfs = Object.keys(zip).filter((n) => n.endsWith('.pdf'));
  expect(pdfs).toHaveLength(3);
  writeFileSync(join(files.path, 'free.pdf'), zip[pdfs[0]!]!);
  // The free plan's watermark, as pdftotext reads it (drawn diagonally: its letters come in pieces).
  expect(unspaced(pdftotext(join(files.path, 'free.pdf')))).toContain(FREE_MARK);
  const csv = strFromU8(zip['resumen.csv']!).trim().split('\n');
  expect(csv).toHaveLength(4);
  // Charged to the address's free month: 3 CFDI printed, the repeat not.
  const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
  const [month] = await quotas.peek(`docs#${ipSubject('127.0.0.1')}`, [{ period: 'month', limit: 50 }]);
  expect(month!.used).toBe(3);
  // It belongs to the address that started it: an account's key sees nothing of it.
  expect((await getBatch(rt.documentsUrl!, scale, id)).status).toBe(404);
});

test('over what is left this month: its first part may render while the split reads (at most what is left), then it fails, nothing charged, nothing delivered', async () => {
  // 20 documents left: 21 CFDI are cut 11, 5, 5 (the tail tapers); the split queues parts 0 and 1 (16 CFDI) as soon
  // as they are written, never part 2 (21 > 20).
  const quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
  const subject = 'docs#acct#cus_batch_nearly_used';
  const rules = monthlyRules('pro');
  const fill = await quotas.consume(subject, rules, new Date(), { id: 'fill', units: rules[0]!.limit - 20 });
  expect(fill.allowed).toBe(true);
  const corpus = batchCorpus('e2e-over-quota', 21, false);
  const started = await startBatch(rt.documentsUrl!, nearlyUsed, { xml: corpus.files.map((f) => f.xml) });
  expect(started.status).toBe(202);
  const id = started.body.id as string;
  const last = (await waitForBatch(rt.documentsUrl!, nearlyUsed, id, 120_000)).at(-1)!;
  expect(last).toMatchObject({
    status: 'failed',
    reason: expect.stringMatching(
      /^The batch has 21 CFDI to print but 20 documents are left this month .*Nothing was charged/,
    ),
  });
  expect(last.download_url).toBeUndefined();
  const [month] = await quotas.peek(subject, rules);
  expect(month!.used).toBe(rules[0]!.limit - 20);
  // Nothing delivered: no result zip; and part 2 (never queued: over what was left) rendered nothing.
  const results = await s3Client().send(
    new ListObjectsV2Command({ Bucket: process.env.DOCUMENTS_BUCKET, Prefix: `results/jobs/${id}/` }),
  );
  expect(results.Contents ?? []).toEqual([]);
  const files = new S3BatchFiles(s3Client(), process.env.DOCUMENTS_BUCKET!);
  expect(partSizes(21)).toEqual([11, 5, 5]);
  expect(await files.storedPdfs(id, 2)).toEqual([]);
});

test('another account’s batch prints no brand but its own (none here)', async () => {
  const corpus = batchCorpus('e2e-pro', 2, false);
  expect(corpus.files.map((f) => /\bTipoDeComprobante="N"/.test(f.xml))).toEqual([false, false]);
  const started = await startBatch(rt.documentsUrl!, pro, { xml: corpus.files.map((f) => f.xml) });
  expect(started.status).toBe(202);
  const last = (await waitForBatch(rt.documentsUrl!, pro, started.body.id as string, 120_000)).at(-1)!;
  expect(last).toMatchObject({ status: 'done', total: 2, done: 2 });
  const zip = unzipSync(new Uint8Array(await (await fetch(last.download_url as string)).arrayBuffer()));
  const pdfs = Object.keys(zip).filter((n) => n.endsWith('.pdf'));
  expect(pdfs).toHaveLength(2);
  for (const name of pdfs) {
    writeFileSync(join(files.path, 'pro.pdf'), zip[name]!);
    const text = pdftotext(join(files.path, 'pro.pdf'));
    expect({
      name,
      uuid: text.toUpperCase().includes(name.slice(-40, -4)),
      brand: unspaced(text).includes(unspaced(LEGEND)),
    }).toEqual({ name, uuid: true, brand: false });
  }
});

test('bad requests: 400 naming the field; upload slots by plan, 401 with a bad key', async () => {
  expect(await startBatch(rt.documentsUrl!, pro, { xml: [] })).toMatchObject({
    status: 400,
    body: { detail: [{ loc: ['body', 'xml'] }] },
  });
  expect(await startBatch(rt.documentsUrl!, pro, { upload_id: 'bup_AAAAAAAAAAAAAAAAAAAAAA' })).toMatchObject({
    status: 400,
    body: { detail: [{ loc: ['body', 'upload_id'], type: 'upload_missing' }] },
  });
  // An upload slot as large as the plan allows: the free plan's without a key; a bad key is 401.
  const free = await fetch(`${rt.documentsUrl}/v1/batches/upload`, { method: 'POST' });
  expect(free.status).toBe(201);
  expect(await free.json()).toMatchObject({ max_files: 10, max_bytes: 2 * 1024 * 1024 });
  const slot = await fetch(`${rt.documentsUrl}/v1/batches/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${pro}` },
  });
  expect(await slot.json()).toMatchObject({ max_files: 1000, max_bytes: 100 * 1024 * 1024 });
  expect(
    (
      await fetch(`${rt.documentsUrl}/v1/batches/upload`, {
        method: 'POST',
        headers: { authorization: `Bearer ${generateKey()}` },
      })
    ).status,
  ).toBe(401);
});
