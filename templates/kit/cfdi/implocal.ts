// Complemento de Impuestos Locales 1.0 (namespace http://www.sat.gob.mx/implocal, implocal.xsd): state and municipal
// taxes — hotel lodging tax (ISH), cedular retentions, payroll-adjacent local duties — that SAT's CFDI carries beside
// the federal ones. Its TotaldeTraslados and TotaldeRetenciones enter Comprobante@Total (Anexo 20 with the
// complement's standard): Total = SubTotal − Descuento + federal traslados − federal retenciones + TotaldeTraslados −
// TotaldeRetenciones. Read as written (text); ./verificar.ts re-checks the sums, the factura prints each line in its
// totals.
import type { XmlNodo } from './leer';

export const NS_IMPLOCAL = 'http://www.sat.gob.mx/implocal';

export interface ImpLocalLinea {
  /** ImpLocTrasladado / ImpLocRetenido: the tax's name as the issuer writes it (e.g. "ISH", "Cedular"). */
  nombre: string;
  /** TasadeTraslado / TasadeRetencion: a percentage (e.g. "3.00" for 3 %). */
  tasa: string;
  importe: string;
}

export interface ImpLocalLeido {
  version: string;
  totalTraslados: string;
  totalRetenciones: string;
  traslados: ImpLocalLinea[];
  retenciones: ImpLocalLinea[];
}

/** The implocal complement among a CFDI's complements, or undefined. */
export function leerImpLocal(nodos: readonly XmlNodo[]): ImpLocalLeido | undefined {
  const el = nodos.find((n) => n.uri === NS_IMPLOCAL && n.local === 'ImpuestosLocales');
  if (!el) return undefined;
  const v = (n: XmlNodo, k: string) => n.attrs[k]?.trim() ?? '';
  const lineas = (local: string, nombre: string, tasa: string) =>
    el.children
      .filter((n) => n.uri === NS_IMPLOCAL && n.local === local)
      .map((n) => ({ nombre: v(n, nombre), tasa: v(n, tasa), importe: v(n, 'Importe') }));
  return {
    version: v(el, 'version') || v(el, 'Version'),
    totalTraslados: v(el, 'TotaldeTraslados') || '0',
    totalRetenciones: v(el, 'TotaldeRetenciones') || '0',
    traslados: lineas('TrasladosLocales', 'ImpLocTrasladado', 'TasadeTraslado'),
    retenciones: lineas('RetencionesLocales', 'ImpLocRetenido', 'TasadeRetencion'),
  };
}
