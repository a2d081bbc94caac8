// cotizacion: price quote. Per line: importe = cantidad × precio; descuento = importe × fracción (rounded);
// neto = importe − descuento. Subtotal = Σ neto; IVA = subtotal × tasa (rounded); total = subtotal + IVA.
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { dec, moneyText, roundMoney, sum } from '../../lambdas/documents/domain/money';
import { schema, type CotizacionData } from './schema';
import sample from './sample.json';

export function calcCotizacion(data: CotizacionData) {
  const m = data.moneda;
  const items = data.items.map((it) => {
    const bruto = roundMoney(dec(it.cantidad).times(dec(it.precio)), m);
    const descuento = roundMoney(bruto.times(dec(it.descuento)), m);
    return {
      ...it,
      descuento_pct: dec(it.descuento).times(100).toString(),
      bruto: moneyText(bruto, m),
      descuento_importe: moneyText(descuento, m),
      importe: moneyText(bruto.minus(descuento), m),
    };
  });
  const bruto = sum(items.map((i) => dec(i.bruto)));
  const descuentos = sum(items.map((i) => dec(i.descuento_importe)));
  const subtotal = bruto.minus(descuentos);
  const iva = roundMoney(subtotal.times(dec(data.tasa_iva)), m);
  return {
    items,
    hay_descuentos: !descuentos.isZero(),
    bruto: moneyText(bruto, m),
    descuentos: moneyText(descuentos, m),
    subtotal: moneyText(subtotal, m),
    iva: moneyText(iva, m),
    tasa_iva_pct: dec(data.tasa_iva).times(100).toString(),
    total: moneyText(subtotal.plus(iva), m),
  };
}

export const cotizacion = defineTemplate({
  meta: {
    slug: 'cotizacion',
    title: 'Cotización',
    purpose: 'Cotización o propuesta comercial',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as CotizacionData,
  view: (data) => ({ ...data, calc: calcCotizacion(data) }),
  title: (data) => `Cotización${data.folio ? ` ${data.folio}` : ''} — ${data.cliente}`,
});
