// The Complemento para recepción de Pagos 2.0 of a CFDI 4.0 de tipo P (Pagos20.xsd, namespace
// http://www.sat.gob.mx/Pagos20), read from the element ./leer.ts parsed: each payment, the documents it pays
// (parcialidad, saldo anterior, pagado, saldo insoluto, their taxes) and the Totales. Amounts are kept as written.
import {
  atributos,
  child,
  children,
  CfdiXmlError,
  NS_PAGOS20,
  type CfdiXmlProblem,
  type XmlNodo,
} from './leer';

export interface ImpuestoPagoLeido {
  base: string;
  impuesto: string;
  tipoFactor: string;
  tasaOCuota?: string;
  importe?: string;
  retencion: boolean;
}

export interface DoctoPagadoLeido {
  idDocumento: string;
  serie?: string;
  folio?: string;
  monedaDR: string;
  equivalenciaDR?: string;
  numParcialidad: string;
  impSaldoAnt: string;
  impPagado: string;
  impSaldoInsoluto: string;
  objetoImpDR: string;
  impuestos: ImpuestoPagoLeido[];
}

export interface PagoLeido {
  fechaPago: string;
  formaDePagoP: string;
  monedaP: string;
  tipoCambioP?: string;
  monto: string;
  numOperacion?: string;
  doctos: DoctoPagadoLeido[];
}

export interface PagosLeidos {
  version: string;
  totales: Record<string, string>;
  pagos: PagoLeido[];
}

/** Traslados and retenciones under an Impuestos{DR,P} element, by suffix ("DR" or "P"). */
function impuestos(el: XmlNodo | undefined, sfx: 'DR' | 'P', trail: string, problems: CfdiXmlProblem[]) {
  const out: ImpuestoPagoLeido[] = [];
  for (const [grupo, uno, retencion] of [
    [`Traslados${sfx}`, `Traslado${sfx}`, false],
    [`Retenciones${sfx}`, `Retencion${sfx}`, true],
  ] as const)
    children(child(el, NS_PAGOS20, grupo), NS_PAGOS20, uno).forEach((x, i) => {
      const a = atributos(x, `${trail}/${uno}[${i + 1}]`, problems);
      out.push({
        base: a.opt(`Base${sfx}`) ?? '',
        impuesto: a.req(`Impuesto${sfx}`),
        tipoFactor: a.opt(`TipoFactor${sfx}`) ?? '',
        tasaOCuota: a.opt(`TasaOCuota${sfx}`),
        importe: a.opt(`Importe${sfx}`),
        retencion,
      });
    });
  return out;
}

/** The Pagos 2.0 among a CFDI's complements (CfdiLeido.complementoNodos); throws CfdiXmlError when unreadable. */
export function leerPagos20(complementos: XmlNodo[]): PagosLeidos | undefined {
  const el = complementos.find((x) => x.uri === NS_PAGOS20 && x.local === 'Pagos');
  if (!el) return undefined;
  const problems: CfdiXmlProblem[] = [];
  const version = atributos(el, 'Pagos', problems).req('Version');
  if (version && version !== '2.0')
    problems.push({ msg: `Pagos@Version must be 2.0, not '${version}'`, type: 'cfdi_version' });
  const totalesEl = child(el, NS_PAGOS20, 'Totales');
  if (!totalesEl) problems.push({ msg: 'Pagos/Totales is required', type: 'cfdi_missing' });
  const pagos = children(el, NS_PAGOS20, 'Pago').map((p, i): PagoLeido => {
    const trail = `Pago[${i + 1}]`;
    const a = atributos(p, trail, problems);
    return {
      fechaPago: a.req('FechaPago'),
      formaDePagoP: a.req('FormaDePagoP'),
      monedaP: a.req('MonedaP'),
      tipoCambioP: a.opt('TipoCambioP'),
      monto: a.req('Monto'),
      numOperacion: a.opt('NumOperacion'),
      doctos: children(p, NS_PAGOS20, 'DoctoRelacionado').map((d, j) => {
        const t = `${trail}/DoctoRelacionado[${j + 1}]`;
        const b = atributos(d, t, problems);
        return {
          idDocumento: b.req('IdDocumento'),
          serie: b.opt('Serie'),
          folio: b.opt('Folio'),
          monedaDR: b.req('MonedaDR'),
          equivalenciaDR: b.opt('EquivalenciaDR'),
          numParcialidad: b.req('NumParcialidad'),
          impSaldoAnt: b.req('ImpSaldoAnt'),
          impPagado: b.req('ImpPagado'),
          impSaldoInsoluto: b.req('ImpSaldoInsoluto'),
          objetoImpDR: b.req('ObjetoImpDR'),
          impuestos: impuestos(child(d, NS_PAGOS20, 'ImpuestosDR'), 'DR', t, problems),
        };
      }),
    };
  });
  if (!pagos.length) problems.push({ msg: 'Pagos/Pago is required', type: 'cfdi_missing' });
  if (problems.length) throw new CfdiXmlError(problems);
  return { version, totales: { ...(totalesEl?.attrs ?? {}) }, pagos };
}
