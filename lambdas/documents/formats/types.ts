// What the format renderers work from. A template render produces a DocumentModel: the finished HTML (for html,
// pdf, png, md, txt, docx), the validated data (json) and, for table-like templates, sheets built from the data
// model (xlsx, csv) so spreadsheet cells hold numbers, not text scraped from HTML.
import type { Format } from '../domain/formats';

export type CellKind = 'text' | 'integer' | 'decimal' | 'money' | 'percent' | 'date';

/**
 * A spreadsheet formula with its value. `formula` is Excel syntax (no leading "=") whose cell references name
 * columns by key, resolved by the xlsx writer: `{revenue}` this row's cell, `{revenue@0}` the first data row's
 * (0-based), `{revenue@total}` the totals row's; `{$revenue@0}` is the absolute `$C$3`. `result` is the value
 * computed exactly by the template model: cached in the xlsx (viewers that do not recalculate show it) and written
 * to csv.
 */
export interface FormulaCell {
  formula: string;
  result: string | number | null;
}

/** Numbers are exact decimals already rounded by the template model; dates are ISO `YYYY-MM-DD` strings. */
export type Cell = string | number | null | FormulaCell;

export interface Column {
  key: string;
  header: string;
  kind: CellKind;
  /** ISO 4217 code for `money` columns (default MXN). */
  currency?: string;
  /** Column width in characters; computed from the content when absent. */
  width?: number;
}

/**
 * How a row is set in the xlsx: `heading` a group title (bold, accent colour), `detail` an account under it
 * (first column indented), `subtotal` bold with a rule above, `total` bold on a tinted band with a double rule.
 */
export type RowStyle = 'heading' | 'detail' | 'subtotal' | 'total';

/**
 * A native chart of the sheet's own cells (xlsx only): categories and values are columns of data rows
 * `[from, to)` (0-based), so the chart follows edits to the table. Placed right of the table unless `anchor`
 * (0-based column and row of the top-left corner, size in columns and rows) says otherwise.
 */
export interface SheetChart {
  type: 'bar' | 'column' | 'doughnut' | 'pie';
  title: string;
  categories: string;
  values: string[];
  rows: [from: number, to: number];
  anchor?: { col: number; row: number; cols: number; rows: number };
}

export interface SheetModel {
  /** Worksheet name (≤ 31 characters, no []:*?/\). */
  name: string;
  /** Title shown above the table in the worksheet. */
  title?: string;
  /** A second line under the title (company, currency…). */
  subtitle?: string;
  columns: Column[];
  rows: Record<string, Cell>[];
  /** Per row (same index as `rows`): how it is set in the xlsx. Without it, data rows are zebra-striped. */
  rowStyles?: (RowStyle | undefined)[];
  /**
   * A totals row: `label` in the first column, SUM formulas under the `sum` column keys, and any other cells
   * (e.g. a ratio of two totals as a FormulaCell) under their keys.
   */
  totals?: { label: string; sum: string[]; cells?: Record<string, Cell> };
  /** Autofilter on the header row (default true). */
  autoFilter?: boolean;
  charts?: SheetChart[];
}

export interface DocumentModel {
  /** Human title (document metadata, zip README, <title> fallback). */
  title: string;
  /** File name without extension, e.g. `factura` or `documento`. */
  baseName: string;
  /** The rendered template: a complete HTML document. */
  html: string;
  /** The validated data (what `json` returns). */
  data: unknown;
  /** Table-like templates: the tables for xlsx/csv. Absent: tables are read from the HTML. */
  sheets?: SheetModel[];
}

export interface FormatOptions {
  /** CSV: start with a UTF-8 byte order mark so Excel detects the encoding. */
  csvBom?: boolean;
}

export interface RenderedFile {
  bytes: Buffer;
  contentType: string;
  extension: Format;
}

/** The value of a cell as data: a formula's cached result, or the cell itself. */
export function cellValue(cell: Cell | undefined): string | number | null {
  if (cell === undefined || cell === null) return null;
  return typeof cell === 'object' ? cell.result : cell;
}
