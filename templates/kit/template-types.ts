// What a built-in template (templates/<slug>/) provides. The Jinja2 source lives beside it in template.html.j2 and
// is read by the registry; everything computed (totals, taxes, shares) is computed here in TypeScript with exact
// decimals and handed to the template as `calc`, so the template only lays out and formats.
import type { z } from 'zod';
import type { SheetModel } from './sheet-model';
import type { Format } from './formats';

export interface TemplateMeta {
  slug: string;
  /** Short Spanish name, e.g. "Factura". */
  title: string;
  /** What it is for (Spanish). */
  purpose: string;
  /** Formats this template renders to (the contract's table, plus zip: the bundle of these). */
  formats: readonly Format[];
  /** Page defaults; the request's options override them. */
  page: { size: 'A4' | 'Letter'; landscape: boolean; margin: string };
}

export interface BuiltInTemplate<S extends z.ZodType = z.ZodType> {
  meta: TemplateMeta;
  /** The data schema (zod): required vs optional members, Spanish descriptions. */
  schema: S;
  /** Sample data: validates against `schema`; used for sample.pdf and in tests. */
  sample: z.input<S>;
  /** Variables the template sees: the validated data plus `calc` (computed, exact). */
  view(data: z.output<S>): Record<string, unknown>;
  /** Table-like templates: the sheets for xlsx/csv, from the data model. */
  sheets?(data: z.output<S>): SheetModel[];
  /** Document title (file metadata). */
  title(data: z.output<S>): string;
  /**
   * Extra files for the zip bundle, built from the same data (factura: the CFDI 4.0 XML). They go after the
   * template's own formats and before data.json; `description` is their line in LEEME.txt (Spanish).
   */
  attachments?(data: z.output<S>): TemplateAttachment[];
  /** Paragraphs LEEME.txt adds after its file list (Spanish), e.g. why a file is not in the zip. */
  readmeNotes?(data: z.output<S>): string[];
  /**
   * With `options.require_xml`: the data fields the template's attachments still need (each a 400 item at
   * body.data.<field>) instead of a zip without them. Templates without it refuse the option.
   */
  requiredAttachmentProblems?(data: z.output<S>): { field: string; msg: string }[];
  /**
   * The document from an XML the caller sends instead of `data` (factura: a CFDI 4.0, `cfdi_xml`). Throws
   * CfdiXmlError (templates/kit/cfdi/leer.ts) with the problems when it cannot be printed.
   */
  fromXml?(xml: string): XmlDocument;
}

/** What a template makes of an XML input (BuiltInTemplate.fromXml). */
export interface XmlDocument {
  /** data.json of the zip. */
  data: Record<string, unknown>;
  /** Variables the template sees (the shape `view` gives). */
  view: Record<string, unknown>;
  title: string;
  /** ASCII lines for the X-CFDI-Avisos response header: what the re-checks found (empty when nothing). */
  warnings: string[];
  /** Complements printed as generic sections because we do not know them, "local (namespace)" in ASCII. */
  unknownComplements?: string[];
  /** Files for the zip besides the template's formats (the XML itself). */
  attachments: TemplateAttachment[];
  /** The file a PDF/A-3 carries as its source (AFRelationship Source). */
  embedded: { name: string; bytes: Buffer; mimeType: string };
}

/** A file a template adds to its zip (see BuiltInTemplate.attachments). */
export interface TemplateAttachment {
  /** File name inside the zip, e.g. `factura.xml`. */
  name: string;
  bytes: Buffer;
  /** What it is, for LEEME.txt (Spanish). */
  description: string;
}

/** Identity helper that keeps the schema's type for `view`/`sheets`. */
export function defineTemplate<S extends z.ZodType>(t: BuiltInTemplate<S>): BuiltInTemplate<S> {
  return t;
}
