// Small HTML helpers shared by the renderers: make a fragment a complete UTF-8 document, read its <title>.

const HAS_HTML_TAG = /<html[\s>]/i;

/** Wraps a fragment into a complete HTML5 document (UTF-8, Spanish) so every format reads it the same way. */
export function ensureDocument(html: string, title = 'Documento'): string {
  if (HAS_HTML_TAG.test(html)) {
    return /<meta[^>]+charset/i.test(html)
      ? html
      : html.replace(/<head([^>]*)>/i, '<head$1><meta charset="utf-8">');
  }
  const esc = title.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  return `<!DOCTYPE html>\n<html lang="es">\n<head>\n<meta charset="utf-8">\n<title>${esc}</title>\n</head>\n<body>\n${html}\n</body>\n</html>\n`;
}

/** The text of <title>, if any. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  const t = m?.[1]
    ?.replace(/<[^>]*>/g, '')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .trim();
  return t || undefined;
}
