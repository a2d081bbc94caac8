// A QR code as inline SVG, drawn server-side (no JavaScript in the page, no network): the `qrcode` package
// (soldair/node-qrcode, the maintained encoder most Node projects use) computes the module matrix synchronously
// (ISO/IEC 18004), and this file writes it as one <path> of horizontal runs on a white square with the standard
// 4-module quiet zone. The SVG scales without blurring and prints crisply (shape-rendering: crispEdges). Used by
// the factura (SAT verification URL) and the certificado (its verification URL).
import { create, type QRCodeErrorCorrectionLevel } from 'qrcode';

export interface QrSvgOptions {
  /** Error correction: 'M' (15 %) by default, enough for a printed URL (the SAT asks for M or better). */
  level?: QRCodeErrorCorrectionLevel;
  /** Colour of the dark modules (default black). */
  color?: string;
  /** CSS width and height of the whole square, e.g. "30mm"; without it the SVG fills the box CSS gives it. */
  size?: string;
  /** Accessible label (aria-label and <title>); default the encoded text. */
  label?: string;
}

const QUIET = 4;

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The module matrix as path data, per (level, text), for the last QR_CACHE_MAX texts (least recently used out):
 * encoding is deterministic, and qrcode's optimal segmentation and eight mask evaluations are most of a factura's
 * template time, while the same invoice is often rendered again (html then pdf, retries, downloads).
 */
const QR_CACHE_MAX = 256;
const drawn = new Map<string, { n: number; d: string }>();

function modulePath(text: string, level: QRCodeErrorCorrectionLevel): { n: number; d: string } {
  const key = `${level}\n${text}`;
  const hit = drawn.get(key);
  if (hit) {
    drawn.delete(key); // most recently used: last in insertion order
    drawn.set(key, hit);
    return hit;
  }
  const { modules } = create(text, { errorCorrectionLevel: level });
  const n = modules.size;
  let d = '';
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (!modules.get(y, x)) continue;
      // Merge horizontal runs into one rectangle: fewer path commands, no hairline seams between modules.
      let run = 1;
      while (x + run < n && modules.get(y, x + run)) run++;
      d += `M${x + QUIET} ${y + QUIET}h${run}v1h-${run}z`;
      x += run - 1;
    }
  }
  if (drawn.size >= QR_CACHE_MAX) drawn.delete(drawn.keys().next().value!);
  const made = { n, d };
  drawn.set(key, made);
  return made;
}

/** `<svg>` text of a QR code for `text`. */
export function qrSvg(text: string, options: QrSvgOptions = {}): string {
  const { n, d } = modulePath(text, options.level ?? 'M');
  const dim = n + 2 * QUIET;
  const label = esc(options.label ?? text);
  const size = options.size ? ` width="${esc(options.size)}" height="${esc(options.size)}"` : '';
  return (
    `<svg class="qr" xmlns="http://www.w3.org/2000/svg"${size} viewBox="0 0 ${dim} ${dim}" role="img" ` +
    `aria-label="${label}" shape-rendering="crispEdges"><title>${label}</title>` +
    `<rect width="${dim}" height="${dim}" fill="#fff"/>` +
    `<path fill="${esc(options.color ?? '#000')}" d="${d}"/></svg>`
  );
}
