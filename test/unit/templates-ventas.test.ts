// ventas, without a browser: the contract's shape and the optional members; figures checked against independent
// integer-centavo arithmetic; ranking, shares, cumulative shares, ABC classes, groups and targets; the SVG charts
// (geometry, truncation, no scripts, caller text escaped); the footer's CSS string; the spreadsheet model (formulas
// with exact cached results, the group sheet, the native chart's ranges).
import { Dec } from '../../templates/kit/money';
import { validateRenderRequest } from '../../lambdas/documents/use-cases/render-request';
import { builtInPartials, loadSource, TEMPLATES } from '../../lambdas/documents/domain/template-registry';
import { cssString } from '../../templates/kit/css-string';
import { barChart, donutChart, fitText, ringSegment, textWidth } from '../../templates/kit/charts';
import { renderTrusted } from '../../lambdas/documents/templating/trusted';
import { calcVentas, TOP_BARS } from '../../templates/ventas/calc';
import { largeVentas } from '../../templates/ventas/examples';
import { schema, type VentasData } from '../../templates/ventas/schema';

const ventas = TEMPLATES.find((t) => t.meta.slug === 'ventas')!;
const parse = (d: unknown) => schema.parse(d);

function html(data: unknown): string {
  const { source, hash } = loadSource('ventas');
  return renderTrusted(source, ventas.view(parse(data) as never), builtInPartials(), `ventas@${hash}`);
}
const visible = (h: string) =>
  h
    .replace(/<style[\s\S]*?<\/style>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/[\s\u00a0]+/g, ' ');

/** Cents as BigInt from a JSON number (exactly what was written, 2 decimals at most in these tests). */
const cents = (n: number) => BigInt(Math.round(n * 100));
const money = (c: bigint) => `${c / 100n}.${String(c % 100n).padStart(2, '0')}`;

describe('data', () => {
  it("accepts the contract's shape exactly, and rejects what it forbids", () => {
    const ok = validateRenderRequest({
      template: 'ventas',
      format: 'pdf',
      data: { title: 'Q1', rows: [{ product: 'A', units: 1, revenue: 10 }] },
    });
    expect(ok.ok).toBe(true);
    const bad = validateRenderRequest({
      template: 'ventas',
      format: 'pdf',
      data: { title: 'Q1', rows: [{ product: 'A', units: -1, revenue: 'diez' }] },
    });
    expect(bad.ok).toBe(false);
    if (!bad.ok)
      expect(bad.problems.map((p) => p.loc.join('.'))).toEqual([
        'body.data.rows.0.units',
        'body.data.rows.0.revenue',
      ]);
  });

  it('group_by needs the field on some row (400 naming it)', () => {
    const r = validateRenderRequest({
      template: 'ventas',
      format: 'xlsx',
      data: { title: 'T', group_by: 'region', rows: [{ product: 'A', units: 1, revenue: 1 }] },
    });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.problems).toEqual([
        expect.objectContaining({ loc: ['body', 'data', 'group_by'], type: 'group_by_without_values' }),
      ]);
  });
});

describe('calcVentas', () => {
  it('totals, ranking, shares and cumulative shares agree with integer arithmetic (300 rows)', () => {
    const data = parse(largeVentas(300));
    const c = calcVentas(data);
    const totalCents = data.rows.reduce((s, r) => s + cents(r.revenue), 0n);
    expect(c.total_revenue).toBe(money(totalCents));
    expect(c.total_units).toBe(String(data.rows.reduce((s, r) => s + r.units, 0)));
    // Ranked by revenue, descending; every product once.
    const revenues = c.ranked.map((r) => cents(Number(r.revenue)));
    for (let i = 1; i < revenues.length; i++) expect(revenues[i - 1]! >= revenues[i]!).toBe(true);
    expect(new Set(c.ranked.map((r) => r.product)).size).toBe(300);
    // Shares: revenue / total to 4 decimals; the running share ends at exactly 1.
    const first = c.ranked[0]!;
    expect(Number(first.share)).toBeCloseTo(Number(cents(Number(first.revenue))) / Number(totalCents), 4);
    expect(c.ranked.at(-1)!.cumulative).toBe('1');
    // ABC: A until 80 % is reached (the item crossing it included), then B to 95 %, then C.
    const firstB = c.ranked.findIndex((r) => r.abc !== 'A');
    expect(Number(c.ranked[firstB - 1]!.cumulative)).toBeGreaterThanOrEqual(0.8);
    expect(Number(c.ranked[firstB - 2]!.cumulative)).toBeLessThan(0.8);
    expect(c.pareto!.products).toBe(firstB);
    expect(c.ranked.filter((r) => r.abc === 'C').length).toBeGreaterThan(0);
    // Groups: the four regions add up to the total.
    expect(c.groups).toHaveLength(4);
    expect(c.groups.reduce((s, g) => s + cents(Number(g.revenue)), 0n)).toBe(totalCents);
    expect(c.groups.reduce((s, g) => s + g.products, 0)).toBe(300);
  });

  it('targets: a product without one does not inflate the attainment; a period target wins', () => {
    const rows = [
      { product: 'A', units: 1, revenue: 100, target: 200 },
      { product: 'B', units: 1, revenue: 300 },
    ];
    const c = calcVentas(parse({ title: 'T', rows }));
    expect(c.targets_total).toBe('200.00');
    expect(c.targets_attainment).toBe('0.5'); // A: 100 of 200; B has no target
    expect(c.attainment).toBe('0.5');
    expect(c.targeted_products).toBe(1);
    const period = calcVentas(parse({ title: 'T', rows, target: 320 }));
    expect(period.attainment).toBe('1.25'); // 400 of 320
    expect(period.targets_attainment).toBe('0.5');
  });

  it('negative revenue (returns): no share donut, bars grow left of the zero line', () => {
    const c = calcVentas(
      parse({
        title: 'T',
        rows: [
          { product: 'Venta', units: 2, revenue: 500 },
          { product: 'Devoluciones', units: 0, revenue: -100 },
        ],
      }),
    );
    expect(c.total_revenue).toBe('400.00');
    expect(c.charts.donut).toBeNull();
    const rects = c.charts.bars.shapes.filter((s) => s.tag === 'rect');
    const x = (s: (typeof rects)[number], k: string) => Number(s.a.find((a) => a[0] === k)![1]);
    const zero = x(rects[0]!, 'x'); // the positive bar starts at zero
    expect(x(rects[1]!, 'x') + x(rects[1]!, 'width')).toBeCloseTo(zero, 1); // the negative one ends there
    expect(x(rects[0]!, 'width') / x(rects[1]!, 'width')).toBeCloseTo(5, 1);
    expect(c.ranked.map((r) => r.average)).toEqual(['250.00', null]); // 0 units: no average price
  });

  it('exact decimals: 0.1 + 0.2 and shares of a third', () => {
    const c = calcVentas(
      parse({
        title: 'T',
        rows: [
          { product: 'A', units: 3, revenue: 0.1 },
          { product: 'B', units: 1, revenue: 0.2 },
        ],
      }),
    );
    expect(c.total_revenue).toBe('0.30');
    // Shares stay exact in calc (rounded once, where printed): 2/3 and 1/3, and the running share ends at 1.
    const four = (s: string) => new Dec(s).toDecimalPlaces(4).toString();
    expect(c.ranked.map((r) => [r.product, four(r.share), r.cumulative])).toEqual([
      ['B', '0.6667', new Dec(2).div(3).toString()],
      ['A', '0.3333', '1'],
    ]);
    expect(c.average_price).toBe('0.08'); // 0.3 / 4 = 0.075 → half up
  });
});

describe('charts', () => {
  it('bar lengths are proportional to the values; long labels are cut with "…" to fit', () => {
    const chart = barChart(
      [
        {
          label: 'Un producto con un nombre larguísimo que no cabe en la columna',
          value: '300',
          display: '$300.00',
        },
        { label: 'Corto', value: '100', display: '$100.00' },
      ],
      { width: 400, title: 'x' },
    );
    const rects = chart.shapes.filter((s) => s.tag === 'rect');
    const w = rects.map((r) => Number(r.a.find((a) => a[0] === 'width')![1]));
    expect(w[0]! / w[1]!).toBeCloseTo(3, 2);
    const label = chart.shapes.find((s) => s.tag === 'text')!.text!;
    expect(label.endsWith('…')).toBe(true);
    expect(textWidth(label, 10.5)).toBeLessThanOrEqual(400 * 0.36);
    expect(fitText('Corto', 100, 10)).toBe('Corto');
  });

  it('donut segments cover the circle in order; a single 100 % slice is a full ring', () => {
    const d = donutChart(
      [
        { label: 'A', share: 0.5, display: '50 %' },
        { label: 'B', share: 0.25, display: '25 %' },
        { label: 'C', share: 0.25, display: '25 %', muted: true },
      ],
      { width: 280, title: 'x' },
    );
    const paths = d.shapes.filter((s) => s.tag === 'path').map((p) => String(p.a[0]![1]));
    expect(paths).toHaveLength(3);
    // The first half starts at 12 o'clock and ends at 6 o'clock (same x, below the centre).
    const nums = paths[0]!.match(/-?\d+(\.\d+)?/g)!.map(Number);
    expect(nums[0]).toBeCloseTo(nums[7]!, 1);
    const ring = ringSegment(50, 50, 40, 24, 0, 1);
    expect(ring.match(/A/g)).toHaveLength(4); // two half arcs per radius
    expect(ring.match(/Z/g)).toHaveLength(2);
  });

  it('cssString leaves nothing that could close the string or the style sheet', () => {
    const hostile = 'Año "2024" </style><script>alert(1)</script> \\ ñ';
    const s = cssString(hostile);
    // One string literal: nothing inside but letters, digits, spaces, plain punctuation and hex escapes.
    expect(s).toMatch(/^"(?:[\p{L}\p{N} .,:·–—/()-]|\\[0-9a-f]{1,6} )*"$/u);
    // Decoding the CSS escapes gives the text back.
    const decoded = s
      .slice(1, -1)
      .replace(/\\([0-9a-f]{1,6}) /g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)));
    expect(decoded).toBe(hostile);
  });
});

describe('html', () => {
  it('the sample: figures, charts as SVG, no script', () => {
    const h = html(ventas.sample);
    const t = visible(h);
    expect(t).toContain('Ingresos totales $731,804.50');
    expect(t).toContain('Unidades vendidas 3,561');
    expect(t).toContain('Precio promedio $205.51'); // 731,804.50 / 3,561 = 205.5053…
    expect(t).toContain('Espresso Chiapas 1 kg 32.8 % de los ingresos');
    expect(t).toContain('101.2 % de la meta de $723,000.00');
    expect(t).toContain('Resumen por categoría');
    expect(h.match(/<svg class="grafica"/g)).toHaveLength(2); // bars and donut (6 products: no Pareto)
    expect(h).not.toMatch(/<script/i);
    // Footer: each escape ends with a space the CSS parser consumes, so "é de" is "\0000e9" + " " + " de".
    expect(h).toContain('content: "Reporte de ventas del primer trimestre · Café de Altura');
  });

  it('leaves its page footer out when the request draws its own (_pie_propio)', () => {
    const { source, hash } = loadSource('ventas');
    const view = { ...ventas.view(parse(ventas.sample) as never), _pie_propio: true };
    const own = renderTrusted(source, view, builtInPartials(), `ventas@${hash}`);
    expect(html(ventas.sample)).toContain('@bottom-right');
    expect(own).not.toContain('@bottom-right');
  });

  it('escapes caller text inside the charts and the tables', () => {
    const h = html({
      title: '</style><script>alert(1)</script>',
      rows: [
        {
          product: '<img src=x onerror=alert(1)>',
          units: 1,
          revenue: 10,
          category: '"><svg onload=alert(1)>',
        },
        { product: 'B & C', units: 1, revenue: 5 },
      ],
      group_by: 'category',
    });
    expect(h).not.toMatch(/<script|<img|<svg onload/i);
    expect(h).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(h).toContain('B &amp; C');
  });

  it('long reports add the Pareto chart, ABC classes and the "top 10 of n" caption', () => {
    const h = html(largeVentas(40));
    expect(h).toContain('data-chart="pareto"');
    expect(visible(h)).toContain(`Los ${TOP_BARS} principales de 40 productos`);
    expect(visible(h)).toMatch(/El 80 % de los ingresos proviene de \d+ productos/);
    expect(h.match(/class="abc abc-[ABC]"/g)).toHaveLength(40);
  });
});

describe('sheets', () => {
  const [main, groups] = ventas.sheets!(parse(ventas.sample) as VentasData);

  it('ranked table with formulas whose cached results are the exact figures', () => {
    expect(main!.columns.map((c) => c.header)).toEqual([
      '#',
      'Producto',
      'Categoría',
      'Unidades',
      'Ingresos',
      'Precio promedio',
      'Participación',
      'Acumulado',
      'Meta',
      'Cumplimiento',
    ]);
    const first = main!.rows[0]!;
    expect(first.product).toBe('Espresso Chiapas 1 kg');
    expect(first.share).toEqual({
      formula: 'IF({$revenue@total}=0,0,{revenue}/{$revenue@total})',
      result: 239850 / 731804.5,
    });
    expect(first.average).toMatchObject({ result: 390 }); // 239,850 / 615
    expect(main!.rows.at(-1)!.cumulative).toMatchObject({ result: 1 });
    expect(main!.totals).toMatchObject({ sum: ['units', 'revenue', 'target'] });
    expect(main!.charts).toEqual([
      expect.objectContaining({ type: 'bar', categories: 'product', values: ['revenue'], rows: [0, 6] }),
    ]);
  });

  it('group sheet: SUMIF/COUNTIF over the main sheet, a doughnut chart', () => {
    expect(groups!.name).toBe('Por categoría');
    expect(groups!.rows.map((r) => r.name)).toEqual(['Café', 'Accesorios', 'Suscripciones']);
    expect(groups!.rows[0]!.revenue).toEqual({
      formula: 'SUMIF({Ventas!$group@0:last},{name},{Ventas!$revenue@0:last})',
      result: 543450, // 186,000 + 239,850 + 117,600
    });
    expect(groups!.charts![0]).toMatchObject({ type: 'doughnut', rows: [0, 3] });
    const sumOfGroups = groups!.rows.reduce(
      (s, r) => s.plus(String((r.revenue as { result: number }).result)),
      new Dec(0),
    );
    expect(sumOfGroups.toFixed(2)).toBe('731804.50');
  });
});
