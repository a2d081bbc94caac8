// A chart is a list of SVG shapes (tag, attributes in order, optional text) with its size, not a string of markup:
// the template writes the <svg> element with a small macro, so every label (product names come from the caller) is
// autoescaped by the template engine like any other data. Geometry is plain numbers rounded to 0.01 user units;
// amounts behind it are exact decimals, turned into positions only at the end.
export type Attr = [name: string, value: string | number];

export interface Shape {
  tag: 'rect' | 'path' | 'line' | 'text' | 'circle' | 'polyline' | 'g';
  a: Attr[];
  /** Text content (text elements). */
  text?: string;
}

export interface Chart {
  /** viewBox width and height, in CSS pixels at 100 %. */
  width: number;
  height: number;
  /** Accessible name (aria-label). */
  title: string;
  shapes: Shape[];
}

/** Rounded to 2 decimals, as a number (SVG coordinates). */
export function r2(n: number): number {
  return Math.round(n * 100) / 100;
}

export function rect(x: number, y: number, w: number, h: number, fill: string, extra: Attr[] = []): Shape {
  return {
    tag: 'rect',
    a: [
      ['x', r2(x)],
      ['y', r2(y)],
      ['width', r2(Math.max(0, w))],
      ['height', r2(Math.max(0, h))],
      ['fill', fill],
      ...extra,
    ],
  };
}

export function line(
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  stroke: string,
  extra: Attr[] = [],
): Shape {
  return {
    tag: 'line',
    a: [['x1', r2(x1)], ['y1', r2(y1)], ['x2', r2(x2)], ['y2', r2(y2)], ['stroke', stroke], ...extra],
  };
}

export interface TextStyle {
  size: number;
  fill?: string;
  anchor?: 'start' | 'middle' | 'end';
  bold?: boolean;
}

export function text(x: number, y: number, content: string, style: TextStyle): Shape {
  const a: Attr[] = [
    ['x', r2(x)],
    ['y', r2(y)],
    ['font-size', style.size],
  ];
  if (style.anchor && style.anchor !== 'start') a.push(['text-anchor', style.anchor]);
  if (style.bold) a.push(['font-weight', 700]);
  if (style.fill) a.push(['fill', style.fill]);
  return { tag: 'text', a, text: content };
}

export function path(d: string, fill: string, extra: Attr[] = []): Shape {
  return { tag: 'path', a: [['d', d], ['fill', fill], ...extra] };
}
