// Re-checks a CFDI's figures against its conceptos with SAT's rules (Anexo 20, "Estándar del CFDI 4.0", the
// validations a PAC applies), and says what does not add up. Nothing is corrected: the printed representation shows
// the XML's figures and these findings as a warning.
//
//   Concepto@Importe      within [ (Cantidad − ½·10^-dc)·(ValorUnitario − ½·10^-dv) truncated,
//                                  (Cantidad + ½·10^-dc)·(ValorUnitario + ½·10^-dv) rounded up ] to the
//                         currency's decimals (dc, dv: the decimals Cantidad and ValorUnitario are written with)
//   Traslado/Retención    Importe within [ (Base − ½·10^-d)·Tasa truncated, (Base + ½·10^-d)·Tasa rounded up ] to
//   (TipoFactor Tasa)     the decimals the Importe is written with (d: the Base's decimals)
//   SubTotal              = Σ Concepto@Importe; Descuento = Σ Concepto@Descuento
//   Impuestos             each Traslado (Impuesto, TipoFactor, TasaOCuota) and Retención (Impuesto) = the sum of
//                         the conceptos' ones, rounded to the currency; the Total* = the sums of its lines
//   Total                 = SubTotal − Descuento + TotalImpuestosTrasladados − TotalImpuestosRetenidos
//                         + implocal TotaldeTraslados − implocal TotaldeRetenciones (Impuestos locales 1.0)
import { currencyDigits, Dec, dec, sum } from '../money';
import { leerImpLocal } from './implocal';
import type { CfdiLeido, TrasladoLeido } from './leer';

const decimals = (s: string) => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);
const half = (d: number) => new Dec(10).pow(-d).div(2);

function num(s: string | undefined): Dec | undefined {
  if (s === undefined || !/^-?\d+(\.\d+)?$/.test(s)) return undefined;
  return dec(s);
}

/** Whether `importe` (as written) is within SAT's bounds of a × b given the precision each is written with. */
function dentro(importe: string, a: string, b: string, da: number, db: number): boolean {
  const v = num(importe);
  const x = num(a);
  const y = num(b);
  if (!v || !x || !y) return false;
  const d = decimals(importe);
  const lo = x
    .minus(half(da))
    .times(y.minus(half(db)).isNeg() ? 0 : y.minus(half(db)))
    .toDecimalPlaces(d, Dec.ROUND_DOWN);
  const hi = x
    .plus(half(da))
    .times(y.plus(half(db)))
    .toDecimalPlaces(d, Dec.ROUND_UP);
  return v.gte(lo) && v.lte(hi);
}

export interface Discrepancia {
  /** Where, in XPath-like terms (e.g. "Concepto[2]/Traslado[1]@Importe", "Comprobante@Total"). */
  donde: string;
  /** What the XML says. */
  dice: string;
  /** What its conceptos give (a value or, for tolerance checks, the bounds). */
  esperado: string;
}

/** Text in printable ASCII for an HTTP header: accents dropped (á → a), × → x, − → -, anything else left → ?. */
export function asciiHeader(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/×/g, 'x')
    .replace(/[−–—]/g, '-')
    .replace(/[ \t\r\n]+/g, ' ')
    .replace(/[^\x20-\x7e]/g, '?');
}

/** Discrepancies in ASCII for an HTTP header (X-CFDI-Avisos). */
export function avisoHeader(d: Discrepancia[]): string {
  return asciiHeader(d.map((x) => `${x.donde}: XML ${x.dice}, expected ${x.esperado}`).join('; ')).slice(
    0,
    1500,
  );
}

/** SAT's arithmetic checks over the XML's own figures: the discrepancies (empty when everything adds up). */

export function verificarTotales(c: CfdiLeido): Discrepancia[] {
  const out: Discrepancia[] = [];
  const digits = currencyDigits(c.moneda);
  const money = (v: Dec) => v.toDecimalPlaces(digits, Dec.ROUND_HALF_UP);
  const eq = (donde: string, dice: string | undefined, esperado: Dec) => {
    const v = num(dice ?? '0');
    if (!v || !v.eq(money(esperado)))
      out.push({ donde, dice: dice ?? '(ausente)', esperado: money(esperado).toFixed(digits) });
  };

  c.conceptos.forEach((k, i) => {
    const trail = `Concepto[${i + 1}]`;
    if (!dentro(k.importe, k.cantidad, k.valorUnitario, decimals(k.cantidad), decimals(k.valorUnitario)))
      out.push({
        donde: `${trail}@Importe`,
        dice: k.importe,
        esperado: `Cantidad × ValorUnitario = ${dec(k.cantidad || '0')
          .times(dec(k.valorUnitario || '0'))
          .toString()}`,
      });
    const check = (
      t: { base?: string; tipoFactor?: string; tasaOCuota?: string; importe?: string },
      where: string,
    ) => {
      if (t.tipoFactor !== 'Tasa' || !t.base || !t.tasaOCuota || !t.importe) return;
      if (!dentro(t.importe, t.base, t.tasaOCuota, decimals(t.base), 12))
        out.push({
          donde: `${where}@Importe`,
          dice: t.importe,
          esperado: `Base × TasaOCuota = ${dec(t.base).times(dec(t.tasaOCuota)).toString()}`,
        });
    };
    k.traslados.forEach((t, j) => check(t, `${trail}/Traslado[${j + 1}]`));
    k.retenciones.forEach((t, j) => check(t, `${trail}/Retencion[${j + 1}]`));
  });

  const subtotal = sum(c.conceptos.map((k) => num(k.importe) ?? new Dec(0)));
  const descuento = sum(c.conceptos.map((k) => num(k.descuento) ?? new Dec(0)));
  eq('Comprobante@SubTotal', c.subTotal, subtotal);
  if (!descuento.isZero() || c.descuento !== undefined) eq('Comprobante@Descuento', c.descuento, descuento);

  const key = (t: TrasladoLeido) =>
    `${t.impuesto}|${t.tipoFactor}|${t.tasaOCuota ? dec(t.tasaOCuota).toString() : ''}`;
  const traslados = new Map<string, { base: Dec; importe: Dec }>();
  const retenciones = new Map<string, Dec>();
  for (const k of c.conceptos) {
    for (const t of k.traslados) {
      const g = traslados.get(key(t)) ?? { base: new Dec(0), importe: new Dec(0) };
      traslados.set(key(t), {
        base: g.base.plus(num(t.base) ?? 0),
        importe: g.importe.plus(num(t.importe) ?? 0),
      });
    }
    for (const r of k.retenciones)
      retenciones.set(r.impuesto, (retenciones.get(r.impuesto) ?? new Dec(0)).plus(num(r.importe) ?? 0));
  }
  const imp = c.impuestos;
  const dichos = new Set((imp?.traslados ?? []).map(key));
  for (const [k, g] of traslados)
    if (!dichos.has(k))
      out.push({
        donde: `Impuestos/Traslado[${k.replace(/\|/g, ' ')}]`,
        dice: '(ausente)',
        esperado: money(g.importe).toFixed(digits),
      });
  (imp?.traslados ?? []).forEach((t, j) => {
    const g = traslados.get(key(t)) ?? { base: new Dec(0), importe: new Dec(0) };
    eq(`Impuestos/Traslado[${j + 1}]@Base`, t.base, g.base);
    if (t.tipoFactor !== 'Exento') eq(`Impuestos/Traslado[${j + 1}]@Importe`, t.importe, g.importe);
  });
  const retDichas = new Set((imp?.retenciones ?? []).map((r) => r.impuesto));
  for (const [k, v] of retenciones)
    if (!retDichas.has(k))
      out.push({ donde: `Impuestos/Retencion[${k}]`, dice: '(ausente)', esperado: money(v).toFixed(digits) });
  (imp?.retenciones ?? []).forEach((r, j) =>
    eq(`Impuestos/Retencion[${j + 1}]@Importe`, r.importe, retenciones.get(r.impuesto) ?? new Dec(0)),
  );

  const totalTras = sum((imp?.traslados ?? []).map((t) => num(t.importe) ?? new Dec(0)));
  const totalRet = sum((imp?.retenciones ?? []).map((r) => num(r.importe) ?? new Dec(0)));
  if (imp?.totalImpuestosTrasladados !== undefined || !totalTras.isZero())
    eq('Impuestos@TotalImpuestosTrasladados', imp?.totalImpuestosTrasladados, totalTras);
  if (imp?.totalImpuestosRetenidos !== undefined || !totalRet.isZero())
    eq('Impuestos@TotalImpuestosRetenidos', imp?.totalImpuestosRetenidos, totalRet);

  // Impuestos locales 1.0 (implocal): its TotaldeTraslados and TotaldeRetenciones enter Comprobante@Total, and each
  // is the sum of its lines (SAT's "Estándar del complemento de impuestos locales").
  const loc = leerImpLocal(c.complementoNodos);
  if (loc) {
    eq(
      'ImpuestosLocales@TotaldeTraslados',
      loc.totalTraslados,
      sum(loc.traslados.map((t) => num(t.importe) ?? new Dec(0))),
    );
    eq(
      'ImpuestosLocales@TotaldeRetenciones',
      loc.totalRetenciones,
      sum(loc.retenciones.map((t) => num(t.importe) ?? new Dec(0))),
    );
  }
  const total = (num(c.subTotal) ?? new Dec(0))
    .minus(num(c.descuento) ?? 0)
    .plus(num(imp?.totalImpuestosTrasladados) ?? 0)
    .minus(num(imp?.totalImpuestosRetenidos) ?? 0)
    .plus(num(loc?.totalTraslados) ?? 0)
    .minus(num(loc?.totalRetenciones) ?? 0);
  eq('Comprobante@Total', c.total, total);
  return out;
}
