// Caller text inside CSS, for the page footers the templates draw with @page margin boxes
// (`@bottom-left { content: {{ calc.pie_css | safe }} }`). A <style> element is raw text: HTML escaping would print
// "&amp;" literally, so the text is written as a CSS string literal instead, whitespace runs folded to one space,
// with every character other than letters, digits, spaces and plain punctuation (. , : · – — / ( ) -) as a CSS
// escape followed by a space (`\26 ` for "&"; the CSS parser consumes that space, so a following space stays a
// space). The result holds no quote, "<", "{", ";" or backslash sequence a caller controls, so it is safe to print
// with |safe inside <style>.
export function cssString(text: string): string {
  let out = '"';
  for (const ch of text.replace(/\s+/g, ' ')) {
    out += /^[\p{L}\p{N} .,:·–—/()-]$/u.test(ch) ? ch : `\\${ch.codePointAt(0)!.toString(16)} `;
  }
  return `${out}"`;
}
