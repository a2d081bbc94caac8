// zip: a bundle of files built in memory with fflate.
// Why fflate and not archiver 8: archiver is stream-oriented and, from version 8, ESM-only with 45 packages of
// which 8 are ESM-only too (archiver, zip-stream, compress-commons, crc32-stream, is-stream, minimatch,
// brace-expansion, balanced-match): jest would need every one of them in transformIgnorePatterns, and
// minimatch/brace-expansion would shadow the CommonJS copies other tools load. The documents are already Buffers,
// so a synchronous in-memory zip is all that is needed: fflate has no dependencies, ships CommonJS and ESM, and is
// already in the tree (pdfkit uses it).
// What goes in the zip is decided by the format stage (pipeline/formats.ts) and documented in
// docs/documents-templates.md.
import { zipSync, type Zippable } from 'fflate';
import { CONTENT_TYPES } from '../core/formats';
import type { RenderedFile } from './types';

export interface ZipEntry {
  name: string;
  bytes: Buffer;
  /** Its line in LEEME.txt, when the extension alone does not say what it is (e.g. the CFDI XML). */
  description?: string;
}

/** Already-compressed formats are stored, text (html, xml, json, txt) is deflated. */
const STORED = /\.(png|pdf|zip|xlsx|docx|jpe?g)$/i;

export function buildZip(entries: ZipEntry[], mtime = new Date()): RenderedFile {
  const files: Zippable = {};
  for (const e of entries) {
    files[e.name] = [new Uint8Array(e.bytes), { level: STORED.test(e.name) ? 0 : 6, mtime }];
  }
  return { bytes: Buffer.from(zipSync(files)), contentType: CONTENT_TYPES.zip, extension: 'zip' };
}
