// factura's zip attachment: the unsigned CFDI 4.0 XML built from the same data and figures as the printed invoice
// (templates/kit/cfdi/xml.ts writes it).
import { claveUnidadDe, RFC_PUBLICO_GENERAL } from '../kit/cfdi/catalogos';
import { buildCfdiXml, type ComprobanteXml } from '../kit/cfdi/xml';
import { dec } from '../kit/money';
import { cfdiCalcOf } from './calc';
import type { FacturaData } from './schema';

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
  const calc = cfdiCalcOf(data);
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
export function notaSinXml(faltan: FaltaCfdi[]): string[] {
  return [
    'No incluye el CFDI 4.0 (XML): los datos no traen todo lo que el esquema del SAT (cfdv40.xsd) exige,',
    'y un XML incompleto lo rechazaría el PAC. Faltan estos campos de los datos:',
    ...faltan.map((f) => `  - ${f.campo} (${f.atributo})`),
  ];
}
