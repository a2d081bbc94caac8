// factura from a CFDI 4.0 XML (POST /v1/render with `cfdi_xml`): the printed representation of the caller's own
// (usually stamped) XML. Every figure printed is the XML's, as written; SAT's arithmetic is re-checked
// (../kit/cfdi/verificar.ts) and a discrepancy is printed as a warning band and returned in `avisos` (the
// X-CFDI-Avisos response header), never corrected. The view has the shape calcFactura gives template.html.j2.
import {
  CLAVE_UNIDAD,
  conDescripcion,
  OBJETO_IMP,
  TIPO_COMPROBANTE,
  type ClaveImpuesto,
  type TipoFactor,
} from '../kit/cfdi/catalogos';
import { NS_RETENCIONES10, NS_RETENCIONES20 } from '../kit/cfdi/retenciones20';
import { retencionesDesdeXml } from './retenciones';
import {
  arbolXml,
  CfdiXmlError,
  leerCfdi,
  NS_CFDI40,
  NS_NOMINA12,
  NS_PAGOS20,
  type CfdiLeido,
} from '../kit/cfdi/leer';
import { desconocidos, lineaNodo, seccionesComplementos } from '../kit/cfdi/complementos';
import { leerImpLocal, NS_IMPLOCAL } from '../kit/cfdi/implocal';
import { asciiHeader } from '../kit/cfdi/verificar';
import { vistaTimbre } from '../kit/cfdi/timbre';
import { verificarTotales, type Discrepancia } from '../kit/cfdi/verificar';
import { importeConLetra } from '../kit/con-letra';
import { cssString } from '../kit/css-string';
import { dec, formatMoney, moneyText } from '../kit/money';
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { cantidadTexto, clavesImpresas, etiquetaRetencion, etiquetaTraslado, precioTexto } from './calc';
import { leerPagos20 } from '../kit/cfdi/pagos20';
import { vistaPagos } from './pagos';

export const TIPO_RELACION: Readonly<Record<string, string>> = {
  '01': 'Nota de crédito de los documentos relacionados',
  '02': 'Nota de débito de los documentos relacionados',
  '03': 'Devolución de mercancía sobre facturas o traslados previos',
  '04': 'Sustitución de los CFDI previos',
  '05': 'Traslados de mercancías facturados previamente',
  '06': 'Factura generada por los traslados previos',
  '07': 'CFDI por aplicación de anticipo',
};

const IMPUESTOS = new Set(['001', '002', '003']);
/** c_TipoDeComprobante entries only an XML brings (data renders I and E). */
const TIPOS_SOLO_XML: Readonly<Record<string, string>> = { T: 'Traslado', N: 'Nómina', P: 'Pago' };
const impuestoDe = (s: string) => (IMPUESTOS.has(s) ? (s as ClaveImpuesto) : undefined);

/** One line per discrepancy, in Spanish, for the PDF's band. */
function avisoTexto(d: Discrepancia): string {
  return `${d.donde}: el XML dice ${d.dice}; según sus conceptos, ${d.esperado}`;
}

export interface FacturaDesdeXml {
  /** data.json of the zip: what was read from the XML. */
  data: Record<string, unknown>;
  view: Record<string, unknown>;
  title: string;
  discrepancias: Discrepancia[];
  /** Complements (document or concept level) we do not know, printed as generic sections: "local (namespace)". */
  desconocidos: string[];
  /** The caller's XML, as given (factura.xml in the zip, the PDF/A attachment). */
  xml: string;
}

function rechazarComplementos(c: CfdiLeido): void {
  if (c.tipoDeComprobante === 'P' && !c.complementos.includes(NS_PAGOS20))
    throw new CfdiXmlError([
      {
        msg: 'A CFDI de tipo P must carry its Complemento para recepción de Pagos 2.0 (namespace http://www.sat.gob.mx/Pagos20)',
        type: 'cfdi_missing',
      },
    ]);
  if (c.tipoDeComprobante === 'N' || c.complementos.includes(NS_NOMINA12))
    throw new CfdiXmlError([
      {
        msg: "A CFDI de tipo N (Complemento de Nómina 1.2) is a payroll receipt: send it with template 'nomina'",
        type: 'cfdi_unsupported',
      },
    ]);
}

export function facturaDesdeXml(xml: string): FacturaDesdeXml {
  const root = arbolXml(xml);
  // A CFDI de Retenciones e información de pagos is its own document (./retenciones.ts).
  if (root.local === 'Retenciones' && (root.uri === NS_RETENCIONES20 || root.uri === NS_RETENCIONES10))
    return retencionesDesdeXml(root, xml);
  const c = leerCfdi(root);
  rechazarComplementos(c);
  const m = c.moneda;
  const money = (s: string | undefined) => (s === undefined ? null : moneyText(dec(s), m));
  const pagosLeidos = leerPagos20(c.complementoNodos);
  const pagos = pagosLeidos && vistaPagos(pagosLeidos);
  const discrepancias = [...verificarTotales(c), ...(pagos?.discrepancias ?? [])];

  const items = c.conceptos.map((k) => ({
    concepto: k.descripcion,
    no_identificacion: k.noIdentificacion,
    cantidad_texto: cantidadTexto(k.cantidad),
    precio_texto: precioTexto(k.valorUnitario, m),
    importe: money(k.importe),
    descuento: k.descuento && !dec(k.descuento).isZero() ? money(k.descuento) : null,
    clave_prod_serv: k.claveProdServ,
    clave_unidad: k.claveUnidad,
    unidad_texto: k.unidad ?? CLAVE_UNIDAD[k.claveUnidad] ?? '',
    objeto_imp_texto: k.objetoImp === '02' ? '02' : (conDescripcion(OBJETO_IMP, k.objetoImp) ?? k.objetoImp),
    // ACuentaTerceros, InformacionAduanera (pedimento), CuentaPredial, Parte, and concept-level complements.
    extras: k.extras.map(lineaNodo),
    impuestos: [
      ...k.traslados.map((t) => ({
        etiqueta: impuestoDe(t.impuesto)
          ? etiquetaTraslado({
              impuesto: impuestoDe(t.impuesto)!,
              tipoFactor: t.tipoFactor as TipoFactor,
              tasaOCuota: t.tasaOCuota,
            })
          : `Traslado ${t.impuesto}`,
        base: t.base,
        importe: t.importe ?? null,
        retencion: false,
      })),
      ...k.retenciones.map((r) => ({
        etiqueta: impuestoDe(r.impuesto)
          ? etiquetaRetencion(impuestoDe(r.impuesto)!, r.tasaOCuota ? [r.tasaOCuota] : [])
          : `Retención ${r.impuesto}`,
        base: r.base ?? '0',
        importe: r.importe,
        retencion: true,
      })),
    ],
  }));

  const totales: { etiqueta: string; importe: string | null; nota?: string }[] = [
    { etiqueta: 'Subtotal', importe: money(c.subTotal) },
  ];
  if (c.descuento && !dec(c.descuento).isZero())
    totales.push({ etiqueta: 'Descuento', importe: moneyText(dec(c.descuento).neg(), m) });
  for (const t of c.impuestos?.traslados ?? []) {
    const imp = impuestoDe(t.impuesto);
    totales.push({
      etiqueta: imp
        ? etiquetaTraslado({
            impuesto: imp,
            tipoFactor: t.tipoFactor as TipoFactor,
            tasaOCuota: t.tasaOCuota,
          })
        : `Traslado ${t.impuesto}`,
      importe: money(t.importe),
      ...(t.importe ? {} : { nota: `base ${formatMoney(t.base, m)}` }),
    });
  }
  for (const r of c.impuestos?.retenciones ?? []) {
    const imp = impuestoDe(r.impuesto);
    const tasas = c.conceptos.flatMap((k) =>
      k.retenciones.filter((x) => x.impuesto === r.impuesto && x.tasaOCuota).map((x) => x.tasaOCuota!),
    );
    totales.push({
      etiqueta: imp ? etiquetaRetencion(imp, tasas) : `Retención ${r.impuesto}`,
      importe: moneyText(dec(r.importe).neg(), m),
    });
  }

  // Impuestos locales: each line in the totals (traslados add, retenciones subtract), so what is printed adds up.
  const locales = leerImpLocal(c.complementoNodos);
  for (const t of locales?.traslados ?? [])
    totales.push({
      etiqueta: `${t.nombre || 'Traslado local'} ${t.tasa} % (local)`,
      importe: money(t.importe || '0'),
    });
  for (const r of locales?.retenciones ?? [])
    totales.push({
      etiqueta: `Retención ${r.nombre || 'local'} ${r.tasa} % (local)`,
      importe: moneyText(dec(r.importe || '0').neg(), m),
    });

  // Every other complement, printed from its own elements (the timbre, Pagos 2.0 and implocal are printed above).
  const impresos = new Set([NS_IMPLOCAL, ...(pagosLeidos ? [NS_PAGOS20] : [])]);
  const otros = c.complementoNodos.filter((n) => !impresos.has(n.uri));
  const complementos = seccionesComplementos(otros);
  const noReconocidos = [
    ...desconocidos(otros),
    ...desconocidos(
      c.conceptos.flatMap((k) => k.extras),
      [NS_CFDI40],
    ),
  ].map(asciiHeader);

  const timbre = vistaTimbre(c);

  const folio = [c.serie, c.folio].filter(Boolean).join('-');
  const tipo = TIPOS_SOLO_XML[c.tipoDeComprobante]
    ? `${c.tipoDeComprobante} — ${TIPOS_SOLO_XML[c.tipoDeComprobante]}`
    : conDescripcion(TIPO_COMPROBANTE, c.tipoDeComprobante);
  const documento = pagos ? 'Recibo de pago' : 'Factura';
  const data = {
    empresa: c.emisor.nombre,
    rfc_emisor: c.emisor.rfc,
    cliente: c.receptor.nombre,
    rfc_cliente: c.receptor.rfc,
    moneda: m,
    lugar_expedicion: c.lugarExpedicion,
    domicilio_fiscal_receptor: c.receptor.domicilioFiscalReceptor,
    no_certificado: c.noCertificado,
    condiciones_pago: c.condicionesDePago,
    cfdi: c,
  };
  const view = {
    ...data,
    cfdi: undefined,
    calc: {
      items,
      hay_descuentos: items.some((i) => i.descuento !== null),
      subtotal: money(c.subTotal),
      totales,
      total: money(c.total),
      con_letra: importeConLetra(dec(c.total), m),
      folio_completo: folio,
      fecha_texto: fechaLarga(c.fecha),
      tipo_comprobante: tipo,
      ...clavesImpresas({
        regimenEmisor: c.emisor.regimenFiscal,
        regimenReceptor: c.receptor.regimenFiscalReceptor,
        usoCfdi: c.receptor.usoCfdi,
        formaPago: c.formaPago,
        metodoPago: c.metodoPago,
        exportacion: c.exportacion,
      }),
      tipo_cambio: c.tipoCambio && m !== 'MXN' ? dec(c.tipoCambio).toString() : null,
      total_mxn:
        c.tipoCambio && m !== 'MXN' && m !== 'XXX'
          ? moneyText(dec(c.total).times(c.tipoCambio), 'MXN')
          : null,
      timbre,
      relacionados: c.relacionados.map((r) => ({
        tipo: `${r.tipoRelacion} ${TIPO_RELACION[r.tipoRelacion] ?? ''}`.trim(),
        uuids: r.uuids,
      })),
      avisos: discrepancias.map(avisoTexto),
      complementos,
      hay_desconocidos: complementos.some((x) => !x.conocido),
      // Tipo P: the payments and the documents they pay (Pagos 2.0); its Comprobante totals are zeros in XXX.
      pagos: pagos?.pagos ?? null,
      pagos_totales: pagos?.totales ?? null,
      pie_css: cssString([folio ? `${documento} ${folio}` : documento, c.emisor.rfc].join(' · ')),
      documento,
    },
  };
  return {
    data,
    view,
    title: `${documento}${folio ? ` ${folio}` : ''} — ${c.emisor.nombre}`,
    discrepancias,
    desconocidos: noReconocidos,
    xml,
  };
}
