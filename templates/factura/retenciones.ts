// factura from a CFDI de Retenciones e información de pagos 2.0 (cfdi_xml whose root is retencionpago/2's
// Retenciones): its own document, "Constancia de retenciones", in the factura's layout — issuer and receiver, the
// retention key and period, the totals and each ImpRetenidos line, its complements (dividendos, intereses, pagos a
// extranjeros, plataformas tecnológicas… printed by ../kit/cfdi/complementos.ts), and the timbre with SAT's
// Retenciones verification QR. Figures as written, never re-checked (see below).
import { REGIMEN_FISCAL, conDescripcion } from '../kit/cfdi/catalogos';
import { desconocidos, seccionesComplementos } from '../kit/cfdi/complementos';
import type { XmlNodo } from '../kit/cfdi/leer';
import { leerRetenciones20, verificacionRetencionesUrl } from '../kit/cfdi/retenciones20';
import { vistaSellos } from '../kit/cfdi/timbre';
import { asciiHeader, type Discrepancia } from '../kit/cfdi/verificar';
import { qrSvg } from '../kit/qr';
import { cssString } from '../kit/css-string';
import { dec, moneyText } from '../kit/money';
import { fechaLarga } from '../../lambdas/shared/text/fechas';

/** c_CveRetenc (SAT's catálogo de claves de retención, Retenciones 2.0). */
export const CVE_RETENC: Readonly<Record<string, string>> = {
  '01': 'Servicios profesionales',
  '02': 'Regalías por derechos de autor',
  '03': 'Autotransporte terrestre de carga',
  '04': 'Servicios prestados por comisionistas',
  '05': 'Arrendamiento',
  '06': 'Enajenación de acciones',
  '07': 'Enajenación de bienes objeto de la LIEPS, a través de mediadores, agentes, representantes, corredores, consignatarios o distribuidores',
  '08': 'Enajenación de bienes inmuebles consignada en escritura pública',
  '09': 'Enajenación de otros bienes, no consignada en escritura pública',
  '10': 'Adquisición de desperdicios industriales',
  '11': 'Adquisición de bienes consignada en escritura pública',
  '12': 'Adquisición de otros bienes, no consignada en escritura pública',
  '13': 'Otros retiros de AFORE',
  '14': 'Dividendos o utilidades distribuidas',
  '15': 'Remanente distribuible',
  '16': 'Intereses',
  '17': 'Arrendamiento en fideicomiso',
  '18': 'Pagos realizados a favor de residentes en el extranjero',
  '19': 'Enajenación de acciones u operaciones en bolsa de valores',
  '20': 'Obtención de premios',
  '21': 'Fideicomisos que no realizan actividades empresariales',
  '22': 'Planes personales de retiro',
  '23': 'Intereses reales deducibles por créditos hipotecarios',
  '24': 'Operaciones financieras derivadas de capital',
  '25': 'Otro tipo de retenciones',
  '26': 'Servicios mediante plataformas tecnológicas',
};

const IMPUESTO: Readonly<Record<string, string>> = { '001': 'ISR', '002': 'IVA', '003': 'IEPS' };

/** A Retenciones 2.0 as FacturaDesdeXml (./desde-xml.ts dispatches here; its type checks the shape). */
export function retencionesDesdeXml(root: XmlNodo, xml: string) {
  const r = leerRetenciones20(root);
  const m = 'MXN';
  const money = (s: string | undefined) => (s === undefined ? null : moneyText(dec(s), m));
  const t = r.totales;

  // Its totals are printed as written and not re-checked: SAT's Retenciones 2.0 standard states no sum rule between
  // MontoTotOperacion, MontoTotGrav/MontoTotExent and the ImpRetenidos lines (a printer is never stricter than SAT).
  const discrepancias: Discrepancia[] = [];

  const timbre = r.timbre
    ? (() => {
        const url = verificacionRetencionesUrl(r);
        return {
          ...vistaSellos(r.timbre, url, r.sello),
          qr_svg: qrSvg(url, { size: '31mm', label: 'Código QR de verificación del SAT' }),
        };
      })()
    : null;

  const complementos = seccionesComplementos(r.complementoNodos);
  const cve = `${r.cveRetenc} ${CVE_RETENC[r.cveRetenc] ?? ''}`.trim();
  const documento = 'Constancia de retenciones';
  const folio = r.folioInt ?? '';
  const receptorId = r.receptor.rfc ?? r.receptor.numRegIdTrib ?? '';
  const data = {
    empresa: r.emisor.nombre ?? r.emisor.rfc,
    rfc_emisor: r.emisor.rfc,
    cliente: r.receptor.nombre ?? receptorId,
    rfc_cliente: receptorId,
    moneda: m,
    lugar_expedicion: r.lugarExpRetenc,
    no_certificado: r.noCertificado,
    retenciones: r,
  };
  const view = {
    ...data,
    retenciones: undefined,
    domicilio_fiscal_receptor: r.receptor.domicilioFiscal,
    calc: {
      items: [],
      totales: [
        { etiqueta: 'Monto total gravado', importe: money(t.montoTotGrav) },
        { etiqueta: 'Monto total exento', importe: money(t.montoTotExent) },
        { etiqueta: 'Monto total retenido', importe: money(t.montoTotRet) },
        ...(t.utilidadBimestral !== undefined
          ? [{ etiqueta: 'Utilidad bimestral', importe: money(t.utilidadBimestral) }]
          : []),
        ...(t.isrCorrespondiente !== undefined
          ? [{ etiqueta: 'ISR correspondiente', importe: money(t.isrCorrespondiente) }]
          : []),
      ],
      total: money(t.montoTotOperacion),
      total_etiqueta: 'Monto total de la operación',
      con_letra: null,
      folio_completo: folio,
      fecha_texto: fechaLarga(r.fechaExp),
      tipo_comprobante: 'Retenciones e información de pagos 2.0',
      regimen_emisor: conDescripcion(REGIMEN_FISCAL, r.emisor.regimenFiscal) ?? r.emisor.regimenFiscal,
      retenciones: {
        clave: cve,
        descripcion: r.descRetenc ?? null,
        periodo: `${r.periodo.mesIni} a ${r.periodo.mesFin} de ${r.periodo.ejercicio}`,
        nacionalidad: r.receptor.nacionalidad,
        curp: r.receptor.curp ?? null,
        num_reg_id_trib: r.receptor.numRegIdTrib ?? null,
        impuestos: t.impRetenidos.map((i) => ({
          impuesto: i.impuestoRet ? `${i.impuestoRet} ${IMPUESTO[i.impuestoRet] ?? ''}`.trim() : '—',
          tipo_pago: i.tipoPagoRet,
          base: i.baseRet ?? null,
          monto: i.montoRet,
        })),
      },
      timbre,
      relacionados: r.relacionados
        ? [{ tipo: `${r.relacionados.tipoRelacion}`, uuids: [r.relacionados.uuid] }]
        : [],
      avisos: discrepancias.map((d) => `${d.donde}: el XML dice ${d.dice}; según sus líneas, ${d.esperado}`),
      complementos,
      hay_desconocidos: complementos.some((x) => !x.conocido),
      pagos: null,
      pagos_totales: null,
      pie_css: cssString([folio ? `${documento} ${folio}` : documento, r.emisor.rfc].join(' · ')),
      documento,
    },
  };
  return {
    data,
    view,
    title: `${documento}${folio ? ` ${folio}` : ''} — ${data.empresa}`,
    discrepancias,
    desconocidos: desconocidos(r.complementoNodos).map(asciiHeader),
    xml,
  };
}
