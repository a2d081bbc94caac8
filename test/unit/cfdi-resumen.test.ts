// The batch summary's pure parts (lambdas/documents/core/cfdi-resumen.ts): what a CFDI's row holds, the file names
// of the result zip, MXN conversion and totals, and the reasons a file is refused. The workbook itself is checked
// by LibreOffice and Python in test/e2e/cfdi-batch.test.ts.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Totals, baseName, enPesos, monthOf, readForBatch } from '../../lambdas/documents/core/cfdi-resumen';

const fixture = (p: string) => readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', p), 'utf8');

test('a stamped ingreso in USD: its row as written, taxes by Impuesto, the factura template', () => {
  const r = readForBatch(fixture('ingreso-usd.xml'), 'a.xml');
  if (!r.ok) throw new Error(r.motivo);
  expect(r.template).toBe('factura');
  expect(r.row).toMatchObject({ tipo: 'I', moneda: 'USD', archivo: 'a.xml' });
  expect(r.row.uuid).toBe(r.row.uuid.toUpperCase());
  expect(Number(r.row.tipoCambio)).toBeGreaterThan(1);
  // MXN = amount × TipoCambio, to the cent.
  expect(enPesos(r.row, '10.00').toFixed(2)).toBe((10 * Number(r.row.tipoCambio)).toFixed(2));
  expect(enPesos({ moneda: 'MXN', tipoCambio: '' }, '1.005').toFixed(2)).toBe('1.01');
});

test('nómina goes to the nomina template; pagos name their complement', () => {
  const n = readForBatch(fixture('nomina/nomina-quincenal.xml'), 'n.xml');
  expect(n.ok && n.template).toBe('nomina');
  const p = readForBatch(fixture('pago-parcialidad.xml'), 'p.xml');
  expect(p.ok && p.row.complementos).toBe('Pagos');
});

test('refusals name their reason', () => {
  const base = fixture('ingreso-basico.xml');
  const cases: [string, RegExp][] = [
    ['', /vacío/],
    ['no es xml', /well-formed/i],
    [base.replace(/<(\w+:)?Complemento>[\s\S]*<\/(\w+:)?Complemento>/, ''), /sin timbrar/i],
    // Retenciones 2.0 (ours and python-satcfdi's): named, with where to print it alone.
    [fixture('complementos/retenciones20-plataformas.xml'), /^CFDI de Retenciones 2\.0 .*POST \/v1\/render/],
    [
      fixture('terceros/python-satcfdi/cfdi_ejemplos--retenciones20--retenciones20-min-comps.xml'),
      /^CFDI de Retenciones 2\.0/,
    ],
  ];
  for (const [xml, why] of cases) {
    const r = readForBatch(xml, 'x.xml');
    expect({ ok: r.ok, why: !r.ok && why.test(r.motivo) }).toEqual({ ok: false, why: true });
  }
  // Negative control: a CFDI 4.0 naming Retenciones and its namespace, not as its root, is read.
  const named = base.replace(
    '<cfdi:Emisor',
    '<!-- <Retenciones xmlns="http://www.sat.gob.mx/esquemas/retencionpago/2"> --><cfdi:Emisor',
  );
  expect(named).not.toBe(base);
  expect(readForBatch(named, 'x.xml').ok).toBe(true);
});

test('file names: RFC_seriefolio_UUID with anything but letters, digits and - written -', () => {
  expect(baseName({ emisorRfc: 'H&E951128469', serie: 'A', folio: '12/3', uuid: 'AB-CD' })).toBe(
    'H-E951128469_A12-3_AB-CD',
  );
  expect(baseName({ emisorRfc: 'EKU9003173C9', serie: '', folio: '', uuid: 'U' })).toBe('EKU9003173C9__U');
});

test('totals per key: counts and MXN sums; months from Fecha', () => {
  const t = new Totals();
  const row = (total: string, moneda: string, tipoCambio: string) => {
    const r = readForBatch(fixture('ingreso-basico.xml'), 'b.xml');
    if (!r.ok) throw new Error(r.motivo);
    return { ...r.row, total, moneda, tipoCambio };
  };
  t.add('X', row('100.00', 'MXN', ''));
  t.add('X', row('10.00', 'USD', '17.5'));
  t.add('A', row('1.00', 'MXN', ''));
  expect(t.entries().map(([k, v]) => [k, v.count, v.sums.total.toFixed(2)])).toEqual([
    ['A', 1, '1.00'],
    ['X', 2, '275.00'],
  ]);
  expect(monthOf({ fecha: '2024-03-31T23:59:59' })).toBe('2024-03');
});
