// A QR code as inline SVG, drawn server-side (no JavaScript in the page, no network): the `qrcode` package
// (soldair/node-qrcode, the maintained encoder most Node projects use) computes the module matrix synchronously,
// and this file writes it as one <path> of unit squares, with the standard 4-module quiet zone. The SVG scales to
// any size without blurring and prints crisply (shape-rendering: crispEdges).
import { create, type QRCodeErrorCorrectionLevel } from 'qrcode';

export interface QrSvgOptions {
  /** Error correction: 'M' (15 %) by default, enough for a printed URL. */
  level?: QRCodeErrorCorrectionLevel;
  /** Colour of the dark modules. */
  color?: string;
  /** Accessible label (aria-label / <title>). */
  label?: string;
}

const QUIET = 4;

function esc(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** `<svg>` text of a QR code for `text`, sized by CSS (width/height 100 % of its box). */
export function qrSvg(text: string, options: QrSvgOptions = {}): string {
  const { modules } = create(text, { errorCorrectionLevel: options.level ?? 'M' });
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
  const size = n + 2 * QUIET;
  const label = esc(options.label ?? text);
  return (
    `<svg class="qr" xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" role="img" ` +
    `aria-label="${label}" shape-rendering="crispEdges"><title>${label}</title>` +
    `<rect width="${size}" height="${size}" fill="#fff"/>` +
    `<path fill="${esc(options.color ?? '#000')}" d="${d}"/></svg>`
  );
}
