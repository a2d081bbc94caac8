// Why a PDF cannot be narrated, in words the caller can act on. The handler maps every PdfRejected to a 422 item at
// loc ['body', 'file'] with `type` = the code; nothing about a caller's file is ever a 5xx.

export type PdfRejectionType =
  | 'pdf_empty'
  | 'not_pdf'
  | 'pdf_truncated'
  | 'pdf_invalid'
  | 'pdf_encrypted'
  | 'pdf_no_text'
  | 'pdf_too_many_pages'
  | 'pdf_too_complex'
  | 'pdf_text_too_long';

export class PdfRejected extends Error {
  constructor(
    readonly type: PdfRejectionType,
    message: string,
  ) {
    super(message);
    this.name = 'PdfRejected';
  }
}
