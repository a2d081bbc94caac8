// The figures of a quote, exact decimals, rounded half up to the currency's decimals at each printed step:
//   per line  bruto = cantidad × precio; descuento = descuento_monto, or bruto × descuento; importe = bruto − descuento
//   subtotal  = Σ importe (after line discounts)
//   base      = subtotal − descuento global (descuento_global_monto, or subtotal × descuento_global)
//   IVA       = base × tasa_iva;  retenciones = base × tasa (IVA, ISR)
//   total     = base + IVA − retenciones, written con letra.
import { importeConLetra } from '../kit/con-letra';
import { dec, moneyText, roundMoney, sum, type Dec } from '../kit/money';
import { partida, type CotizacionData } from './schema';

/** "16", "10.6667", "1.25": a fraction as a percentage without trailing zeros. */
const pct = (f: number) => dec(f).times(100).toDecimalPlaces(4).toString();

export function calcCotizacion(data: CotizacionData, vigencia?: string) {
  const m = data.moneda;
  const money = (v: Dec) => moneyText(v, m);
  const lines = data.items.map((it) => ({ it, ...partida(it, m) }));
  const bruto = sum(lines.map((l) => l.bruto));
  const descuentos = sum(lines.map((l) => l.descuento));
  const subtotal = bruto.minus(descuentos);
  const global =
    data.descuento_global_monto !== undefined
      ? roundMoney(dec(data.descuento_global_monto), m)
      : roundMoney(subtotal.times(dec(data.descuento_global ?? 0)), m);
  const base = subtotal.minus(global);
  const iva = roundMoney(base.times(dec(data.tasa_iva)), m);
  const retIva = roundMoney(base.times(dec(data.retenciones?.iva ?? 0)), m);
  const retIsr = roundMoney(base.times(dec(data.retenciones?.isr ?? 0)), m);
  const total = base.plus(iva).minus(retIva).minus(retIsr);
  return {
    items: lines.map(({ it, bruto: b, descuento: d, importe: i }, n) => ({
      ...it,
      numero: n + 1,
      descuento_pct: it.descuento_monto === undefined && it.descuento > 0 ? pct(it.descuento) : null,
      bruto: money(b),
      descuento_importe: money(d),
      importe: money(i),
    })),
    hay_descuentos: !descuentos.isZero(),
    hay_unidades: data.items.some((it) => it.unidad),
    bruto: money(bruto),
    descuentos: money(descuentos),
    subtotal: money(subtotal),
    descuento_global: global.isZero() ? null : money(global),
    descuento_global_pct:
      data.descuento_global_monto === undefined && data.descuento_global ? pct(data.descuento_global) : null,
    base: money(base),
    iva: money(iva),
    tasa_iva_pct: pct(data.tasa_iva),
    ret_iva: data.retenciones?.iva ? money(retIva) : null,
    ret_iva_pct: data.retenciones?.iva ? pct(data.retenciones.iva) : null,
    ret_isr: data.retenciones?.isr ? money(retIsr) : null,
    ret_isr_pct: data.retenciones?.isr ? pct(data.retenciones.isr) : null,
    total: money(total),
    total_letra: importeConLetra(total, m),
    /** Line discounts plus the overall discount (null without discounts). */
    ahorro: descuentos.plus(global).isZero() ? null : money(descuentos.plus(global)),
    vigencia: vigencia ?? null,
  };
}
