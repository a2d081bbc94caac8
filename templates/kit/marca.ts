// The business's brand on a document (options.marca): its logo, its colour, a notes block and a footer legend.
// Brand never takes anything away: the printed CFDI stays SAT-complete (the template prints the brand beside it).
//
// The logo arrives as a data URI (`data:image/png;base64,…` or `data:image/svg+xml;base64,…` / `;utf8,…`), at most
// LOGO_MAX_BYTES decoded. A PNG must be one (signature and IHDR) of at most 4000 × 4000 px. An SVG is parsed
// (saxes: no DTD, no entities) and rebuilt from an allowlist — shapes, paths, text, gradients, clip paths, `use` of an
// element of its own — with presentation attributes only: no script, no event handler, no foreignObject, no external
// reference (href only to "#id", url() only to "#id"), no style element or attribute. Chromium draws it as an <img>,
// which by itself neither runs scripts nor fetches; the allowlist keeps the HTML format's copy clean as well.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { z } from 'zod';
import { cssString } from './css-string';

export const LOGO_MAX_BYTES = 200 * 1024;
const PNG_MAX_SIDE = 4000;
const SVG = 'http://www.w3.org/2000/svg';
const XLINK = 'http://www.w3.org/1999/xlink';

const ELEMENTS = new Set([
  'svg',
  'g',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'text',
  'tspan',
  'defs',
  'linearGradient',
  'radialGradient',
  'stop',
  'clipPath',
  'mask',
  'use',
  'title',
  'desc',
  'symbol',
]);
const ATTRS = new Set([
  'viewBox',
  'width',
  'height',
  'x',
  'y',
  'x1',
  'x2',
  'y1',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'd',
  'points',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'opacity',
  'transform',
  'id',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'fx',
  'fy',
  'clip-path',
  'clip-rule',
  'mask',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'preserveAspectRatio',
  'href',
  'version',
]);

export class MarcaError extends Error {}

const xmlEsc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');

/** The SVG rebuilt from the allowlist (throws MarcaError when it is not an SVG document). */
export function sanitizeSvg(svg: string): string {
  const parser = new SaxesParser({ xmlns: true });
  const out: string[] = [];
  // Depth of a dropped element we are inside (its whole subtree is dropped).
  let dropped = 0;
  let root = true;
  const stack: boolean[] = [];
  parser.on('doctype', () => {
    throw new MarcaError('An SVG logo with a DOCTYPE is not accepted');
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const keep =
      dropped === 0 && tag.uri === SVG && ELEMENTS.has(tag.local) && (tag.local === 'svg' || !root);
    if (root && !(tag.uri === SVG && tag.local === 'svg'))
      throw new MarcaError('The logo is not an SVG document (root <svg> in the SVG namespace)');
    root = false;
    stack.push(keep);
    if (!keep) {
      dropped++;
      return;
    }
    const attrs = Object.values(tag.attributes)
      .filter((a) => (a.uri === '' || (a.uri === XLINK && a.local === 'href')) && ATTRS.has(a.local))
      .filter((a) => (a.local === 'href' ? /^#[\w.-]+$/.test(a.value) : true))
      .filter((a) => !/url\(\s*['"]?(?!#)/i.test(a.value) && !/javascript:|expression\(/i.test(a.value))
      .map((a) => ` ${a.local}="${xmlEsc(a.value)}"`)
      .join('');
    out.push(`<${tag.local}${tag.local === 'svg' ? ` xmlns="${SVG}"` : ''}${attrs}>`);
  });
  parser.on('text', (t) => {
    if (dropped === 0 && stack.length) out.push(xmlEsc(t));
  });
  parser.on('closetag', (tag) => {
    const keep = stack.pop();
    if (keep) out.push(`</${tag.local}>`);
    else dropped--;
  });
  try {
    parser.write(svg).close();
  } catch (err) {
    if (err instanceof MarcaError) throw err;
    throw new MarcaError(`The SVG logo is not well-formed XML: ${(err as Error).message}`);
  }
  if (root) throw new MarcaError('The SVG logo is empty');
  return out.join('');
}

function pngSize(b: Buffer): { w: number; h: number } | undefined {
  const sig = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  if (b.length < 24 || !b.subarray(0, 8).equals(sig) || b.toString('latin1', 12, 16) !== 'IHDR')
    return undefined;
  return { w: b.readUInt32BE(16), h: b.readUInt32BE(20) };
}

/** The logo as a data URI safe to put in an <img src> (PNG checked, SVG rebuilt), or a MarcaError. */
export function logoSeguro(uri: string): string {
  const m = /^data:(image\/png|image\/svg\+xml)(;charset=[\w-]+|;utf8)?(;base64)?,(.*)$/s.exec(uri.trim());
  if (!m)
    throw new MarcaError(
      'The logo must be a data URI of a PNG or an SVG: data:image/png;base64,… or data:image/svg+xml;base64,…',
    );
  const bytes = m[3] ? Buffer.from(m[4]!, 'base64') : Buffer.from(decodeURIComponent(m[4]!), 'utf8');
  if (bytes.length > LOGO_MAX_BYTES)
    throw new MarcaError(`The logo is ${bytes.length} bytes; at most ${LOGO_MAX_BYTES} (200 KB)`);
  if (m[1] === 'image/png') {
    const size = pngSize(bytes);
    if (!size) throw new MarcaError('The logo says image/png but is not a PNG');
    if (size.w > PNG_MAX_SIDE || size.h > PNG_MAX_SIDE || !size.w || !size.h)
      throw new MarcaError(`The PNG logo is ${size.w} × ${size.h} px; at most ${PNG_MAX_SIDE} on each side`);
    return `data:image/png;base64,${bytes.toString('base64')}`;
  }
  const clean = sanitizeSvg(bytes.toString('utf8'));
  return `data:image/svg+xml;base64,${Buffer.from(clean, 'utf8').toString('base64')}`;
}

/** options.marca: each member optional. */
export const marcaSchema = z
  .object({
    logo: z
      .string()
      .max(Math.ceil((LOGO_MAX_BYTES * 4) / 3) + 200)
      .optional()
      .describe('Logo: data URI of a PNG or SVG (≤ 200 KB); the SVG is sanitised'),
    color: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'A colour is written #rrggbb, e.g. #0b6e4f')
      .optional()
      .describe('Primary colour (#rrggbb): headings, table headers, rules'),
    notas: z.string().max(1000).optional().describe('Notes block printed after the totals'),
    leyenda_pie: z.string().max(120).optional().describe('Footer legend on every page'),
  })
  .strict()
  .superRefine((m, ctx) => {
    if (m.logo === undefined) return;
    try {
      logoSeguro(m.logo);
    } catch (err) {
      if (!(err instanceof MarcaError)) throw err;
      ctx.addIssue({
        code: 'custom',
        path: ['logo'],
        message: err.message,
        params: { type: 'logo_invalid' },
      });
    }
  });

export type Marca = z.output<typeof marcaSchema>;

/** What a template sees of the brand (`_marca`): the logo made safe, the colour, the texts. */
export function vistaMarca(m: Marca | undefined) {
  if (!m) return null;
  return {
    logo: m.logo ? logoSeguro(m.logo) : null,
    color: m.color ?? null,
    notas: m.notas ?? null,
    leyenda_pie: m.leyenda_pie ?? null,
    /** The legend as a CSS string for the page footer's `content` (escaped: ./css-string.ts). */
    leyenda_css: m.leyenda_pie ? cssString(m.leyenda_pie) : null,
  };
}
