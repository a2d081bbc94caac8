// CFDI de Retenciones e información de pagos 2.0 (root {http://www.sat.gob.mx/esquemas/retencionpago/2}Retenciones,
// SAT's retencionpago2.xsd): the constancia a payer gives for what it withheld (dividends, interest, payments abroad,
// digital platforms…). Its own root, its own totals, the same TimbreFiscalDigital 1.1, and its complements in the
// retencionpago/1/… namespaces (printed by ./complementos.ts). Read as written; required attributes named one by one.
//
// Verification QR (phpcfdi/cfdi-expresiones' Retenciones20, SAT's "Estándar de Retenciones 2.0"):
//   https://prodretencionverificacion.clouda.sat.gob.mx/?id=<UUID>&re=<RfcE>&rr=<RfcR> (or nr=<NumRegIdTribR padded
//   with zeros to 20>)&tt=<MontoTotOperacion, 6 decimals, trailing zeros dropped>&fe=<last 8 of Sello>
import {
  atributos,
  child,
  children,
  CfdiXmlError,
  esTimbre,
  leerTimbre,
  type CfdiXmlProblem,
  type TimbreLeido,
  type XmlNodo,
} from './leer';
import { totalQr } from './timbre';

export const NS_RETENCIONES20 = 'http://www.sat.gob.mx/esquemas/retencionpago/2';
export const NS_RETENCIONES10 = 'http://www.sat.gob.mx/esquemas/retencionpago/1';
export const RETENCIONES_VERIFICATION_URL = 'https://prodretencionverificacion.clouda.sat.gob.mx/';

export interface RetencionesLeidas {
  version: string;
  folioInt?: string;
  noCertificado: string;
  sello: string;
  fechaExp: string;
  lugarExpRetenc: string;
  cveRetenc: string;
  descRetenc?: string;
  relacionados?: { tipoRelacion: string; uuid: string };
  emisor: { rfc: string; nombre?: string; regimenFiscal: string };
  receptor: {
    nacionalidad: string;
    rfc?: string;
    numRegIdTrib?: string;
    nombre?: string;
    curp?: string;
    domicilioFiscal?: string;
  };
  periodo: { mesIni: string; mesFin: string; ejercicio: string };
  totales: {
    montoTotOperacion: string;
    montoTotGrav: string;
    montoTotExent: string;
    montoTotRet: string;
    utilidadBimestral?: string;
    isrCorrespondiente?: string;
    impRetenidos: { baseRet?: string; impuestoRet?: string; montoRet: string; tipoPagoRet: string }[];
  };
  timbre?: TimbreLeido;
  complementoNodos: XmlNodo[];
}

/** Reads a Retenciones 2.0 root already parsed; throws CfdiXmlError with every problem found. */
export function leerRetenciones20(root: XmlNodo): RetencionesLeidas {
  const problems: CfdiXmlProblem[] = [];
  if (root.uri === NS_RETENCIONES10)
    throw new CfdiXmlError([
      {
        msg: 'CFDI de Retenciones 1.0 is not accepted: only Retenciones 2.0 (namespace http://www.sat.gob.mx/esquemas/retencionpago/2), in force since 2022',
        type: 'cfdi_version',
      },
    ]);
  const at = (el: XmlNodo, trail: string) => atributos(el, trail, problems);
  const need = (el: XmlNodo | undefined, name: string): XmlNodo => {
    if (!el) problems.push({ msg: `Retenciones/${name} is required`, type: 'cfdi_missing' });
    return el ?? { uri: NS_RETENCIONES20, local: name, attrs: {}, children: [] };
  };
  const r = at(root, 'Retenciones');
  const version = r.req('Version');
  if (version && version !== '2.0')
    problems.push({ msg: `Retenciones@Version must be 2.0, not '${version}'`, type: 'cfdi_version' });
  const e = at(need(child(root, NS_RETENCIONES20, 'Emisor'), 'Emisor'), 'Emisor');
  const receptorEl = need(child(root, NS_RETENCIONES20, 'Receptor'), 'Receptor');
  const nacional = child(receptorEl, NS_RETENCIONES20, 'Nacional');
  const extranjero = child(receptorEl, NS_RETENCIONES20, 'Extranjero');
  const n = nacional && at(nacional, 'Receptor/Nacional');
  const x = extranjero && at(extranjero, 'Receptor/Extranjero');
  if (!nacional && !extranjero)
    problems.push({ msg: 'Retenciones/Receptor needs Nacional or Extranjero', type: 'cfdi_missing' });
  const p = at(need(child(root, NS_RETENCIONES20, 'Periodo'), 'Periodo'), 'Periodo');
  const totalesEl = need(child(root, NS_RETENCIONES20, 'Totales'), 'Totales');
  const t = at(totalesEl, 'Totales');
  const relEl = child(root, NS_RETENCIONES20, 'CfdiRetenRelacionados');
  const rel = relEl && at(relEl, 'CfdiRetenRelacionados');

  const complementoEls = children(root, NS_RETENCIONES20, 'Complemento').flatMap((c) => c.children);
  const timbre = leerTimbre(complementoEls, problems);

  const leidas: RetencionesLeidas = {
    version,
    folioInt: r.opt('FolioInt'),
    noCertificado: r.req('NoCertificado'),
    sello: r.opt('Sello') ?? '',
    fechaExp: r.req('FechaExp'),
    lugarExpRetenc: r.req('LugarExpRetenc'),
    cveRetenc: r.req('CveRetenc'),
    descRetenc: r.opt('DescRetenc'),
    relacionados: rel && { tipoRelacion: rel.req('TipoRelacion'), uuid: rel.req('UUID') },
    emisor: { rfc: e.req('RfcE'), nombre: e.opt('NomDenRazSocE'), regimenFiscal: e.req('RegimenFiscalE') },
    receptor: {
      nacionalidad: at(receptorEl, 'Receptor').req('NacionalidadR'),
      rfc: n?.req('RfcR'),
      numRegIdTrib: x?.opt('NumRegIdTribR'),
      nombre: n?.req('NomDenRazSocR') ?? x?.req('NomDenRazSocR'),
      curp: n?.opt('CurpR'),
      domicilioFiscal: n?.req('DomicilioFiscalR'),
    },
    periodo: { mesIni: p.req('MesIni'), mesFin: p.req('MesFin'), ejercicio: p.req('Ejercicio') },
    totales: {
      montoTotOperacion: t.req('MontoTotOperacion'),
      montoTotGrav: t.req('MontoTotGrav'),
      montoTotExent: t.req('MontoTotExent'),
      montoTotRet: t.req('MontoTotRet'),
      utilidadBimestral: t.opt('UtilidadBimestral'),
      isrCorrespondiente: t.opt('ISRCorrespondiente'),
      impRetenidos: children(totalesEl, NS_RETENCIONES20, 'ImpRetenidos').map((el, j) => {
        const q = at(el, `Totales/ImpRetenidos[${j + 1}]`);
        return {
          baseRet: q.opt('BaseRet'),
          impuestoRet: q.opt('ImpuestoRet'),
          montoRet: q.req('MontoRet'),
          tipoPagoRet: q.req('TipoPagoRet'),
        };
      }),
    },
    timbre,
    complementoNodos: complementoEls.filter((c) => !esTimbre(c)),
  };
  if (problems.length) throw new CfdiXmlError(problems);
  return leidas;
}

/** SAT's verification URL of a Retenciones 2.0 (what its QR encodes). */
export function verificacionRetencionesUrl(r: RetencionesLeidas): string {
  const xml = (s: string) => s.replace(/&/g, '&amp;');
  const receptor =
    r.receptor.rfc !== undefined
      ? `rr=${xml(r.receptor.rfc)}`
      : `nr=${xml(r.receptor.numRegIdTrib ?? '')
          .slice(0, 20)
          .padStart(20, '0')}`;
  return (
    `${RETENCIONES_VERIFICATION_URL}?id=${r.timbre?.uuid ?? ''}&re=${xml(r.emisor.rfc)}&${receptor}` +
    `&tt=${totalQr(r.totales.montoTotOperacion)}&fe=${r.sello.slice(-8)}`
  );
}
