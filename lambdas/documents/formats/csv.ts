// csv: RFC 4180 (comma separator, CRLF line ends, fields quoted when they hold a comma, quote or line break,
// quotes doubled), UTF-8, optional byte order mark for Excel (`options.csv_bom`). One header row, then data rows;
// no totals row (a CSV is data for another program). Numbers are plain (1234.5, money with 2 decimals, percent
// as a fraction 0.25), dates ISO. csv-stringify (the `csv` project) does the quoting.
import { stringify } from 'csv-stringify/sync';
import { CONTENT_TYPES } from '../domain/formats';
import { DocumentRequestError } from '../domain/errors';
import { tablesFromHtml } from './html-tables';
import type { Cell, Column, DocumentModel, FormatOptions, RenderedFile, SheetModel } from './types';

function csvCell(value: Cell | undefined, col: Column): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number' && col.kind === 'money') return value.toFixed(2);
  return String(value);
}

export function sheetToCsv(sheet: SheetModel, bom = false): Buffer {
  const records = [
    sheet.columns.map((c) => c.header),
    ...sheet.rows.map((r) => sheet.columns.map((c) => csvCell(r[c.key], c))),
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
