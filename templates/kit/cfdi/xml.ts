// The CFDI 4.0 XML of an invoice, unsigned (pre-sellado): cfdi:Comprobante with its namespaces and
// schemaLocation, Emisor, Receptor, Conceptos (each with its Impuestos) and the Impuestos totals, in the element
// and attribute order of cfdv40.xsd. Sello and Certificado are empty and NoCertificado is the emisor's certificate
// number when given (empty otherwise): the caller's PAC seals and stamps it. The timbre (TimbreFiscalDigital) is
// not written even when the data carries one: this XML is rebuilt from the data, so a sello would not verify
// against it; the stamped XML is the one the PAC returned.
//
// Built with xmlbuilder2 (a DOM serializer: namespaces resolved, attribute values escaped, well-formedness
// checked); values are stripped of characters XML 1.0 cannot carry and their whitespace collapsed (as the XSD's
// whiteSpace="collapse" and the cadena original do).
import { create } from 'xmlbuilder2';
import { currencyDigits, type Dec } from '../money';
import type { CfdiCalc, ConceptoCalc, RetencionCalc, TrasladoCalc } from './calc';
import { decimalText } from './calc';
import type { ConceptoLeido } from './leer';

export const CFDI_NAMESPACE = 'http://www.sat.gob.mx/cfd/4';
export const CFDI_SCHEMA_LOCATION =
  'http://www.sat.gob.mx/cfd/4 http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd';
const XSI = 'http://www.w3.org/2001/XMLSchema-instance';
const XMLNS = 'http://www.w3.org/2000/xmlns/';

/** A concepto as written: the attributes a CFDI read from XML has (./leer.ts), its figures from the calculator. */
export type ConceptoXml = Pick<
  ConceptoLeido,
  | 'claveProdServ'
  | 'noIdentificacion'
  | 'cantidad'
  | 'claveUnidad'
  | 'unidad'
  | 'descripcion'
  | 'valorUnitario'
  | 'objetoImp'
> & { calc: ConceptoCalc };

export interface ComprobanteXml {
  serie?: string;
  folio?: string;
  /** AAAA-MM-DDThh:mm:ss, local time of the lugar de expedición. */
  fecha: string;
  formaPago?: string;
  noCertificado?: string;
  condicionesDePago?: string;
  moneda: string;
  tipoCambio?: string;
  tipoDeComprobante: string;
  exportacion: string;
  metodoPago?: string;
  lugarExpedicion: string;
  emisor: { rfc: string; nombre: string; regimenFiscal: string };
  receptor: {
    rfc: string;
    nombre: string;
    domicilioFiscalReceptor: string;
    regimenFiscalReceptor: string;
    usoCfdi: string;
  };
  conceptos: ConceptoXml[];
  calc: CfdiCalc;
  /** Lines of an XML comment placed before the root (what the file is, what is missing to stamp it). */
  comentario?: string[];
}

/** Characters XML 1.0 cannot carry (C0 controls but tab/LF/CR, lone surrogates, U+FFFE/U+FFFF). */
const INVALID_XML =
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

function clean(s: string): string {
  return s.replace(INVALID_XML, '').replace(/\s+/g, ' ').trim();
}

type Attrs = Record<string, string | undefined>;

function attrs(a: Attrs): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(a)) if (v !== undefined) out[k] = clean(v);
  return out;
}

/** The unsigned CFDI 4.0 XML (UTF-8 text, with the XML declaration). */
export function buildCfdiXml(c: ComprobanteXml): string {
  const digits = currencyDigits(c.moneda);
  const money = (v: Dec) => v.toFixed(digits);
  const six = (v: Dec) => decimalText(v, Math.max(digits, 2));
  const tasa = (t: string | undefined) => (t === undefined ? undefined : Number(t).toFixed(6));
  // A Traslado, or a concepto's Retencion: its amounts written by `n` (6 decimals in a concepto, the currency's in
  // the comprobante's totals); Importe absent for an Exento traslado.
  const impuesto = (t: TrasladoCalc | RetencionCalc, n: (v: Dec) => string) =>
    attrs({
      Base: n(t.base),
      Impuesto: t.impuesto,
      TipoFactor: t.tipoFactor,
      TasaOCuota: tasa(t.tasaOCuota),
      Importe: t.importe ? n(t.importe) : undefined,
    });

  const doc = create({ version: '1.0', encoding: 'UTF-8' });
  if (c.comentario?.length) {
    // "--" may not appear inside an XML comment.
    doc.com(` ${c.comentario.map((l) => clean(l).replace(/-{2,}/g, '—')).join('\n     ')} `);
  }
  const root = doc
    .ele(CFDI_NAMESPACE, 'cfdi:Comprobante')
    .att(XMLNS, 'xmlns:xsi', XSI)
    .att(XSI, 'xsi:schemaLocation', CFDI_SCHEMA_LOCATION);
  for (const [name, value] of Object.entries(
    attrs({
      Version: '4.0',
      Serie: c.serie,
      Folio: c.folio,
      Fecha: c.fecha,
      Sello: '',
      FormaPago: c.formaPago,
      NoCertificado: c.noCertificado ?? '',
      Certificado: '',
      CondicionesDePago: c.condicionesDePago,
      SubTotal: money(c.calc.subtotal),
      Descuento: c.calc.descuento.isZero() ? undefined : money(c.calc.descuento),
      Moneda: c.moneda,
      TipoCambio: c.tipoCambio,
      Total: money(c.calc.total),
      TipoDeComprobante: c.tipoDeComprobante,
      Exportacion: c.exportacion,
      MetodoPago: c.metodoPago,
      LugarExpedicion: c.lugarExpedicion,
    }),
  ))
    root.att(name, value);
  root.ele(
    CFDI_NAMESPACE,
    'cfdi:Emisor',
    attrs({ Rfc: c.emisor.rfc, Nombre: c.emisor.nombre, RegimenFiscal: c.emisor.regimenFiscal }),
  );
  root.ele(
    CFDI_NAMESPACE,
    'cfdi:Receptor',
    attrs({
      Rfc: c.receptor.rfc,
      Nombre: c.receptor.nombre,
      DomicilioFiscalReceptor: c.receptor.domicilioFiscalReceptor,
      RegimenFiscalReceptor: c.receptor.regimenFiscalReceptor,
      UsoCFDI: c.receptor.usoCfdi,
    }),
  );
  const conceptos = root.ele(CFDI_NAMESPACE, 'cfdi:Conceptos');
  for (const k of c.conceptos) {
    const el = conceptos.ele(
      CFDI_NAMESPACE,
      'cfdi:Concepto',
      attrs({
        ClaveProdServ: k.claveProdServ,
        NoIdentificacion: k.noIdentificacion,
        Cantidad: k.cantidad,
        ClaveUnidad: k.claveUnidad,
        Unidad: k.unidad,
        Descripcion: k.descripcion,
        ValorUnitario: k.valorUnitario,
        Importe: money(k.calc.importe),
        Descuento: k.calc.descuento.isZero() ? undefined : money(k.calc.descuento),
        ObjetoImp: k.objetoImp,
      }),
    );
    if (!k.calc.traslados.length && !k.calc.retenciones.length) continue;
    const imp = el.ele(CFDI_NAMESPACE, 'cfdi:Impuestos');
    if (k.calc.traslados.length) {
      const ts = imp.ele(CFDI_NAMESPACE, 'cfdi:Traslados');
      for (const t of k.calc.traslados) ts.ele(CFDI_NAMESPACE, 'cfdi:Traslado', impuesto(t, six));
    }
    if (k.calc.retenciones.length) {
      const rs = imp.ele(CFDI_NAMESPACE, 'cfdi:Retenciones');
      for (const r of k.calc.retenciones) rs.ele(CFDI_NAMESPACE, 'cfdi:Retencion', impuesto(r, six));
    }
  }
  const { traslados, retenciones, totalTrasladados, totalRetenidos } = c.calc;
  if (traslados.length || retenciones.length) {
    // cfdv40.xsd: Retenciones come before Traslados in the comprobante's Impuestos.
    const imp = root.ele(
      CFDI_NAMESPACE,
      'cfdi:Impuestos',
      attrs({
        TotalImpuestosRetenidos: totalRetenidos ? money(totalRetenidos) : undefined,
        TotalImpuestosTrasladados: totalTrasladados ? money(totalTrasladados) : undefined,
      }),
    );
    if (retenciones.length) {
      const rs = imp.ele(CFDI_NAMESPACE, 'cfdi:Retenciones');
      for (const r of retenciones)
        rs.ele(CFDI_NAMESPACE, 'cfdi:Retencion', attrs({ Impuesto: r.impuesto, Importe: money(r.importe) }));
    }
    if (traslados.length) {
      const ts = imp.ele(CFDI_NAMESPACE, 'cfdi:Traslados');
      for (const t of traslados) ts.ele(CFDI_NAMESPACE, 'cfdi:Traslado', impuesto(t, money));
    }
  }
  return doc.end({ prettyPrint: true, indent: '  ', wellFormed: true });
}
