// The six built-in templates: every sample validates and renders to HTML with the right figures; amounts are exact
// decimals (no float drift) formatted for es-MX; the contract's factura and ventas shapes are accepted as they are;
// GET /templates' JSON Schemas come from the zod schemas; the sandbox and the in-process engine agree.
import { Dec } from '../../templates/kit/money';
import { renderDocument, validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import {
  builtInPartials,
  listTemplates,
  loadSource,
  TEMPLATE_SLUGS,
  TEMPLATES,
} from '../../lambdas/documents/domain/template-registry';
import { TemplateSandbox } from '../../lambdas/documents/templating/sandbox';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { calcFactura } from '../../templates/factura/calc';
import { schema as facturaSchema } from '../../templates/factura/schema';
import { calcVentas } from '../../templates/ventas/calc';
import { calcCotizacion } from '../../templates/cotizacion/meta';
import { schema as cotizacionSchema } from '../../templates/cotizacion/schema';

const noChromium = {
  renderPdf: async () => {
    throw new Error('not in this test');
  },
  renderPng: async () => {
    throw new Error('not in this test');
  },
};

/** Visible text of an HTML page, spaces collapsed (no-break spaces too). */
function text(html: string): string {
  return html
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0]+/g, ' ');
}

function renderHtml(slug: string, data: unknown): string {
  const t = TEMPLATES.find((x) => x.meta.slug === slug)!;
  const parsed = t.schema.parse(data);
  const { source, hash } = loadSource(slug);
  return renderTrusted(source, t.view(parsed as never), builtInPartials(), `${slug}@${hash}`);
}

describe('registry', () => {
  it('has the six templates of the contract with their formats (plus zip)', () => {
    expect(Object.fromEntries(TEMPLATES.map((t) => [t.meta.slug, t.meta.formats]))).toEqual({
      factura: ['pdf', 'html', 'zip'],
      ventas: ['pdf', 'xlsx', 'csv', 'zip'],
      balance: ['pdf', 'xlsx', 'zip'],
      certificado: ['pdf', 'html', 'zip'],
      cotizacion: ['pdf', 'html', 'zip'],
      nomina: ['pdf', 'zip'],
    });
  });

  it('lists JSON Schemas generated from zod, with Spanish descriptions and required members', () => {
    const list = listTemplates();
    expect(list.templates.map((t) => t.slug)).toEqual(TEMPLATE_SLUGS);
    const factura = list.templates.find((t) => t.slug === 'factura')!.fields as {
      required: string[];
      properties: Record<string, { description?: string; items?: { required?: string[] } }>;
    };
    expect(factura.required).toEqual(expect.arrayContaining(['empresa', 'cliente', 'items']));
    expect(factura.required).not.toContain('moneda'); // defaults to MXN
    expect(factura.properties.items!.items!.required).toEqual(['concepto', 'cantidad', 'precio']);
    expect(factura.properties.empresa!.description).toMatch(/razón social/);
    const ventas = list.templates.find((t) => t.slug === 'ventas')!.fields as { required: string[] };
    expect(ventas.required).toEqual(['title', 'rows']);
    expect(list.partials).toEqual(['base.html', 'estilos.html', 'macros.html']);
    expect(JSON.parse(JSON.stringify(list))).toEqual(list); // plain JSON
  });
});

describe.each(TEMPLATES.map((t) => [t.meta.slug, t] as const))('%s', (slug, t) => {
  it('sample validates and renders to a complete HTML page', async () => {
    expect(t.schema.safeParse(t.sample).success).toBe(true);
    const html = renderHtml(slug, t.sample);
    expect(html).toMatch(/^<!DOCTYPE html>/);
    expect(html).toContain('<meta charset="utf-8">');
    expect(html).not.toMatch(/undefined|NaN|\[object Object\]/);
  });

  it('renders the same in the sandbox as in-process', async () => {
    // What is compared is the output: a limit far above production's 500 ms (a loaded CI machine, load ~10, took the
    // factura past 500 ms in ci46); the limit itself is tested in documents-sandbox.
    const sandbox = new TemplateSandbox({ timeoutMs: 30_000 });
    try {
      const parsed = t.schema.parse(t.sample);
      const view = t.view(parsed as never);
      const viaSandbox = await sandbox.render(loadSource(slug).source, view, { partials: builtInPartials() });
      expect(viaSandbox).toBe(renderHtml(slug, t.sample));
    } finally {
      sandbox.dispose();
    }
  });
});

describe('factura', () => {
  it('accepts the contract shape exactly', () => {
    const r = validateRenderRequest({
      template: 'factura',
      format: 'pdf',
      data: {
        empresa: 'ACME',
        cliente: 'Cliente',
        items: [{ concepto: 'X', cantidad: 1, precio: 10 }],
        moneda: 'MXN',
      },
    });
    expect(r.ok).toBe(true);
  });

  it('computes with exact decimals: 0.1 + 0.2 style cases and IVA 16 %', () => {
    const data = facturaSchema.parse({
      empresa: 'E',
      cliente: 'C',
      items: [
        { concepto: 'a', cantidad: 3, precio: 0.1 }, // 0.30000000000000004 in floats
        { concepto: 'b', cantidad: 1, precio: 0.2 },
        { concepto: 'c', cantidad: 3, precio: 19.99 }, // 59.97, not 59.970000000000006
        { concepto: 'd', cantidad: 1.5, precio: 33.33 }, // 49.995 → 50.00 (half up)
      ],
    });
    const calc = calcFactura(data);
    expect(calc.items.map((i) => i.importe)).toEqual(['0.30', '0.20', '59.97', '50.00']);
    expect(calc.subtotal).toBe('110.47');
    expect(calc.iva).toBe('17.68'); // 110.47 × 0.16 = 17.6752
    expect(calc.total).toBe('128.15');
    expect(new Dec(calc.subtotal).plus(calc.iva).toFixed(2)).toBe(calc.total);
  });

  it('applies the 8 % and 0 % rates and other currencies', () => {
    const base = { empresa: 'E', cliente: 'C', items: [{ concepto: 'a', cantidad: 1, precio: 1000.05 }] };
    expect(calcFactura(facturaSchema.parse({ ...base, tasa_iva: 0.08 })).iva).toBe('80.00');
    expect(calcFactura(facturaSchema.parse({ ...base, tasa_iva: 0 })).total).toBe('1000.05');
    const usd = renderHtml('factura', { ...base, moneda: 'usd' });
    expect(text(usd)).toContain('Total USD 1,160.06');
  });

  it('prints es-MX money, the items and the totals', () => {
    const html = text(renderHtml('factura', TEMPLATES[0]!.sample));
    // Sample: 18,500 + 3,600 + 6.5 × 450.50 (2,928.25) + 12 × 89.90 (1,078.80) = 26,107.05; IVA 4,177.128 → 4,177.13
    expect(html).toContain('Subtotal $26,107.05');
    expect(html).toContain('IVA 16 % $4,177.13');
    expect(html).toContain('Total $30,284.18');
    expect(html).toContain('Horas de soporte técnico $450.50 $2,928.25');
    expect(html).toContain('15 de marzo de 2024');
    // The sample is a stamped CFDI (the unstamped mark: test/unit/templates-factura.test.ts).
    expect(html).toContain('Folio fiscal 5F3A9C1E-7B2D-4E8F-A6C4-19D0B7E2F835');
  });

  it('escapes data', () => {
    const html = renderHtml('factura', {
      empresa: '<script>alert(1)</script>',
      cliente: 'A & B',
      items: [{ concepto: '<img src=x onerror=alert(1)>', cantidad: 1, precio: 1 }],
    });
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('<img src=x');
    expect(html).toContain('&lt;script&gt;');
    expect(html).toContain('A &amp; B');
  });
});

describe('ventas', () => {
  it('accepts the contract shape exactly and computes totals and shares', () => {
    const r = validateRenderRequest({
      template: 'ventas',
      format: 'csv',
      data: {
        title: 'Q1',
        rows: [
          { product: 'A', units: 3, revenue: 0.1 },
          { product: 'B', units: 1, revenue: 0.2 },
        ],
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) throw new Error('unreachable: asserted ok above'); // narrows the type
    const calc = calcVentas((r.request as { data: unknown }).data as never);
    expect(calc.total_revenue).toBe('0.30');
    expect(calc.total_units).toBe('4');
    expect(calc.ranked.map((x) => x.product)).toEqual(['B', 'A']);
    expect(calc.rows.map((x) => x.share)).toEqual(['0.3333', '0.6667']);
  });

  it('draws the chart as SVG, without scripts', () => {
    const html = renderHtml('ventas', TEMPLATES[1]!.sample);
    expect(html).toContain('<svg class="grafica"');
    expect(html.match(/<rect /g)).toHaveLength(6);
    expect(html).not.toMatch(/<script/i);
    expect(text(html)).toContain('Ingresos totales $731,804.50');
  });
});

describe('balance', () => {
  it('refuses a balance that does not balance, naming the difference', () => {
    const sample = structuredClone(TEMPLATES[2]!.sample) as {
      capital: { concepto: string; importe: number }[];
    };
    sample.capital[0]!.importe += 0.01;
    const r = validateRenderRequest({ template: 'balance', format: 'pdf', data: sample });
    expect(r.ok).toBe(false);
    if (r.ok) throw new Error('unreachable: asserted not ok above'); // narrows the type
    expect(r.problems).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'capital'],
        type: 'balance_mismatch',
        msg: expect.stringContaining('difference -0.01'),
      }),
    ]);
  });

  it('prints the totals', () => {
    const html = text(renderHtml('balance', TEMPLATES[2]!.sample));
    expect(html).toContain('Total activo $2,810,881.30');
    expect(html).toContain('Total pasivo + capital $2,810,881.30');
    expect(html).toContain('Depreciación acumulada -$386,500.00');
  });
});

describe('cotizacion, nomina, certificado', () => {
  it('cotizacion: discounts, IVA and total are exact', () => {
    const calc = calcCotizacion(
      cotizacionSchema.parse({
        empresa: 'E',
        cliente: 'C',
        fecha: '2024-01-10',
        items: [
          { concepto: 'a', cantidad: 24, precio: 4290, descuento: 0.05 },
          { concepto: 'b', cantidad: 3, precio: 0.1 },
        ],
      }),
    );
    expect(calc.items.map((i) => i.importe)).toEqual(['97812.00', '0.30']);
    expect(calc.descuentos).toBe('5148.00');
    expect(calc.subtotal).toBe('97812.30');
    expect(calc.iva).toBe('15649.97'); // 15,649.968
    expect(calc.total).toBe('113462.27');
  });

  it('nomina: net pay printed; deductions above pay refused', () => {
    const html = text(renderHtml('nomina', TEMPLATES[5]!.sample));
    expect(html).toContain('Neto a pagar $9,430.75'); // 11,943.75 − 2,513.00
    const bad = structuredClone(TEMPLATES[5]!.sample) as {
      deducciones: { concepto: string; importe: number }[];
    };
    bad.deducciones.push({ concepto: 'Préstamo', importe: 10000 });
    const r = validateRenderRequest({ template: 'nomina', format: 'pdf', data: bad });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems[0]).toMatchObject({ loc: ['body', 'data', 'deducciones'], type: 'negative_net_pay' });
  });

  it('certificado renders the name, course and signatures', () => {
    const html = text(renderHtml('certificado', TEMPLATES[3]!.sample));
    expect(html).toContain('María Fernanda Ríos Ibáñez');
    expect(html).toContain('con una duración de 120 horas');
    expect(html).toContain('Dra. Elena Castañeda Ruiz');
  });

  it('renders every template through renderDocument (html/zip, no Chromium needed except pdf)', async () => {
    for (const t of TEMPLATES) {
      const format = t.meta.formats.includes('html')
        ? 'html'
        : t.meta.formats.includes('xlsx')
          ? 'xlsx'
          : 'pdf';
      const r = validateRenderRequest({ template: t.meta.slug, format, data: t.sample });
      expect(r.ok).toBe(true);
      if (!r.ok || format === 'pdf') continue;
      const doc = await renderDocument(r.request, noChromium);
      expect(doc.filename).toBe(`${t.meta.slug}.${format}`);
      expect(doc.bytes.length).toBeGreaterThan(1000);
    }
  });
});
