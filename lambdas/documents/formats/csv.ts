// csv: RFC 4180 (comma separator, CRLF line ends, fields quoted when they hold a comma, quote or line break,
// quotes doubled), UTF-8, optional byte order mark for Excel (`options.csv_bom`). One header row, then data rows;
// no totals row (a CSV is data for another program). Numbers are plain (1234.5, money with the currency's
// decimals, percent as a fraction with 4 decimals 0.2542), dates ISO; a formula cell is written as its result.
// csv-stringify (the `csv` project) does the quoting.
import { stringify } from 'csv-stringify/sync';
import { CONTENT_TYPES } from '../core/formats';
import { DocumentRequestError } from '../errors';
import { currencyDigits, Dec, dec } from '../../../templates/kit/money';
import { tablesFromHtml } from './html-tables';
import { cellValue, type Cell, type Column, type SheetModel } from '../../../templates/kit/sheet-model';
import type { DocumentModel, FormatOptions, RenderedFile } from './types';

function csvCell(cell: Cell | undefined, col: Column, digits: number): string {
  const value = cellValue(cell);
  if (value === null) return '';
  const numeric = value !== '' && (typeof value === 'number' || /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(value));
  if (col.kind === 'money' && numeric)
    return dec(value).toDecimalPlaces(digits, Dec.ROUND_HALF_UP).toFixed(digits);
  // A share as a fraction to 4 decimals (0.01 %), half up: 0.3333, not 0.33333333333333331.
  if (col.kind === 'percent' && numeric) return dec(value).toDecimalPlaces(4, Dec.ROUND_HALF_UP).toString();
  return String(value);
}

export function sheetToCsv(sheet: SheetModel, bom = false): Buffer {
  // Each money column's decimals, looked up once (Intl per call is slow on thousands of rows).
  const digits = sheet.columns.map((c) => (c.kind === 'money' ? currencyDigits(c.currency ?? 'MXN') : 0));
  const records = [
    sheet.columns.map((c) => c.header),
    ...sheet.rows.map((r) => sheet.columns.map((c, i) => csvCell(r[c.key], c, digits[i]!))),
  ];
  const text = stringify(records, { record_delimiter: '\r\n', quoted_match: /^\s|\s$/ });
  return Buffer.concat([bom ? Buffer.from([0xef, 0xbb, 0xbf]) : Buffer.alloc(0), Buffer.from(text, 'utf8')]);
}

export function sheetsOf(model: DocumentModel, format: 'csv' | 'xlsx'): SheetModel[] {
  const sheets = model.sheets ?? tablesFromHtml(model.html);
  if (sheets.length === 0) {
    throw new DocumentRequestError([
      {
        loc: ['body', 'format'],
        msg: `Format '${format}' needs a <table> in the rendered HTML: add one, or choose html, pdf, md or txt`,
        type: 'format_needs_table',
      },
    ]);
  }
  return sheets;
}

/** The first sheet (the main table) as CSV. */
export async function renderCsv(model: DocumentModel, options: FormatOptions = {}): Promise<RenderedFile> {
  const [sheet] = sheetsOf(model, 'csv');
  return { bytes: sheetToCsv(sheet!, options.csvBom), contentType: CONTENT_TYPES.csv, extension: 'csv' };
}
