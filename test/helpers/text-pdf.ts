// A small hand-built PDF (one page of Helvetica text) optionally padded with an unused stream of random bytes to a
// target size: the client tests' PDFs. Padding makes a file too large for one API request while its text — what
// gets narrated, i.e. what costs CPU — stays a few sentences. No library: the bytes and the xref are written here.
import { randomBytes } from 'node:crypto';

/** `lines` (Latin-1 text) on one A4 page; with `padToBytes`, an unreferenced random stream grows the file to it. */
export function textPdf(lines: string[], padToBytes = 0): Buffer {
  const esc = (s: string) => s.replace(/[\\()]/g, (c) => `\\${c}`);
  const content = ['BT', '/F1 12 Tf', '56 780 Td', '16 TL', ...lines.map((l) => `(${esc(l)}) '`), 'ET'].join(
    '\n',
  );
  const objects: Buffer[] = [
    Buffer.from('<< /Type /Catalog /Pages 2 0 R >>'),
    Buffer.from('<< /Type /Pages /Kids [3 0 R] /Count 1 >>'),
    Buffer.from(
      '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>',
    ),
    Buffer.from('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>'),
    Buffer.concat([
      Buffer.from(`<< /Length ${Buffer.byteLength(content, 'latin1')} >>\nstream\n`),
      Buffer.from(content, 'latin1'),
      Buffer.from('\nendstream'),
    ]),
  ];
  const build = (pad: number) => {
    const objs =
      pad > 0
        ? [
            ...objects,
            Buffer.concat([
              Buffer.from(`<< /Length ${pad} >>\nstream\n`),
              randomBytes(pad),
              Buffer.from('\nendstream'),
            ]),
          ]
        : objects;
    const parts: Buffer[] = [Buffer.from('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', 'latin1')];
    const offsets: number[] = [];
    let pos = parts[0]!.length;
    objs.forEach((body, i) => {
      const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), body, Buffer.from('\nendobj\n')]);
      offsets.push(pos);
      parts.push(chunk);
      pos += chunk.length;
    });
    const xref = [
      'xref',
      `0 ${objs.length + 1}`,
      '0000000000 65535 f ',
      ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `),
      'trailer',
      `<< /Size ${objs.length + 1} /Root 1 0 R >>`,
      'startxref',
      String(pos),
      '%%EOF\n',
    ].join('\n');
    return Buffer.concat([...parts, Buffer.from(xref)]);
  };
  const bare = build(0);
  return padToBytes > bare.length + 64 ? build(padToBytes - bare.length - 64) : bare;
}
