// txt: readable plain text of the rendered HTML (html-to-text): headings set apart, lists bulleted, tables laid
// out in aligned columns, links as "text [url]", lines wrapped at 100 characters.
import { convert } from 'html-to-text';
import { CONTENT_TYPES } from '../core/formats';
import type { DocumentModel, RenderedFile } from './types';

export function htmlToText(html: string): string {
  const text = convert(html, {
    wordwrap: 100,
    selectors: [
      { selector: 'table', format: 'dataTable', options: { colSpacing: 3, uppercaseHeaderCells: false } },
      { selector: 'img', format: 'skip' },
      { selector: 'a', options: { hideLinkHrefIfSameAsText: true } },
    ],
  });
  return `${text.trim()}\n`;
}

export async function renderTxt(model: DocumentModel): Promise<RenderedFile> {
  return {
    bytes: Buffer.from(htmlToText(model.html), 'utf8'),
    contentType: CONTENT_TYPES.txt,
    extension: 'txt',
  };
}
