// Text widths for laying out chart labels without a browser: the advance widths of the bundled Noto Sans (Regular
// and Bold, ASCII 32–126, in thousandths of an em, read from lambdas/documents/fonts/*.ttf). Accented letters are
// measured as their base letter (NFD), other characters as a wide average. Good to a few percent, which is what
// truncating a label with "…" needs.
const REGULAR = [
  260, 269, 408, 646, 572, 831, 732, 225, 300, 300, 551, 572, 268, 322, 268, 372, 572, 572, 572, 572, 572,
  572, 572, 572, 572, 572, 268, 268, 572, 572, 572, 434, 899, 639, 650, 632, 730, 556, 519, 728, 741, 339,
  273, 619, 524, 907, 760, 781, 605, 781, 622, 549, 556, 731, 600, 930, 586, 566, 572, 329, 372, 329, 572,
  444, 281, 561, 615, 480, 615, 564, 344, 615, 618, 258, 258, 534, 258, 935, 618, 605, 615, 615, 413, 479,
  361, 618, 508, 786, 529, 510, 470, 380, 551, 380, 572,
];
const BOLD = [
  260, 282, 479, 646, 572, 902, 750, 266, 339, 339, 542, 572, 285, 320, 281, 415, 572, 572, 572, 572, 572,
  572, 572, 572, 572, 572, 281, 285, 572, 572, 572, 477, 898, 692, 665, 642, 732, 560, 549, 724, 765, 389,
  331, 664, 559, 943, 813, 791, 621, 791, 656, 551, 577, 756, 650, 967, 670, 626, 579, 331, 415, 331, 572,
  411, 365, 599, 632, 516, 632, 597, 387, 632, 650, 299, 298, 620, 298, 975, 650, 625, 632, 632, 447, 502,
  434, 650, 571, 856, 578, 571, 493, 394, 551, 394, 572,
];
const ELLIPSIS = '…';
const OTHER = 640; // CJK, symbols…: a wide average
const SPECIAL: Record<string, number> = {
  '…': 800,
  '–': 500,
  '—': 1000,
  '€': 572,
  '¿': 434,
  '¡': 269,
  '·': 268,
};

function charWidth(ch: string, table: number[]): number {
  const code = ch.codePointAt(0)!;
  if (code >= 32 && code < 127) return table[code - 32]!;
  if (SPECIAL[ch] !== undefined) return SPECIAL[ch]!;
  if (code === 0xa0) return table[0]!;
  const base = ch.normalize('NFD')[0]!;
  const b = base.codePointAt(0)!;
  return b >= 32 && b < 127 ? table[b - 32]! : OTHER;
}

/** Width in user units of `text` set at `size` (font size in the same units). */
export function textWidth(text: string, size: number, bold = false): number {
  const table = bold ? BOLD : REGULAR;
  let w = 0;
  for (const ch of text) w += charWidth(ch, table);
  return (w / 1000) * size;
}

/** `text` if it fits in `max`, else the longest prefix that fits followed by "…" (whitespace trimmed). */
export function fitText(text: string, max: number, size: number, bold = false): string {
  const clean = text.replace(/\s+/g, ' ').trim();
  if (textWidth(clean, size, bold) <= max) return clean;
  const chars = [...clean];
  const room = max - textWidth(ELLIPSIS, size, bold);
  let w = 0;
  let n = 0;
  const table = bold ? BOLD : REGULAR;
  while (n < chars.length && w + (charWidth(chars[n]!, table) / 1000) * size <= room) {
    w += (charWidth(chars[n]!, table) / 1000) * size;
    n++;
  }
  return chars.slice(0, n).join('').trimEnd() + ELLIPSIS;
}
