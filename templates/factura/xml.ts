// factura's zip attachment: the unsigned CFDI 4.0 XML built from the same data and figures as the printed invoice
// (templates/kit/cfdi/xml.ts writes it).
import { claveUnidadDe, RFC_PUBLICO_GENERAL } from '../kit/cfdi/catalogos';
import { buildCfdiXml, type ComprobanteXml } from '../kit/cfdi/xml';
import { dec } from '../kit/money';
import { cfdiCalcOf } from './calc';
import type { FacturaData } from './schema';

/** The unsigned CFDI 4.0 XML of the invoice, with what is missing to stamp it listed in a comment. */
export function facturaXml(data: FacturaData, now = new Date()): string {
  const calc = cfdiCalcOf(data);
  const publico = !data.rfc_cliente;
  const faltan: string[] = [];
  const need = (v: string | undefined, what: string) => {
    if (!v) faltan.push(what);
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
  const lugar = need(data.lugar_expedicion, 'LugarExpedicion (código postal del emisor)');
  const comprobante: ComprobanteXml = {
    serie: data.serie,
    folio: data.folio,
    fecha,
    formaPago: data.forma_pago ?? (faltan.push('FormaPago'), undefined),
    noCertificado: data.no_certificado,
    condicionesDePago: data.condiciones_pago,
    moneda: data.moneda,
    tipoCambio:
      data.moneda === 'MXN'
        ? undefined
        : data.tipo_cambio === undefined
          ? (faltan.push('TipoCambio'), undefined)
          : dec(data.tipo_cambio).toString(),
    tipoDeComprobante: data.tipo_comprobante,
    exportacion: data.exportacion,
    metodoPago: data.metodo_pago ?? (faltan.push('MetodoPago'), undefined),
    lugarExpedicion: lugar,
    emisor: {
      rfc: need(data.rfc_emisor, 'Emisor/@Rfc'),
      nombre: data.empresa,
      regimenFiscal: need(data.regimen_fiscal_emisor, 'Emisor/@RegimenFiscal'),
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
          domicilioFiscalReceptor: need(data.domicilio_fiscal_receptor, 'Receptor/@DomicilioFiscalReceptor'),
          regimenFiscalReceptor: need(data.regimen_fiscal_receptor, 'Receptor/@RegimenFiscalReceptor'),
          usoCfdi: need(data.uso_cfdi, 'Receptor/@UsoCFDI'),
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
      ...(faltan.length ? [`Faltan para poder timbrarlo: ${faltan.join(', ')}.`] : []),
    ],
  };
  return buildCfdiXml(comprobante);
}
