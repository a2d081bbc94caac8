// The sheets a table-like template builds from its data model (xlsx, csv), so spreadsheet cells hold numbers, not
// text scraped from HTML. The documents service's xlsx and csv writers read them.

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

/** The value of a cell as data: a formula's cached result, or the cell itself. */
export function cellValue(cell: Cell | undefined): string | number | null {
  if (cell === undefined || cell === null) return null;
  return typeof cell === 'object' ? cell.result : cell;
}
