// templates/kit/qr.ts keeps the drawn module matrix of recent texts: a text drawn again (a hit), or again after it
// was evicted, must give exactly the symbol qrcode encodes for it. The SVG path is read back into modules and
// compared with qrcode's own matrix, independently of how the path was made.
import { create, type QRCodeErrorCorrectionLevel } from 'qrcode';
import { qrSvg } from '../../templates/kit/qr';

// qrcode's create, counted: a draw that calls it was not served from the cache.
jest.mock('qrcode', () => {
  const actual = jest.requireActual<typeof import('qrcode')>('qrcode');
  return { ...actual, create: jest.fn(actual.create) };
});
const encodings = () => (create as unknown as jest.Mock).mock.calls.length;

/** Dark modules of our SVG (runs `M x y h w v1 h-w z`, offset by the 4-module quiet zone) as a 0/1 matrix. */
function modulesOf(svg: string): { n: number; dark: Set<string> } {
  const dim = Number(/viewBox="0 0 (\d+) \1"/.exec(svg)![1]);
  const d = /<path [^>]*d="([^"]*)"/.exec(svg)![1]!;
  const dark = new Set<string>();
  for (const [, x, y, w] of d.matchAll(/M(\d+) (\d+)h(\d+)v1h-\3z/g))
    for (let i = 0; i < Number(w); i++) dark.add(`${Number(x) + i - 4},${Number(y) - 4}`);
  return { n: dim - 8, dark };
}

function expected(text: string, level: QRCodeErrorCorrectionLevel) {
  const { modules } = create(text, { errorCorrectionLevel: level });
  const dark = new Set<string>();
  for (let y = 0; y < modules.size; y++)
    for (let x = 0; x < modules.size; x++) if (modules.get(y, x)) dark.add(`${x},${y}`);
  return { n: modules.size, dark };
}

const satUrl = (i: number) =>
  'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?' +
  `id=${(0x1000_0000 + i).toString(16).toUpperCase()}-1F2E-4D3C-8B7A-0123456789AB&re=EKU9003173C9&rr=XAXX010101000` +
  `&tt=${String(i * 37).padStart(7, '0')}.120000&fe=${(i * 7919).toString(36).slice(-8).padStart(8, 'A')}`;

test('first draw, repeated draws and draws after eviction all give qrcode’s exact matrix', () => {
  const texts = Array.from({ length: 300 }, (_, i) => satUrl(i));
  const kept = 256; // what the cache keeps (QR_CACHE_MAX), fewer than the texts
  const levels: QRCodeErrorCorrectionLevel[] = ['M', 'Q'];
  // qrcode's own matrix of each text, made once and compared with every draw of it.
  const wants = texts.map((text, i) => expected(text, levels[i % 2]!));
  const check = (i: number) => {
    const got = modulesOf(qrSvg(texts[i]!, { level: levels[i % 2]! }));
    expect(got.n).toBe(wants[i]!.n);
    expect(got.dark).toEqual(wants[i]!.dark);
  };
  const drawnAnew = (draws: () => void) => {
    const before = encodings();
    draws();
    return encodings() - before;
  };
  // First draws, in order: the last 256 push the first 44 out (least recently used first).
  expect(drawnAnew(() => texts.forEach((_, i) => check(i)))).toBe(texts.length);
  // Repeated draws: the 256 kept, newest first, so that each is still in the cache when drawn (a hit). (Drawing
  // them in the first order again would push each one out just before its turn: no hit at all.)
  expect(
    drawnAnew(() => {
      for (let i = texts.length - 1; i >= texts.length - kept; i--) check(i);
    }),
  ).toBe(0);
  // Draws after eviction: the first 44, drawn anew.
  expect(
    drawnAnew(() => {
      for (let i = 0; i < texts.length - kept; i++) check(i);
    }),
  ).toBe(texts.length - kept);
});

test('the same text at another error-correction level is another symbol, not a cache hit', () => {
  const text = satUrl(1);
  const m = modulesOf(qrSvg(text, { level: 'M' }));
  const h = modulesOf(qrSvg(text, { level: 'H' }));
  expect(h.dark).toEqual(expected(text, 'H').dark);
  expect(h.n).toBeGreaterThan(m.n);
});

test('label, colour and size still apply to a cached symbol', () => {
  const text = satUrl(2);
  qrSvg(text);
  const svg = qrSvg(text, { label: 'a <b>', color: '#123456', size: '30mm' });
  expect(svg).toContain('aria-label="a &#60;b&#62;"');
  expect(svg).toContain('fill="#123456"');
  expect(svg).toContain('width="30mm" height="30mm"');
  expect(modulesOf(svg).dark).toEqual(expected(text, 'M').dark);
});
