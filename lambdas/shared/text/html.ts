// HTML text escaping, one way for every place that builds markup from a caller's values (the CFDI complements'
// printed lines, the watermark's label).

const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const SPECIAL = /[&<>"']/;

/** `s` as HTML text or attribute value (most values hold none of the five characters: returned as they are). */
export const escapeHtml = (s: string): string =>
  SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ENTITIES[c]!) : s;
