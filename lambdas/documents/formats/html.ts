// html: the rendered template as a standalone file, with its <style> rules also copied onto the elements (juice's
// inlining, run by ./inline-css.ts) so it survives e-mail clients and editors that drop <style>. Style blocks are
// kept for @page, @media and pseudo-class rules. Nothing is fetched: <link>ed stylesheets are left as they are.
import { CONTENT_TYPES } from '../core/formats';
import { inlineCss } from './inline-css';
import type { DocumentModel, RenderedFile } from './types';

export { inlineCss };

export async function renderHtml(model: DocumentModel): Promise<RenderedFile> {
  return {
    bytes: Buffer.from(inlineCss(model.html), 'utf8'),
    contentType: CONTENT_TYPES.html,
    extension: 'html',
  };
}
