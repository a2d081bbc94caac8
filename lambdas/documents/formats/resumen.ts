// resumen.xlsx and resumen.csv of a CFDI batch (core/cfdi-resumen.ts has the rows and totals), written as the rows
// stream by: exceljs' streaming WorkbookWriter (each row is committed and leaves memory; the totals are a few
// numbers per RFC and month) and csv-stringify's stream. Native Excel: amounts are numbers with a #,##0.00 format,
// Fecha a date, the header row frozen with a filter.
//
// Sheets: "CFDI" (a row per comprobante, amounts as written in its currency), "Totales por RFC" and "Totales por
// mes" (MXN: each amount × TipoCambio rounded to cents, summed), "Rechazados" (file and reason).
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { stringify } from 'csv-stringify';
import ExcelJS from 'exceljs';
import {
  AMOUNT_COLUMNS,
  Totals,
  monthOf,
  type AmountColumn,
  type Refused,
  type ResumenRow,
} from '../core/cfdi-resumen';

const AMOUNT_HEADERS: Record<AmountColumn, string> = {
  subtotal: 'Subtotal',
  descuento: 'Descuento',
  ivaTrasladado: 'IVA trasladado',
  iepsTrasladado: 'IEPS trasladado',
  ivaRetenido: 'IVA retenido',
  isrRetenido: 'ISR retenido',
  iepsRetenido: 'IEPS retenido',
  total: 'Total',
};

/** The CFDI sheet's (and the CSV's) columns. */
const COLUMNS: { header: string; key: keyof ResumenRow; width: number; kind?: 'amount' | 'date' | 'rate' }[] =
  [
    { header: 'Tipo', key: 'tipo', width: 6 },
    { header: 'Fecha', key: 'fecha', width: 20, kind: 'date' },
    { header: 'Serie', key: 'serie', width: 8 },
    { header: 'Folio', key: 'folio', width: 10 },
    { header: 'UUID', key: 'uuid', width: 38 },
    { header: 'RFC emisor', key: 'emisorRfc', width: 15 },
    { header: 'Nombre emisor', key: 'emisorNombre', width: 30 },
    { header: 'RFC receptor', key: 'receptorRfc', width: 15 },
    { header: 'Nombre receptor', key: 'receptorNombre', width: 30 },
    ...AMOUNT_COLUMNS.map((key) => ({
      header: AMOUNT_HEADERS[key],
      key,
      width: 15,
      kind: 'amount' as const,
    })),
    { header: 'Moneda', key: 'moneda', width: 8 },
    { header: 'Tipo de cambio', key: 'tipoCambio', width: 12, kind: 'rate' },
    { header: 'Método de pago', key: 'metodoPago', width: 10 },
    { header: 'Forma de pago', key: 'formaPago', width: 10 },
    { header: 'Complementos', key: 'complementos', width: 24 },
    { header: 'Archivo', key: 'archivo', width: 40 },
  ];

const MONEY = '#,##0.00';

function cell(row: ResumenRow, c: (typeof COLUMNS)[number]): string | number | Date | null {
  const v = row[c.key];
  if (c.kind === 'amount') return Number(v);
  if (c.kind === 'rate') return v === '' ? null : Number(v);
  // CFDI dates are Mexico's local time without an offset: kept as that wall-clock time.
  if (c.kind === 'date') return /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(v) ? new Date(`${v}Z`) : v;
  return v;
}

export interface ResumenWriters {
  /** Adds one CFDI (rows are committed as they come). */
  add(row: ResumenRow): void;
  /** Writes the totals and refusals sheets and ends both streams. */
  finish(refused: Refused[]): Promise<{ rows: number }>;
}

/** Starts resumen.xlsx on `xlsx` and resumen.csv on `csv`. */
export function resumenWriters(xlsx: Writable, csv: Writable): ResumenWriters {
  const book = new ExcelJS.stream.xlsx.WorkbookWriter({ stream: xlsx, useStyles: true });
  book.creator = 'Documents API';
  const sheet = book.addWorksheet('CFDI', { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = COLUMNS.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.width,
    ...(c.kind === 'amount' ? { style: { numFmt: MONEY } } : {}),
    ...(c.kind === 'date' ? { style: { numFmt: 'yyyy-mm-dd hh:mm:ss' } } : {}),
  }));
  sheet.getRow(1).font = { bold: true };
  const text = stringify({ header: true, columns: COLUMNS.map((c) => ({ key: c.key, header: c.header })) });
  text.pipe(csv);
  const byRfc = new Totals();
  const byMonth = new Totals();
  let rows = 0;

  const totalsSheet = (name: string, first: string, totals: Totals) => {
    const s = book.addWorksheet(name, { views: [{ state: 'frozen', ySplit: 1 }] });
    s.columns = [
      { header: first, key: 'key', width: 16 },
      { header: 'CFDI', key: 'count', width: 8 },
      ...AMOUNT_COLUMNS.map((key) => ({
        header: `${AMOUNT_HEADERS[key]} (MXN)`,
        key,
        width: 18,
        style: { numFmt: MONEY },
      })),
    ];
    s.getRow(1).font = { bold: true };
    for (const [key, t] of totals.entries())
      s.addRow({
        key,
        count: t.count,
        ...Object.fromEntries(AMOUNT_COLUMNS.map((c) => [c, t.sums[c].toNumber()])),
      }).commit();
    s.commit();
  };

  return {
    add(row) {
      rows++;
      sheet.addRow(Object.fromEntries(COLUMNS.map((c) => [c.key, cell(row, c)]))).commit();
      text.write(row);
      byRfc.add(row.emisorRfc, row);
      byMonth.add(monthOf(row), row);
    },
    async finish(refused) {
      sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: COLUMNS.length } };
      sheet.commit();
      totalsSheet('Totales por RFC', 'RFC emisor', byRfc);
      totalsSheet('Totales por mes', 'Mes', byMonth);
      const r = book.addWorksheet('Rechazados', { views: [{ state: 'frozen', ySplit: 1 }] });
      r.columns = [
        { header: 'Archivo', key: 'archivo', width: 40 },
        { header: 'Motivo', key: 'motivo', width: 100 },
      ];
      r.getRow(1).font = { bold: true };
      for (const x of refused) r.addRow(x).commit();
      r.commit();
      const csvDone = once(csv, 'finish');
      text.end();
      await Promise.all([book.commit(), csvDone]);
      return { rows };
    },
  };
}
