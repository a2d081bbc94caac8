// What a stamped (timbrado) CFDI's printed representation carries besides its data (Anexo 20, "Especificación
// técnica del código de barras bidimensional" and TimbreFiscalDigital 1.1):
//
// - The SAT verification URL, drawn as a QR code (ISO/IEC 18004, error correction M or better):
//     https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=<UUID>&re=<RFC emisor>&rr=<RFC receptor>
//       &tt=<Total>&fe=<last 8 characters of the CFDI's Sello>
//   tt: up to 18 integer digits, "." and 6 decimals, non-significant zeros omitted (Anexo 20's text; its printed
//   example "0000014300.000000" predates it), so 2320.00 → "2320.0" and 1234.56 → "1234.56" — the same as
//   phpcfdi/cfdi-expresiones, the reference implementation Mexican software uses. An "&" in an RFC is written
//   "&amp;" as there.
// - The cadena original del complemento de certificación digital del SAT:
//     ||1.1|UUID|FechaTimbrado|RfcProvCertif|[Leyenda|]SelloCFD|NoCertificadoSAT||
//
// The QR itself is drawn by ../qr.ts (SVG, no JavaScript in the page, nothing fetched).
import { Dec, dec } from '../money';
import { qrSvg } from '../qr';
import { fechaLarga } from '../../../lambdas/shared/text/fechas';
import type { CfdiLeido, TimbreLeido } from './leer';

export const SAT_VERIFICATION_URL = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx';

/** tt: the total with 6 decimals, trailing zeros dropped but one kept ("2320.0", "1234.56", "0.0"). */
export function totalQr(total: Dec | string | number): string {
  const fixed = dec(total).toDecimalPlaces(6, Dec.ROUND_HALF_UP).toFixed(6);
  const trimmed = fixed.replace(/0+$/, '');
  return trimmed.endsWith('.') ? `${trimmed}0` : trimmed;
}

export interface Verificacion {
  uuid: string;
  rfcEmisor: string;
  rfcReceptor: string;
  total: Dec | string | number;
  selloCfdi: string;
}

/** The SAT verification URL the QR encodes. */
export function verificacionUrl(v: Verificacion): string {
  const rfc = (s: string) => s.replace(/&/g, '&amp;');
  return (
    `${SAT_VERIFICATION_URL}?id=${v.uuid.toUpperCase()}&re=${rfc(v.rfcEmisor)}&rr=${rfc(v.rfcReceptor)}` +
    `&tt=${totalQr(v.total)}&fe=${v.selloCfdi.slice(-8)}`
  );
}

/** The fields of the TFD's cadena original (from an XML, or the data of a factura already stamped). */
export type Timbre = Pick<
  TimbreLeido,
  'uuid' | 'fechaTimbrado' | 'rfcProvCertif' | 'leyenda' | 'selloCfd' | 'noCertificadoSat'
>;

/** ||1.1|UUID|FechaTimbrado|RfcProvCertif|[Leyenda|]SelloCFD|NoCertificadoSAT|| */
export function cadenaOriginalTimbre(t: Timbre): string {
  // Every value as written: SAT's XSLT copies attributes (a lower-case UUID stays lower case).
  const fields = ['1.1', t.uuid, t.fechaTimbrado, t.rfcProvCertif];
  // The XSLT's "Opcional" tests the attribute node: a Leyenda present, even empty, is a field.
  if (t.leyenda !== undefined) fields.push(t.leyenda);
  fields.push(t.selloCfd, t.noCertificadoSat);
  // SAT's XSLT applies XPath normalize-space(): runs of XML whitespace (space, tab, CR, LF; not other Unicode
  // spaces) collapse to one space, leading and trailing ones dropped.
  return `||${fields.map((f) => f.replace(/[ \t\r\n]+/g, ' ').replace(/^ | $/g, '')).join('|')}||`;
}

/** What a printed CFDI shows of its TimbreFiscalDigital (null when not stamped): UUID, QR, sellos, cadena original. */
export function vistaTimbre(c: CfdiLeido) {
  const t = c.timbre;
  if (!t) return null;
  const url = verificacionUrl({
    uuid: t.uuid,
    rfcEmisor: c.emisor.rfc,
    rfcReceptor: c.receptor.rfc,
    total: c.total,
    selloCfdi: c.sello,
  });
  return vistaSellos(t, url, c.sello);
}

/** The timbre's printed parts given the verification URL (CFDI or Retenciones) and the document's own sello. */
export function vistaSellos(t: TimbreLeido, url: string, sello: string) {
  return {
    // As written, like the cadena original (an upper-case copy would not be the XML's text).
    uuid: t.uuid.trim(),
    url,
    qr_svg: qrSvg(url, { size: '31mm', label: 'Código QR de verificación del SAT' }),
    cadena_original: cadenaOriginalTimbre(t),
    sello_cfdi: sello,
    sello_sat: t.selloSat,
    no_certificado_sat: t.noCertificadoSat,
    fecha_timbrado: t.fechaTimbrado,
    fecha_timbrado_texto: fechaLarga(t.fechaTimbrado),
    rfc_prov_certif: t.rfcProvCertif,
  };
}
