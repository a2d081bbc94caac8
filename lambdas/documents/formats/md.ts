// md: Markdown of the rendered HTML (turndown, with GitHub-flavoured tables from @joplin/turndown-plugin-gfm,
// the maintained fork of turndown-plugin-gfm). Headings ATX (#), bullets "-", fenced code.
import TurndownService from 'turndown';
import { gfm } from '@joplin/turndown-plugin-gfm';
import { CONTENT_TYPES } from '../core/formats';
import type { DocumentModel, RenderedFile } from './types';

function service(): TurndownService {
  const td = new TurndownService({ headingStyle: 'atx', bulletListMarker: '-', codeBlockStyle: 'fenced' });
  td.use(gfm);
  td.remove(['script', 'style', 'title', 'head', 'noscript', 'template', 'iframe', 'object', 'svg']);
  return td;
}

export function htmlToMarkdown(html: string): string {
  return `${service().turndown(html).trim()}\n`;
}

export async function renderMd(model: DocumentModel): Promise<RenderedFile> {
  return {
    bytes: Buffer.from(htmlToMarkdown(model.html), 'utf8'),
    contentType: CONTENT_TYPES.md,
    extension: 'md',
  };
}
