// What the format renderers work from. A template render produces a DocumentModel: the finished HTML (for html,
// pdf, png, md, txt, docx), the validated data (json) and, for table-like templates, sheets built from the data
// model (xlsx, csv; templates/kit/sheet-model.ts) so spreadsheet cells hold numbers, not text scraped from HTML.
import type { SheetModel } from '../../../templates/kit/sheet-model';
import type { Format } from '../core/formats';

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
