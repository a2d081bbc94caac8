// cotizacion (pure, no Chromium): exact arithmetic of line and overall discounts (fraction or amount), IVA 16/8/0,
// retenciones, total con letra; validity from a date or a number of days; per-field 400s with English messages;
// what the HTML prints (totals, terms, acceptance block, repeated table header) and that caller text is escaped.
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { builtInPartials, loadSource } from '../../lambdas/documents/domain/template-registry';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { calcCotizacion, cotizacion, viewCotizacion } from '../../templates/cotizacion/meta';
import { cssString } from '../../templates/kit/css-string';
import { schema } from '../../templates/cotizacion/schema';

const base = {
  empresa: 'Taller Núñez',
  cliente: 'Cliente Uno',
  fecha: '2026-11-21',
  items: [{ concepto: 'Servicio', cantidad: 1, precio: 10000 }],
};

const calc = (data: unknown) => calcCotizacion(schema.parse(data));

function html(data: unknown): string {
  const { source, hash } = loadSource('cotizacion');
  return renderTrusted(source, viewCotizacion(schema.parse(data)), builtInPartials(), `cotizacion@${hash}`);
}

function text(h: string): string {
  return h
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<title>[\s\S]*?<\/title>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&#39;/g, "'")
    .replace(/[\s\u00a0]+/g, ' ');
}

function problems(data: unknown) {
  const r = validateRenderRequest({ template: 'cotizacion', format: 'pdf', data });
  return r.ok ? [] : r.problems;
}

describe('cotizacion arithmetic (exact decimals)', () => {
  it('line discounts as a fraction or as an amount, rounded half up per line', () => {
    const c = calc({
      ...base,
      items: [
        { concepto: 'a', cantidad: 3, precio: 0.1 }, // 0.30000000000000004 in binary floats
        { concepto: 'b', cantidad: 3, precio: 19.99, descuento: 0.1 }, // 59.97 − 5.997 → 6.00
        { concepto: 'c', cantidad: 2, precio: 100, descuento_monto: 15.5 },
      ],
    });
    expect(c.items.map((i) => [i.bruto, i.descuento_importe, i.importe])).toEqual([
      ['0.30', '0.00', '0.30'],
      ['59.97', '6.00', '53.97'],
      ['200.00', '15.50', '184.50'],
    ]);
    expect(c.items.map((i) => i.descuento_pct)).toEqual([null, '10', null]);
    expect([c.bruto, c.descuentos, c.subtotal]).toEqual(['260.27', '21.50', '238.77']);
    expect(c.iva).toBe('38.20'); // 38.2032
    expect(c.total).toBe('276.97');
  });

  it('an overall discount (fraction or amount) lowers the taxable base', () => {
    const pct = calc({ ...base, descuento_global: 0.03 });
    expect([
      pct.subtotal,
      pct.descuento_global,
      pct.descuento_global_pct,
      pct.base,
      pct.iva,
      pct.total,
    ]).toEqual(['10000.00', '300.00', '3', '9700.00', '1552.00', '11252.00']);
    const amount = calc({ ...base, descuento_global_monto: 1234.56 });
    expect([amount.base, amount.iva, amount.total, amount.descuento_global_pct]).toEqual([
      '8765.44',
      '1402.47', // 1,402.4704
      '10167.91',
      null,
    ]);
  });

  it('IVA 8 % and 0 %, and retenciones of IVA (two thirds) and ISR for professional fees', () => {
    expect(calc({ ...base, tasa_iva: 0.08 }).total).toBe('10800.00');
    expect(calc({ ...base, tasa_iva: 0 }).iva).toBe('0.00');
    const c = calc({ ...base, retenciones: { iva: 0.106667, isr: 0.1 } });
    expect([c.iva, c.ret_iva, c.ret_iva_pct, c.ret_isr, c.ret_isr_pct, c.total]).toEqual([
      '1600.00',
      '1066.67',
      '10.6667',
      '1000.00',
      '10',
      '9533.33',
    ]);
    expect(c.total_letra).toBe('NUEVE MIL QUINIENTOS TREINTA Y TRES PESOS 33/100 M.N.');
  });

  it('writes the total con letra in the quote currency', () => {
    const usd = calc({
      ...base,
      moneda: 'usd',
      tasa_iva: 0,
      items: [{ concepto: 'x', cantidad: 1, precio: 1000.05 }],
    });
    expect(usd.total_letra).toBe('MIL DÓLARES 05/100 USD');
    expect(
      text(
        html({
          ...base,
          moneda: 'USD',
          tasa_iva: 0,
          items: [{ concepto: 'x', cantidad: 1, precio: 1000.05 }],
        }),
      ),
    ).toContain('Total USD 1,000.05');
  });

  it("the sample's figures", () => {
    const c = calcCotizacion(schema.parse(cotizacion.sample));
    // 24 × 4,290 − 5 % = 97,812; 2 × 38,900; 24 × 650.50 − 600 = 15,012; 28,000 → subtotal 218,624;
    // − 3 % (6,558.72) = 212,065.28; IVA 33,930.4448 → 33,930.44; total 245,995.72.
    expect([c.bruto, c.descuentos, c.subtotal, c.descuento_global, c.base, c.iva, c.total]).toEqual([
      '224372.00',
      '5748.00',
      '218624.00',
      '6558.72',
      '212065.28',
      '33930.44',
      '245995.72',
    ]);
    expect(c.total_letra).toBe(
      'DOSCIENTOS CUARENTA Y CINCO MIL NOVECIENTOS NOVENTA Y CINCO PESOS 72/100 M.N.',
    );
    expect(c.ahorro).toBe('12306.72');
  });
});

describe('cotizacion validity', () => {
  it('computes vigencia from días de vigencia', () => {
    const v = viewCotizacion(schema.parse({ ...base, fecha: '2024-02-15', dias_vigencia: 15 })).calc;
    expect([v.vigencia, v.dias_vigencia]).toEqual(['2024-03-01', 15]); // across a leap February
    expect(text(html({ ...base, fecha: '2024-02-15', dias_vigencia: 15 }))).toContain(
      'Válida hasta 1 de marzo de 2024',
    );
  });

  it('keeps a given vigencia and counts its days', () => {
    const v = viewCotizacion(schema.parse({ ...base, vigencia: '2026-12-21' })).calc;
    expect([v.vigencia, v.dias_vigencia]).toEqual(['2026-12-21', 30]);
  });

  it('without either, prints no validity line', () => {
    expect(viewCotizacion(schema.parse(base)).calc.vigencia).toBeNull();
    expect(text(html(base))).not.toContain('Válida hasta');
  });
});

describe('cotizacion 400s', () => {
  it('needs empresa, cliente, fecha and at least one item', () => {
    const p = problems({ items: [] });
    expect(p.map((x) => [x.loc.slice(2).join('.'), x.type]).sort()).toEqual([
      ['cliente', 'missing'],
      ['empresa', 'missing'],
      ['fecha', 'missing'],
      ['items', 'too_short'],
    ]);
  });

  it('refuses two kinds of discount at once and discounts above the amount, naming the field', () => {
    const p = problems({
      ...base,
      items: [
        { concepto: 'a', cantidad: 1, precio: 100, descuento: 0.1, descuento_monto: 5 },
        { concepto: 'b', cantidad: 2, precio: 10, descuento_monto: 20.01 },
      ],
      descuento_global: 0.1,
      descuento_global_monto: 1,
    });
    expect(p).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'items', 0, 'descuento_monto'],
        msg: expect.stringMatching(/not both/),
      }),
      expect.objectContaining({
        loc: ['body', 'data', 'items', 1, 'descuento_monto'],
        msg: "descuento_monto (20.01) is more than the item's importe (20.00)",
      }),
      expect.objectContaining({
        loc: ['body', 'data', 'descuento_global_monto'],
        msg: expect.stringMatching(/not both/),
      }),
    ]);
  });

  it('refuses an overall discount above the subtotal', () => {
    expect(problems({ ...base, descuento_global_monto: 10000.01 })).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'descuento_global_monto'],
        msg: 'descuento_global_monto (10000.01) is more than the subtotal (10000.00)',
      }),
    ]);
    expect(problems({ ...base, descuento_global_monto: 10000 })).toEqual([]);
  });

  it('refuses a validity before the date, and a date and a number of days that disagree', () => {
    expect(problems({ ...base, vigencia: '2026-11-20' })).toEqual([
      expect.objectContaining({ loc: ['body', 'data', 'vigencia'], type: 'date_order' }),
    ]);
    expect(problems({ ...base, vigencia: '2026-12-21', dias_vigencia: 31 })).toEqual([
      expect.objectContaining({
        loc: ['body', 'data', 'dias_vigencia'],
        msg: expect.stringContaining('31 days from 2026-11-21 is 2026-12-22, not 2026-12-21'),
      }),
    ]);
    expect(problems({ ...base, vigencia: '2026-12-21', dias_vigencia: 30 })).toEqual([]);
  });

  it('refuses an IVA rate SAT does not have and retentions above the law', () => {
    const p = problems({ ...base, tasa_iva: 0.15, retenciones: { iva: 0.2 } });
    expect(p.map((x) => x.loc.slice(2).join('.'))).toEqual(['tasa_iva', 'retenciones.iva']);
  });
});

describe('cotizacion HTML', () => {
  const sample = text(html(cotizacion.sample));

  it('prints the parties, items, totals, letra, terms and the acceptance block', () => {
    expect(sample).toContain('Preparada para Hotel Boutique Casa Azul, S.A. de C.V.');
    expect(sample).toContain('RFC HBC180704QX2');
    expect(sample).toContain('Válida hasta 5 de junio de 2024');
    expect(sample).toContain('Vigencia: 30 días');
    expect(sample).toContain('PS-550M Panel solar monocristalino 550 W');
    expect(sample).toContain('pieza 24 $4,290.00 −5 % $97,812.00');
    expect(sample).toContain('pieza 24 $650.50 −$600.00 $15,012.00');
    expect(sample).toContain(
      'Subtotal $218,624.00 Descuento 3 % −$6,558.72 Base $212,065.28 IVA 16 % $33,930.44',
    );
    expect(sample).toContain('Total $245,995.72');
    expect(sample).toContain('DOSCIENTOS CUARENTA Y CINCO MIL NOVECIENTOS NOVENTA Y CINCO PESOS 72/100 M.N.');
    expect(sample).toContain('Términos y condiciones');
    expect(sample).toContain('Anticipo del 50 %');
    expect(sample).toContain('Aceptación del cliente');
    expect(sample).toContain('Ing. Ana Treviño Salinas Gerente comercial');
  });

  it('leaves the acceptance block out on request, and the discount column when there are none', () => {
    const h = text(html({ ...base, aceptacion: false }));
    expect(h).not.toContain('Aceptación del cliente');
    expect(h).not.toContain('Descuento');
  });

  it('repeats the table header on every page and numbers pages in the footer', () => {
    const h = html(cotizacion.sample);
    expect(h).toMatch(/<table class="partidas">\s*<thead>/);
    expect(h).toContain('counter(page) " de " counter(pages)');
  });

  it('escapes caller text in the page and in the footer CSS', () => {
    const h = html({
      ...base,
      empresa: '"; } body { display: none } </style><script>x</script>',
      cliente: 'A & B',
    });
    expect(h).not.toContain('<script>x');
    const css = [...h.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1]).join('\n');
    // In the footer's CSS string the quote, braces and tags are CSS escapes: one string, nothing after it.
    expect(css).toContain(
      'content: "Cotización · \\22 \\3b  \\7d  body \\7b  display: none \\7d  \\3c /style\\3e \\3c script\\3e x\\3c /script\\3e  para A \\26  B";',
    );
    expect(h).toContain('A &amp; B');
    expect(cssString('A & "B"\\ </style>')).toBe('"A \\26  \\22 B\\22 \\5c  \\3c /style\\3e "');
  });
});
