// options.password / options.permissions: the finished PDF is encrypted with AES-256 (ISO 32000-2 security handler
// /V 5 /R 6, the only one the standard still recommends; passwords are UTF-8, up to 127 bytes).
// Lambda has no qpdf binary, and pdf-lib cannot encrypt: @cantoo/pdf-lib (MIT), the maintained pdf-lib fork that
// added the standard security handler, loads the PDF and writes it encrypted. It runs last, after the watermark
// (free plan), so the stamp is inside the encrypted content like the rest of the page.
//
// The owner password (the one that lifts the permissions) is random and not kept: nobody, us included, can lift
// them. Permissions are flags that conforming readers honour (Acrobat, qpdf, pdf.js); they are not a security
// boundary on their own, the password is. Extraction for accessibility stays allowed whatever `copy` says.
import { randomBytes } from 'node:crypto';
import { PDFDocument } from '@cantoo/pdf-lib';

/** What a reader may do with the opened document; each defaults to true (allowed). */
export interface PdfPermissions {
  print?: boolean;
  copy?: boolean;
  modify?: boolean;
  annotate?: boolean;
}

export interface PdfProtection {
  /** Needed to open the document; without it the document opens freely, with `permissions` enforced. */
  password?: string;
  permissions?: PdfPermissions;
}

export async function protectPdf(pdf: Uint8Array, protection: PdfProtection): Promise<Buffer> {
  const allow = { print: true, copy: true, modify: true, annotate: true, ...protection.permissions };
  const doc = await PDFDocument.load(pdf, { updateMetadata: false });
  doc.encrypt({
    algorithm: 'AES-256',
    userPassword: protection.password ?? '',
    ownerPassword: randomBytes(24).toString('base64url'),
    permissions: {
      printing: allow.print ? 'highResolution' : false,
      copying: allow.copy,
      contentAccessibility: true,
      modifying: allow.modify,
      documentAssembly: allow.modify,
      annotating: allow.annotate,
      fillingForms: allow.annotate,
    },
  });
  return Buffer.from(await doc.save({ useObjectStreams: false }));
}
