// Caller text inside CSS, for the page footers the templates draw with @page margin boxes (`content: "…"`).
// A <style> element is raw text: HTML escaping would print "&amp;" literally, so the text is written as a CSS
// string instead, with every character other than letters, digits, spaces and plain punctuation as a CSS escape
// (`\26 ` for "&"). The result holds no quote, "<" or backslash sequence a caller controls, so it is safe to print
// with |safe inside <style>.
export function cssString(text: string): string {
  let out = '"';
  for (const ch of text.replace(/[\r\n\t]+/g, ' ')) {
    out += /^[\p{L}\p{N} .,:·–—/()-]$/u.test(ch) ? ch : `\\${ch.codePointAt(0)!.toString(16)} `;
  }
  return `${out}"`;
}
