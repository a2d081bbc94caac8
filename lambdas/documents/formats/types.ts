// What the format renderers work from. A template render produces a DocumentModel: the finished HTML (for html,
// pdf, png, md, txt, docx), the validated data (json) and, for table-like templates, sheets built from the data
// model (xlsx, csv) so spreadsheet cells hold numbers, not text scraped from HTML.
import type { Format } from '../domain/formats';

export type CellKind = 'text' | 'integer' | 'decimal' | 'money' | 'percent' | 'date';
/** Numbers are exact decimals already rounded by the template model; dates are ISO `YYYY-MM-DD` strings. */
export type Cell = string | number | null;

export interface Column {
  key: string;
  header: string;
  kind: CellKind;
  /** ISO 4217 code for `money` columns (default MXN). */
  currency?: string;
  /** Column width in characters; computed from the content when absent. */
  width?: number;
}

export interface SheetModel {
  /** Worksheet name (≤ 31 characters, no []:*?/\). */
  name: string;
  /** Title shown above the table in the worksheet. */
  title?: string;
  columns: Column[];
  rows: Record<string, Cell>[];
  /** A totals row: `label` in the first column, SUM formulas under these column keys. */
  totals?: { label: string; sum: string[] };
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
