// factura: printed representation of a CFDI 4.0 invoice, plus its unsigned CFDI XML in the zip.
// Amounts come from templates/kit/cfdi/calc.ts (exact decimals, SAT rounding): importe = cantidad ×
// precio rounded to the currency; taxes per concept on importe − descuento; totals per impuesto and tasa; total =
// subtotal − descuentos + trasladados − retenidos. The view hands the template every figure as exact decimal text
// and every catalogue key with its description, so the Jinja2 source only lays out.
import {
  CLAVE_UNIDAD,
  claveUnidadDe,
  conDescripcion,
  EXPORTACION,
  FORMA_PAGO,
  METODO_PAGO,
  OBJETO_IMP,
  REGIMEN_FISCAL,
  RFC_PUBLICO_GENERAL,
  TIPO_COMPROBANTE,
  USO_CFDI,
  type ClaveImpuesto,
} from '../kit/cfdi/catalogos';
import { calcularCfdi, type CfdiCalc } from '../kit/cfdi/calc';
import { cadenaOriginalTimbre, verificacionUrl } from '../kit/cfdi/timbre';
import { buildCfdiXml, type ComprobanteXml } from '../kit/cfdi/xml';
import { importeConLetra } from '../kit/con-letra';
import { cssString } from '../kit/css-string';
import { Dec, dec, formatMoney, moneyText } from '../kit/money';
import { qrSvg } from '../kit/qr';
import { defineTemplate } from '../kit/template-types';
import { fechaLarga } from '../../lambdas/shared/text/fechas';
import { conceptoInput, schema, type FacturaData } from './schema';
import { avisoHeader, facturaDesdeXml } from './desde-xml';
import { cantidadTexto, etiquetaRetencion, etiquetaTraslado, pct, precioTexto } from './textos';
import sample from './sample.json';

export function folioCompleto(data: Pick<FacturaData, 'serie' | 'folio'>): string {
  return [data.serie, data.folio].filter(Boolean).join('-');
}

function calcOf(data: FacturaData): CfdiCalc {
  return calcularCfdi(
    data.items.map((it) => conceptoInput(it, data)),
    data.moneda,
  );
}

/** Everything the template prints, computed. */
export function calcFactura(data: FacturaData) {
  const m = data.moneda;
  const calc = calcOf(data);
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
    regimen_emisor: conDescripcion(REGIMEN_FISCAL, data.regimen_fiscal_emisor) ?? null,
    regimen_receptor: conDescripcion(REGIMEN_FISCAL, data.regimen_fiscal_receptor) ?? null,
    uso_cfdi: conDescripcion(USO_CFDI, data.uso_cfdi) ?? null,
    forma_pago: conDescripcion(FORMA_PAGO, data.forma_pago) ?? null,
    metodo_pago: conDescripcion(METODO_PAGO, data.metodo_pago) ?? null,
    exportacion: conDescripcion(EXPORTACION, data.exportacion),
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

/** A field CFDI 4.0 requires that the data lacks: the data's field and the XML attribute it fills. */
export interface FaltaCfdi {
  campo: string;
  atributo: string;
}

/**
 * The unsigned CFDI 4.0 XML of the invoice, or (without it) the fields it would need: an XML is written only when
 * every attribute cfdv40.xsd requires has a value, so what leaves the service validates against SAT's schema.
 */
export function facturaCfdi(
  data: FacturaData,
  now = new Date(),
): { xml: string; faltan: [] } | { xml: undefined; faltan: FaltaCfdi[] } {
  const calc = calcOf(data);
  const publico = !data.rfc_cliente;
  const faltan: FaltaCfdi[] = [];
  const need = (v: string | undefined, campo: string, atributo: string) => {
    if (!v) faltan.push({ campo, atributo });
    return v ?? '';
  };
  // Without a date the XML carries the moment it was generated, in Mexico City time (CFDI dates are local).
  const fecha = data.fecha
    ? /T/.test(data.fecha)
      ? data.fecha.length === 16
        ? `${data.fecha}:00`
        : data.fecha
      : `${data.fecha}T00:00:00`
    : new Intl.DateTimeFormat('sv-SE', {
        timeZone: 'America/Mexico_City',
        dateStyle: 'short',
        timeStyle: 'medium',
      })
        .format(now)
        .replace(' ', 'T');
  const lugar = need(data.lugar_expedicion, 'lugar_expedicion', 'LugarExpedicion');
  const comprobante: ComprobanteXml = {
    serie: data.serie,
    folio: data.folio,
    fecha,
    formaPago: need(data.forma_pago, 'forma_pago', 'FormaPago'),
    noCertificado: need(data.no_certificado, 'no_certificado', 'NoCertificado'),
    condicionesDePago: data.condiciones_pago,
    moneda: data.moneda,
    tipoCambio:
      data.moneda === 'MXN'
        ? undefined
        : need(
            data.tipo_cambio === undefined ? undefined : dec(data.tipo_cambio).toString(),
            'tipo_cambio',
            'TipoCambio',
          ),
    tipoDeComprobante: data.tipo_comprobante,
    exportacion: data.exportacion,
    metodoPago: need(data.metodo_pago, 'metodo_pago', 'MetodoPago'),
    lugarExpedicion: lugar,
    emisor: {
      rfc: need(data.rfc_emisor, 'rfc_emisor', 'Emisor/@Rfc'),
      nombre: data.empresa,
      regimenFiscal: need(data.regimen_fiscal_emisor, 'regimen_fiscal_emisor', 'Emisor/@RegimenFiscal'),
    },
    receptor: publico
      ? {
          rfc: RFC_PUBLICO_GENERAL,
          nombre: data.cliente,
          domicilioFiscalReceptor: data.domicilio_fiscal_receptor ?? lugar,
          regimenFiscalReceptor: '616',
          usoCfdi: 'S01',
        }
      : {
          rfc: data.rfc_cliente!,
          nombre: data.cliente,
          domicilioFiscalReceptor: need(
            data.domicilio_fiscal_receptor,
            'domicilio_fiscal_receptor',
            'Receptor/@DomicilioFiscalReceptor',
          ),
          regimenFiscalReceptor: need(
            data.regimen_fiscal_receptor,
            'regimen_fiscal_receptor',
            'Receptor/@RegimenFiscalReceptor',
          ),
          usoCfdi: need(data.uso_cfdi, 'uso_cfdi', 'Receptor/@UsoCFDI'),
        },
    conceptos: data.items.map((it, i) => {
      const claveUnidad = it.clave_unidad ?? claveUnidadDe(it.unidad);
      return {
        claveProdServ: it.clave ?? '01010101',
        noIdentificacion: it.no_identificacion,
        cantidad: dec(it.cantidad).toFixed(),
        claveUnidad,
        unidad: it.unidad,
        descripcion: it.concepto,
        valorUnitario: dec(it.precio).toFixed(),
        objetoImp: it.objeto_imp ?? '02',
        calc: calc.conceptos[i]!,
      };
    }),
    calc,
    comentario: [
      'CFDI 4.0 sin sellar generado a partir de los datos de la factura (representación impresa: factura.pdf).',
      'Sello y Certificado van vacíos: el emisor lo sella con su CSD y su PAC lo timbra.',
      ...(data.uuid
        ? [`Los datos traen el folio fiscal ${data.uuid}: el XML timbrado válido es el que entregó el PAC.`]
        : []),
      ...(publico
        ? ['Sin RFC del cliente: el receptor es público en general (XAXX010101000, 616, S01).']
        : []),
      ...(data.fecha
        ? []
        : ['Sin fecha en los datos: Fecha es la de generación (hora del centro de México).']),
    ],
  };
  if (faltan.length) return { xml: undefined, faltan };
  return { xml: buildCfdiXml(comprobante), faltan: [] };
}

/** The unsigned CFDI 4.0 XML of the invoice; throws when the data lacks a field CFDI requires (facturaCfdi). */
export function facturaXml(data: FacturaData, now = new Date()): string {
  const r = facturaCfdi(data, now);
  if (r.xml === undefined)
    throw new Error(`CFDI incompleto: faltan ${r.faltan.map((f) => f.campo).join(', ')}`);
  return r.xml;
}

/** LEEME.txt's paragraph when the zip carries no XML: which data fields CFDI 4.0 needs. */
function notaSinXml(faltan: FaltaCfdi[]): string[] {
  return [
    'No incluye el CFDI 4.0 (XML): los datos no traen todo lo que el esquema del SAT (cfdv40.xsd) exige,',
    'y un XML incompleto lo rechazaría el PAC. Faltan estos campos de los datos:',
    ...faltan.map((f) => `  - ${f.campo} (${f.atributo})`),
  ];
}

export const factura = defineTemplate({
  meta: {
    slug: 'factura',
    title: 'Factura',
    purpose:
      'Factura (representación impresa de un CFDI 4.0): desde datos, con su XML sin sellar en el zip, o desde el XML timbrado (cfdi_xml)',
    formats: ['pdf', 'html', 'zip'],
    page: { size: 'Letter', landscape: false, margin: '14mm' },
  },
  schema,
  sample: sample as FacturaData,
  view: (data) => ({ ...data, calc: calcFactura(data) }),
  title: (data) => {
    const f = folioCompleto(data);
    return `Factura${f ? ` ${f}` : ''} — ${data.empresa}`;
  },
  attachments: (data) => {
    const { xml } = facturaCfdi(data);
    return xml === undefined
      ? []
      : [
          {
            name: 'factura.xml',
            bytes: Buffer.from(xml, 'utf8'),
            description: 'el CFDI 4.0 sin sellar, para timbrarlo con su PAC (XML)',
          },
        ];
  },
  fromXml: (xml) => {
    const f = facturaDesdeXml(xml);
    return {
      data: f.data,
      view: f.view,
      title: f.title,
      warnings: f.discrepancias.length ? [avisoHeader(f.discrepancias)] : [],
      attachments: [
        {
          name: 'factura.xml',
          bytes: Buffer.from(xml, 'utf8'),
          description: 'el CFDI 4.0 tal como se recibió (XML)',
        },
      ],
      embedded: { name: 'factura.xml', bytes: Buffer.from(xml, 'utf8'), mimeType: 'text/xml' },
    };
  },
  readmeNotes: (data) => {
    const { faltan } = facturaCfdi(data);
    return faltan.length ? notaSinXml(faltan) : [];
  },
  requiredAttachmentProblems: (data) =>
    facturaCfdi(data).faltan.map((f) => ({
      field: f.campo,
      msg: `Field required for the CFDI 4.0 XML (${f.atributo}); options.require_xml asks for it`,
    })),
});
