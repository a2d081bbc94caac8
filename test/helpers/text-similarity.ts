// Word-level similarity of two texts, to compare our PDF extraction with pdftotext (poppler) and with the
// fixtures' known text: 2·|LCS| / (|a| + |b|) over lower-cased words (letters and digits), the "ratio" of
// Python's difflib, computed with jsdiff's array diff (Myers' algorithm). 1 means the same words in the same order.
import { diffArrays } from 'diff';

export function words(text: string): string[] {
  return (
    text
      .normalize('NFC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

export function similarity(a: string, b: string): number {
  const wa = words(a);
  const wb = words(b);
  if (!wa.length && !wb.length) return 1;
  let common = 0;
  for (const part of diffArrays(wa, wb))
    if (!part.added && !part.removed) common += part.count ?? part.value.length;
  return (2 * common) / (wa.length + wb.length);
}
