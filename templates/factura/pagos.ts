// factura from a CFDI de tipo P (Complemento para recepción de Pagos 2.0): what the printed representation shows of
// each payment (date, form, currency, amount, operation number) and of each document it pays (UUID, serie-folio,
// parcialidad, saldo anterior, pagado, saldo insoluto, taxes), plus the complement's Totales. Figures are the
// XML's; two re-checks report, never correct: MontoTotalPagos = Σ Monto × TipoCambioP, and per document
// ImpSaldoInsoluto = ImpSaldoAnt − ImpPagado.
import { FORMA_PAGO, conDescripcion, type ClaveImpuesto, type TipoFactor } from '../kit/cfdi/catalogos';
import type { PagosLeidos } from '../kit/cfdi/pagos20';
import type { Discrepancia } from '../kit/cfdi/verificar';
import { dec, moneyText, sum } from '../kit/money';
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { etiquetaRetencion, etiquetaTraslado } from './calc';

const TOTALES: [string, string][] = [
  ['TotalRetencionesIVA', 'IVA retenido'],
  ['TotalRetencionesISR', 'ISR retenido'],
  ['TotalRetencionesIEPS', 'IEPS retenido'],
  ['TotalTrasladosBaseIVA16', 'Base de IVA 16 %'],
  ['TotalTrasladosImpuestoIVA16', 'IVA 16 % trasladado'],
  ['TotalTrasladosBaseIVA8', 'Base de IVA 8 %'],
  ['TotalTrasladosImpuestoIVA8', 'IVA 8 % trasladado'],
  ['TotalTrasladosBaseIVA0', 'Base de IVA 0 %'],
  ['TotalTrasladosImpuestoIVA0', 'IVA 0 % trasladado'],
  ['TotalTrasladosBaseIVAExento', 'Base exenta de IVA'],
  ['MontoTotalPagos', 'Monto total de los pagos'],
];

const IMPUESTOS = new Set(['001', '002', '003']);

export function vistaPagos(p: PagosLeidos): {
  pagos: Record<string, unknown>[];
  totales: { etiqueta: string; importe: string }[];
  discrepancias: Discrepancia[];
} {
  const discrepancias: Discrepancia[] = [];
  const pagos = p.pagos.map((pago, i) => {
    const m = pago.monedaP;
    return {
      fecha_texto: fechaLarga(pago.fechaPago),
      forma: conDescripcion(FORMA_PAGO, pago.formaDePagoP) ?? pago.formaDePagoP,
      moneda: m,
      tipo_cambio: pago.tipoCambioP && m !== 'MXN' ? pago.tipoCambioP : null,
      monto: moneyText(dec(pago.monto), m),
      num_operacion: pago.numOperacion ?? null,
      doctos: pago.doctos.map((d, j) => {
        const esperado = dec(d.impSaldoAnt).minus(dec(d.impPagado));
        if (!esperado.equals(dec(d.impSaldoInsoluto)))
          discrepancias.push({
            donde: `Pago[${i + 1}]/DoctoRelacionado[${j + 1}]@ImpSaldoInsoluto`,
            dice: d.impSaldoInsoluto,
            esperado: esperado.toFixed(2),
          });
        const md = d.monedaDR;
        return {
          uuid: d.idDocumento.toUpperCase(),
          folio: [d.serie, d.folio].filter(Boolean).join('-') || null,
          moneda: md,
          equivalencia: d.equivalenciaDR && md !== m ? d.equivalenciaDR : null,
          parcialidad: d.numParcialidad,
          saldo_anterior: moneyText(dec(d.impSaldoAnt), md),
          pagado: moneyText(dec(d.impPagado), md),
          saldo_insoluto: moneyText(dec(d.impSaldoInsoluto), md),
          impuestos: d.impuestos.map((t) => {
            const imp = IMPUESTOS.has(t.impuesto) ? (t.impuesto as ClaveImpuesto) : undefined;
            const etiqueta = !imp
              ? `${t.retencion ? 'Retención' : 'Traslado'} ${t.impuesto}`
              : t.retencion
                ? etiquetaRetencion(imp, t.tasaOCuota ? [t.tasaOCuota] : [])
                : etiquetaTraslado({
                    impuesto: imp,
                    tipoFactor: t.tipoFactor as TipoFactor,
                    tasaOCuota: t.tasaOCuota,
                  });
            return {
              etiqueta,
              base: moneyText(dec(t.base || '0'), md),
              importe: t.importe ? moneyText(dec(t.importe), md) : null,
            };
          }),
        };
      }),
    };
  });
  const monto = p.totales.MontoTotalPagos;
  const esperado = sum(p.pagos.map((x) => dec(x.monto).times(dec(x.tipoCambioP ?? '1')))).toDecimalPlaces(2);
  if (monto !== undefined && !dec(monto).equals(esperado))
    discrepancias.push({ donde: 'Totales@MontoTotalPagos', dice: monto, esperado: esperado.toFixed(2) });
  const totales = TOTALES.filter(([k]) => p.totales[k] !== undefined).map(([k, etiqueta]) => ({
    etiqueta,
    importe: moneyText(dec(p.totales[k]!), 'MXN'),
  }));
  return { pagos, totales, discrepancias };
}
