// html: the rendered template as a standalone file, with its <style> rules also copied onto the elements
// (juice) so it survives e-mail clients and editors that drop <style>. Style blocks are kept for @page,
// @media and pseudo-class rules. juice's synchronous API never fetches <link>ed resources.
import juice from 'juice';
import { CONTENT_TYPES } from '../core/formats';
import type { DocumentModel, RenderedFile } from './types';

export function inlineCss(html: string): string {
  return juice(html, { removeStyleTags: false, preserveImportant: true, applyStyleTags: true });
}

export async function renderHtml(model: DocumentModel): Promise<RenderedFile> {
  return {
    bytes: Buffer.from(inlineCss(model.html), 'utf8'),
    contentType: CONTENT_TYPES.html,
    extension: 'html',
  };
}
