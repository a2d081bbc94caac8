// factura: printed representation of an invoice (CFDI 4.0 compatible). Amounts: importe = cantidad × precio,
// rounded to the currency's decimals; subtotal = Σ importes; IVA = subtotal × tasa, rounded; total = subtotal + IVA.
// All in exact decimals (lambdas/documents/domain/money.ts).
import { defineTemplate } from '../../lambdas/documents/domain/template-types';
import { dec, moneyText, roundMoney, sum } from '../../lambdas/documents/domain/money';
import { schema, type FacturaData } from './schema';
import sample from './sample.json';

export function calcFactura(data: FacturaData) {
  const m = data.moneda;
  const items = data.items.map((it) => {
    const importe = roundMoney(dec(it.cantidad).times(dec(it.precio)), m);
    return { ...it, importe: moneyText(importe, m) };
  });
  const subtotal = sum(items.map((i) => dec(i.importe)));
  const iva = roundMoney(subtotal.times(dec(data.tasa_iva)), m);
  const total = subtotal.plus(iva);
  return {
    items,
    subtotal: moneyText(subtotal, m),
    iva: moneyText(iva, m),
    tasa_iva_pct: dec(data.tasa_iva).times(100).toString(),
    total: moneyText(total, m),
    folio_completo: [data.serie, data.folio].filter(Boolean).join('-'),
  };
}

export const factura = defineTemplate({
  meta: {
    slug: 'factura',
    title: 'Factura',
    purpose: 'Factura (representación impresa compatible con CFDI 4.0)',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as FacturaData,
  view: (data) => ({ ...data, calc: calcFactura(data) }),
  title: (data) => {
    const f = [data.serie, data.folio].filter(Boolean).join('-');
    return `Factura${f ? ` ${f}` : ''} — ${data.empresa}`;
  },
});
