// nomina through real Chromium (direct renderer, no HTTP), read back with pdftotext: the sample is one Letter page
// with the employee's identifiers, every line, the CFDI nómina totals and the net pay in figures and words; a
// payroll with many lines paginates with the table headers and "Página x de y" on every page; the zip bundles it.
import { execFileSync } from 'node:child_process';
import { unzipSync } from 'fflate';
import { curpCheckDigit } from '../../templates/kit/schema-helpers';
import { nomina } from '../../templates/nomina/meta';
import { pdftotext } from '../helpers/pdftotext';
import { flat, pdfInfo as info, pdfTextPages, templateRenderer } from '../helpers/template-render';

jest.setTimeout(120_000);

const { render } = templateRenderer('nomina');

test('the sample: one Letter page, identifiers, lines, totals and the net pay con letra', async () => {
  const { file } = await render(nomina.sample);
  expect(info(file)).toMatchObject({ pages: 1, size: '612 x 792' });
  const t = flat(pdftotext(file));
  for (const s of [
    'RECIBO DE NÓMINA',
    'Manufacturas Precisas del Centro, S.A. de C.V.',
    'MPC0907145R3',
    'Y5412345106',
    'José Antonio Hernández Ortega',
    'HEOA850612QW4',
    'HEOA850612HQTRRN09',
    '12038512345',
    '04 Quincenal',
    '15 de marzo de 2024',
    'Horas extra dobles',
    '$609.37',
    '$609.38',
    '$11,334.37',
    '$11,943.75',
    '$1,402.36',
    '$2,513.00',
    'Subsidio para el empleo',
    '$9,430.75',
    'NUEVE MIL CUATROCIENTOS TREINTA PESOS 75/100 M.N.',
    'Firma del trabajador',
    'no es un CFDI de nómina timbrado',
    'Página 1 de 1',
  ])
    expect([s, t.includes(s)]).toEqual([s, true]);
  const fonts = execFileSync('pdffonts', [file], { encoding: 'utf8' });
  expect(fonts).toMatch(/NotoSans-Bold/);
  expect(fonts).toMatch(/NotoSansMono/);
});

test('many lines paginate with repeated headers and page numbers; the net is on the last page', async () => {
  const curp = `ROGM800229MJCDRR0${curpCheckDigit('ROGM800229MJCDRR0')}`; // 29 Feb 1980: a real date
  const percepciones = Array.from({ length: 45 }, (_, i) => ({
    clave: '038',
    concepto: `Percepción adicional ${i + 1}`,
    gravado: 100.1,
    exento: 0.01,
  }));
  const deducciones = Array.from({ length: 40 }, (_, i) => ({
    clave: '004',
    concepto: `Descuento ${i + 1}`,
    importe: 12.34,
  }));
  const { file } = await render({
    empresa: 'Servicios Integrales del Pacífico',
    empleado: { nombre: 'Margarita Rodríguez Gómez', rfc: 'ROGM800229AB1', curp },
    periodo: { inicio: '2026-11-01', fin: '2026-11-30', periodicidad: 'Mensual' },
    fecha_pago: '2026-11-30',
    percepciones,
    deducciones,
  });
  const { pages } = info(file);
  expect(pages).toBeGreaterThanOrEqual(3);
  const byPage = pdfTextPages(file).map(flat);
  expect(byPage).toHaveLength(pages);
  byPage.forEach((t, i) => {
    expect(t).toContain(`Página ${i + 1} de ${pages}`);
    expect(t).toContain('Recibo de nómina · Margarita Rodríguez Gómez · 01/11/2026 – 30/11/2026');
    // Every page that carries lines starts them under their table's header.
    if (t.includes('Percepción adicional'))
      expect([i, t.includes('CLAVE PERCEPCIONES GRAVADO EXENTO IMPORTE')]).toEqual([i, true]);
    if (/Descuento \d/.test(t)) expect([i, t.includes('CLAVE DEDUCCIONES IMPORTE')]).toEqual([i, true]);
  });
  // 45 × 100.11 = 4,504.95; 40 × 12.34 = 493.60; neto 4,011.35
  const all = byPage.join(' ');
  expect(all).toContain('$4,504.95');
  expect(all).toContain('$493.60');
  expect(byPage[pages - 1]).toContain('$4,011.35');
  expect(byPage[pages - 1]).toContain('CUATRO MIL ONCE PESOS 35/100 M.N.');
  expect(all).toContain('05 Mensual 30 '); // periodicidad, then the days of the period (dias_pagados not given)
  for (let i = 1; i <= 45; i++) expect(all).toContain(`Percepción adicional ${i} `);
});

test('zip: the PDF, data.json and LEEME.txt', async () => {
  const { bytes } = await render(nomina.sample, 'zip');
  const entries = unzipSync(new Uint8Array(bytes));
  expect(Object.keys(entries)).toEqual(['nomina.pdf', 'data.json', 'LEEME.txt']);
  expect(Buffer.from(entries['nomina.pdf']!).subarray(0, 5).toString()).toBe('%PDF-');
  const data = JSON.parse(Buffer.from(entries['data.json']!).toString('utf8'));
  expect(data.empleado.curp).toBe('HEOA850612HQTRRN09');
  expect(data.tipo_nomina).toBe('O'); // defaults applied
});
