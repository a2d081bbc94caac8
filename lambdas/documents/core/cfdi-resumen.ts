// The summary of a batch of stamped CFDI 4.0 (POST /v1/batches): one row per comprobante as its XML says, the file
// names of its PDF and XML in the result zip, and the totals per RFC emisor and per month that resumen.xlsx and
// resumen.csv carry (formats/resumen.ts writes them). Pure: no I/O.
//
// Taxes are the comprobante's own Impuestos node (TotalImpuestosTrasladados/Retenidos split by Impuesto: 001 ISR,
// 002 IVA, 003 IEPS), as SAT's descarga masiva metadata reports them. A recibo de pagos (tipo P) or nómina (tipo N)
// carries its taxes inside its complement: its row shows the comprobante's figures and names the complement.
// Totals are in MXN: each amount times TipoCambio (1 for MXN and XXX), rounded half up to cents per row, then summed.
import { CfdiXmlError, leerCfdi, type CfdiLeido } from '../../../templates/kit/cfdi/leer';
import { Dec, dec, sum } from '../../../templates/kit/money';

/** What an accountant's declaración needs of one CFDI. Amounts as written in the XML (text, exact). */
export interface ResumenRow {
  uuid: string;
  tipo: string;
  serie: string;
  folio: string;
  fecha: string;
  emisorRfc: string;
  emisorNombre: string;
  receptorRfc: string;
  receptorNombre: string;
  subtotal: string;
  descuento: string;
  ivaTrasladado: string;
  iepsTrasladado: string;
  ivaRetenido: string;
  isrRetenido: string;
  iepsRetenido: string;
  total: string;
  moneda: string;
  tipoCambio: string;
  metodoPago: string;
  formaPago: string;
  /** Complement namespaces besides the timbre, by their local names (e.g. "Pagos", "Nomina"). */
  complementos: string;
  /** The file it came from (zip entry name, or `xml[<i>]` of a JSON list). */
  archivo: string;
}

/** The amount columns, in the workbook's order; totals are kept for each. */
export const AMOUNT_COLUMNS = [
  'subtotal',
  'descuento',
  'ivaTrasladado',
  'iepsTrasladado',
  'ivaRetenido',
  'isrRetenido',
  'iepsRetenido',
  'total',
] as const satisfies readonly (keyof ResumenRow)[];
export type AmountColumn = (typeof AMOUNT_COLUMNS)[number];

/** A file of the batch that gives no PDF, and why (Spanish, for the accountant; English detail after it). */
export interface Refused {
  archivo: string;
  motivo: string;
}

export type Reading =
  { ok: true; row: ResumenRow; template: 'factura' | 'nomina' } | { ok: false; motivo: string };

const IMPUESTO = { isr: '001', iva: '002', ieps: '003' } as const;

function taxSum(items: { impuesto: string; importe?: string }[], code: string): string {
  const picked = items.filter((t) => t.impuesto === code && t.importe !== undefined);
  return picked.length ? sum(picked.map((t) => dec(t.importe!))).toString() : '0';
}

function complementName(c: CfdiLeido, uri: string): string {
  const node = c.complementoNodos.find((n) => n.uri === uri);
  return node?.local ?? uri;
}

const RETENCIONES_NS = 'http://www.sat.gob.mx/esquemas/retencionpago/2';
/** The document's first element is a Retenciones (after the XML declaration and comments). */
const RETENCIONES_ROOT =
  /^\uFEFF?\s*(?:<\?xml[^>]*\?>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:[\w.-]+:)?Retenciones[\s>]/;

/**
 * Reads one file of a batch: a stamped CFDI 4.0 gives its row (and the template that prints it); anything else
 * gives the reason it is refused.
 */
export function readForBatch(xml: string, archivo: string): Reading {
  if (!xml.trim()) return { ok: false, motivo: 'Archivo vacío (empty file)' };
  if (RETENCIONES_ROOT.test(xml) && xml.includes(RETENCIONES_NS))
    return {
      ok: false,
      motivo:
        'CFDI de Retenciones 2.0 (constancia de retenciones): un lote imprime y resume comprobantes CFDI 4.0; ' +
        'imprímela sola con POST /v1/render {"template": "factura", "cfdi_xml": …} (a batch prints CFDI 4.0 only)',
    };
  let c: CfdiLeido;
  try {
    c = leerCfdi(xml);
  } catch (err) {
    if (err instanceof CfdiXmlError)
      return {
        ok: false,
        motivo: `No es un CFDI 4.0 imprimible: ${err.problems
          .slice(0, 5)
          .map((p) => p.msg)
          .join('; ')}`.slice(0, 1000),
      };
    throw err;
  }
  if (!c.timbre?.uuid)
    return {
      ok: false,
      motivo: 'CFDI sin timbrar: no tiene TimbreFiscalDigital con UUID (a batch prints stamped CFDI only)',
    };
  const traslados = c.impuestos?.traslados ?? [];
  const retenciones = c.impuestos?.retenciones ?? [];
  const row: ResumenRow = {
    uuid: c.timbre.uuid.toUpperCase(),
    tipo: c.tipoDeComprobante,
    serie: c.serie ?? '',
    folio: c.folio ?? '',
    fecha: c.fecha,
    emisorRfc: c.emisor.rfc,
    emisorNombre: c.emisor.nombre,
    receptorRfc: c.receptor.rfc,
    receptorNombre: c.receptor.nombre,
    subtotal: dec(c.subTotal).toString(),
    descuento: c.descuento ? dec(c.descuento).toString() : '0',
    ivaTrasladado: taxSum(traslados, IMPUESTO.iva),
    iepsTrasladado: taxSum(traslados, IMPUESTO.ieps),
    ivaRetenido: taxSum(retenciones, IMPUESTO.iva),
    isrRetenido: taxSum(retenciones, IMPUESTO.isr),
    iepsRetenido: taxSum(retenciones, IMPUESTO.ieps),
    total: dec(c.total).toString(),
    moneda: c.moneda,
    tipoCambio: c.tipoCambio ?? '',
    metodoPago: c.metodoPago ?? '',
    formaPago: c.formaPago ?? '',
    complementos: [...new Set(c.complementos.map((u) => complementName(c, u)))].join(', '),
    archivo,
  };
  return { ok: true, row, template: c.tipoDeComprobante === 'N' ? 'nomina' : 'factura' };
}

/** Keeps file names portable: letters, digits and '-' (a serie/folio may hold anything SAT's pattern allows). */
const safe = (s: string) => s.replace(/[^A-Za-z0-9-]/g, '-');

/** `<RFC emisor>_<serie><folio>_<UUID>` (without extension): the PDF and the XML beside it share it. */
export function baseName(row: Pick<ResumenRow, 'emisorRfc' | 'serie' | 'folio' | 'uuid'>): string {
  return `${safe(row.emisorRfc)}_${safe(row.serie + row.folio)}_${row.uuid}`;
}

/** An amount in MXN at the row's exchange rate, rounded half up to cents. */
export function enPesos(row: Pick<ResumenRow, 'moneda' | 'tipoCambio'>, amount: string): Dec {
  const rate = row.moneda === 'MXN' || row.moneda === 'XXX' || !row.tipoCambio ? dec(1) : dec(row.tipoCambio);
  return dec(amount).times(rate).toDecimalPlaces(2, Dec.ROUND_HALF_UP);
}

/** Totals in MXN per key (RFC emisor, or month YYYY-MM), each with its count of CFDI. */
export class Totals {
  readonly byKey = new Map<string, { count: number; sums: Record<AmountColumn, Dec> }>();

  add(key: string, row: ResumenRow): void {
    let t = this.byKey.get(key);
    if (!t) {
      t = {
        count: 0,
        sums: Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c, dec(0)])) as Record<AmountColumn, Dec>,
      };
      this.byKey.set(key, t);
    }
    t.count++;
    for (const c of AMOUNT_COLUMNS) t.sums[c] = t.sums[c].plus(enPesos(row, row[c]));
  }

  /** Keys in order (RFCs and months sort as text). */
  entries(): [string, { count: number; sums: Record<AmountColumn, Dec> }][] {
    return [...this.byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  }
}

/** The month a CFDI counts in: its Fecha's YYYY-MM (the issue date as written, Mexico's local time). */
export const monthOf = (row: Pick<ResumenRow, 'fecha'>) => row.fecha.slice(0, 7);
