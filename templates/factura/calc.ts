// factura: what the printed invoice shows, computed. Amounts come from templates/kit/cfdi/calc.ts (exact decimals,
// SAT rounding): importe = cantidad × precio rounded to the currency; taxes per concept on importe − descuento;
// totals per impuesto and tasa; total = subtotal − descuentos + trasladados − retenidos. calcFactura hands the
// template every figure as exact decimal text and every catalogue key with its description, so the Jinja2 source
// only lays out.
import {
  CLAVE_UNIDAD,
  claveUnidadDe,
  conDescripcion,
  EXPORTACION,
  FORMA_PAGO,
  IMPUESTO,
  METODO_PAGO,
  OBJETO_IMP,
  REGIMEN_FISCAL,
  TIPO_COMPROBANTE,
  USO_CFDI,
  type ClaveImpuesto,
  type TipoFactor,
} from '../kit/cfdi/catalogos';
import { calcularCfdi, type CfdiCalc } from '../kit/cfdi/calc';
import { cadenaOriginalTimbre, verificacionUrl } from '../kit/cfdi/timbre';
import { importeConLetra } from '../kit/con-letra';
import { cssString } from '../kit/css-string';
import { currencyDigits, Dec, dec, formatMoney, moneyText, numberFormat } from '../kit/money';
import { qrSvg } from '../kit/qr';
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { conceptoInput } from './forma';
import type { FacturaData } from './schema';

/** A rate as a percentage without trailing zeros: 0.16 → "16", 0.106667 → "10.6667", 0.265 → "26.5". */
export function pct(tasa: string): string {
  return dec(tasa).times(100).toDecimalPlaces(4, Dec.ROUND_HALF_UP).toString();
}

export function etiquetaTraslado(t: {
  impuesto: ClaveImpuesto;
  tipoFactor: TipoFactor;
  tasaOCuota?: string;
}): string {
  const name = IMPUESTO[t.impuesto];
  if (t.tipoFactor === 'Exento') return `${name} exento`;
  if (t.tipoFactor === 'Cuota') return `${name} cuota ${dec(t.tasaOCuota!).toString()}`;
  return `${name} ${pct(t.tasaOCuota!)} %`;
}

export function etiquetaRetencion(impuesto: ClaveImpuesto, tasas: string[]): string {
  const unique = [...new Set(tasas.map((t) => dec(t).toString()))];
  return `Retención ${IMPUESTO[impuesto]}${unique.length === 1 ? ` ${pct(unique[0]!)} %` : ''}`;
}

/** A quantity as written, with es-MX grouping and up to its 6 decimals: 1234.5 → "1,234.5". */
export function cantidadTexto(n: number | string): string {
  return numberFormat('es-MX', { maximumFractionDigits: 6 }).format(dec(n).toFixed() as unknown as number);
}

/** A unit price with the currency's decimals, or more when it has them (up to 6): "$450.50", "$0.125". */
export function precioTexto(n: number | string, moneda: string): string {
  const digits = currencyDigits(moneda);
  return numberFormat('es-MX', {
    style: 'currency',
    currency: moneda,
    minimumFractionDigits: digits,
    maximumFractionDigits: Math.max(digits, 6),
  }).format(dec(n).toFixed() as unknown as number); // Intl formats decimal strings exactly
}

export function folioCompleto(data: Pick<FacturaData, 'serie' | 'folio'>): string {
  return [data.serie, data.folio].filter(Boolean).join('-');
}

export function cfdiCalcOf(data: FacturaData): CfdiCalc {
  return calcularCfdi(
    data.items.map((it) => conceptoInput(it, data)),
    data.moneda,
  );
}

/** The comprobante's catalogue keys as the invoice prints them: "clave — descripción", the bare key when our
 * catalogue lacks it, null when absent (from data and from a stamped XML alike). */
export function clavesImpresas(c: {
  regimenEmisor?: string;
  regimenReceptor?: string;
  usoCfdi?: string;
  formaPago?: string;
  metodoPago?: string;
  exportacion?: string;
}) {
  return {
    regimen_emisor: conDescripcion(REGIMEN_FISCAL, c.regimenEmisor) ?? null,
    regimen_receptor: conDescripcion(REGIMEN_FISCAL, c.regimenReceptor) ?? null,
    uso_cfdi: conDescripcion(USO_CFDI, c.usoCfdi) ?? null,
    forma_pago: conDescripcion(FORMA_PAGO, c.formaPago) ?? null,
    metodo_pago: conDescripcion(METODO_PAGO, c.metodoPago) ?? null,
    exportacion: conDescripcion(EXPORTACION, c.exportacion) ?? null,
  };
}

/** Everything the template prints, computed. */
export function calcFactura(data: FacturaData) {
  const m = data.moneda;
  const calc = cfdiCalcOf(data);
  const money = (v: Dec) => moneyText(v, m);
  const items = data.items.map((it, i) => {
    const c = calc.conceptos[i]!;
    const claveUnidad = it.clave_unidad ?? claveUnidadDe(it.unidad);
    return {
      ...it,
      cantidad_texto: cantidadTexto(it.cantidad),
      precio_texto: precioTexto(it.precio, m),
      importe: money(c.importe),
      descuento: c.descuento.isZero() ? null : money(c.descuento),
      clave_prod_serv: it.clave ?? '01010101',
      clave_unidad: claveUnidad,
      unidad_texto: it.unidad ?? CLAVE_UNIDAD[claveUnidad] ?? '',
      objeto_imp: it.objeto_imp ?? '02',
      // 02 (taxed, broken down) is the common case: its key alone; the others say what they mean.
      objeto_imp_texto: (it.objeto_imp ?? '02') === '02' ? '02' : conDescripcion(OBJETO_IMP, it.objeto_imp),
      impuestos: [
        ...c.traslados.map((t) => ({
          etiqueta: etiquetaTraslado(t),
          base: t.base.toString(),
          importe: t.importe?.toString() ?? null,
          retencion: false,
        })),
        ...c.retenciones.map((r) => ({
          etiqueta: etiquetaRetencion(r.impuesto, [r.tasaOCuota]),
          base: r.base.toString(),
          importe: r.importe.toString(),
          retencion: true,
        })),
      ],
    };
  });

  const retencionTasas = (imp: ClaveImpuesto) =>
    calc.conceptos.flatMap((c) => c.retenciones.filter((r) => r.impuesto === imp).map((r) => r.tasaOCuota));
  const totales: { etiqueta: string; importe: string | null; nota?: string }[] = [
    { etiqueta: 'Subtotal', importe: money(calc.subtotal) },
  ];
  if (!calc.descuento.isZero()) totales.push({ etiqueta: 'Descuento', importe: money(calc.descuento.neg()) });
  for (const t of calc.traslados)
    totales.push({
      etiqueta: etiquetaTraslado(t),
      importe: t.importe ? money(t.importe) : null,
      ...(t.importe ? {} : { nota: `base ${formatMoney(t.base, m)}` }),
    });
  for (const r of calc.retenciones)
    totales.push({
      etiqueta: etiquetaRetencion(r.impuesto, retencionTasas(r.impuesto)),
      importe: money(r.importe.neg()),
    });

  const iva = calc.traslados
    .filter((t) => t.impuesto === '002' && t.importe)
    .reduce((s, t) => s.plus(t.importe!), new Dec(0));

  const timbre = data.uuid
    ? (() => {
        const url = verificacionUrl({
          uuid: data.uuid,
          rfcEmisor: data.rfc_emisor!,
          rfcReceptor: data.rfc_cliente!,
          total: moneyText(calc.total, m),
          selloCfdi: data.sello_cfdi!,
        });
        return {
          uuid: data.uuid,
          url,
          qr_svg: qrSvg(url, { size: '31mm', label: 'Código QR de verificación del SAT' }),
          cadena_original: cadenaOriginalTimbre({
            uuid: data.uuid,
            fechaTimbrado: data.fecha_timbrado!,
            rfcProvCertif: data.rfc_prov_certif!,
            selloCfd: data.sello_cfdi!,
            noCertificadoSat: data.no_certificado_sat!,
          }),
          sello_cfdi: data.sello_cfdi!,
          sello_sat: data.sello_sat ?? null,
          no_certificado_sat: data.no_certificado_sat!,
          fecha_timbrado: data.fecha_timbrado!,
          fecha_timbrado_texto: fechaLarga(data.fecha_timbrado!),
          rfc_prov_certif: data.rfc_prov_certif!,
        };
      })()
    : null;

  const folio = folioCompleto(data);
  const pie = [folio ? `Factura ${folio}` : 'Factura', data.rfc_emisor ?? data.empresa].join(' · ');
  return {
    items,
    hay_descuentos: items.some((i) => i.descuento !== null),
    subtotal: money(calc.subtotal),
    descuento: calc.descuento.isZero() ? null : money(calc.descuento),
    iva: money(iva),
    tasa_iva_pct: data.tasa_iva === 'exento' ? 'exento' : pct(String(data.tasa_iva)),
    total_impuestos_trasladados: calc.totalTrasladados ? money(calc.totalTrasladados) : null,
    total_impuestos_retenidos: calc.totalRetenidos ? money(calc.totalRetenidos) : null,
    total: money(calc.total),
    totales,
    con_letra: importeConLetra(calc.total, m),
    folio_completo: folio,
    fecha_texto: data.fecha ? fechaLarga(data.fecha) : null,
    tipo_comprobante: conDescripcion(TIPO_COMPROBANTE, data.tipo_comprobante),
    ...clavesImpresas({
      regimenEmisor: data.regimen_fiscal_emisor,
      regimenReceptor: data.regimen_fiscal_receptor,
      usoCfdi: data.uso_cfdi,
      formaPago: data.forma_pago,
      metodoPago: data.metodo_pago,
      exportacion: data.exportacion,
    }),
    tipo_cambio: data.tipo_cambio === undefined ? null : dec(data.tipo_cambio).toString(),
    total_mxn:
      data.tipo_cambio === undefined || m === 'MXN'
        ? null
        : moneyText(calc.total.times(data.tipo_cambio), 'MXN'),
    timbre,
    /** Text for the page footer (CSS margin box), escaped as a CSS string. */
    pie_css: cssString(pie),
  };
}
