// Donut of shares with its legend at the right (colour, label, share right-aligned). Slices start at 12 o'clock
// and run clockwise in the given order; a lone 100 % slice is drawn as a ring. Only non-negative values make sense
// in a share chart: callers leave the donut out when a value is negative.
import { INK, RAMP, REST, SOFT } from './palette';
import { fitText, textWidth } from './text';
import { path, r2, text, type Chart, type Shape } from './scene';

export interface DonutSlice {
  label: string;
  /** Fraction of the whole (0–1), e.g. an exact share rounded to 4 decimals. */
  share: number | string;
  /** Printed in the legend, e.g. "32.8 %". */
  display: string;
  /** Drawn in grey ("Otros"). */
  muted?: boolean;
}

export interface DonutOptions {
  width: number;
  title: string;
  /** Big figure and caption in the hole, e.g. "6" / "productos". */
  center?: { value: string; caption: string };
  radius?: number;
  fontSize?: number;
}

function point(cx: number, cy: number, r: number, turn: number): [number, number] {
  const angle = turn * 2 * Math.PI - Math.PI / 2;
  return [r2(cx + r * Math.cos(angle)), r2(cy + r * Math.sin(angle))];
}

/** Path of a ring segment from `t0` to `t1` (fractions of a turn), outer radius R, inner r. */
export function ringSegment(cx: number, cy: number, R: number, r: number, t0: number, t1: number): string {
  if (t1 - t0 >= 0.99999) {
    // A full ring: two half arcs on each radius (one arc cannot start and end at the same point).
    const [ox, oy] = point(cx, cy, R, 0);
    const [ox2, oy2] = point(cx, cy, R, 0.5);
    const [ix, iy] = point(cx, cy, r, 0);
    const [ix2, iy2] = point(cx, cy, r, 0.5);
    return (
      `M${ox} ${oy}A${R} ${R} 0 1 1 ${ox2} ${oy2}A${R} ${R} 0 1 1 ${ox} ${oy}Z` +
      `M${ix} ${iy}A${r} ${r} 0 1 0 ${ix2} ${iy2}A${r} ${r} 0 1 0 ${ix} ${iy}Z`
    );
  }
  const large = t1 - t0 > 0.5 ? 1 : 0;
  const [ax, ay] = point(cx, cy, R, t0);
  const [bx, by] = point(cx, cy, R, t1);
  const [cx2, cy2] = point(cx, cy, r, t1);
  const [dx, dy] = point(cx, cy, r, t0);
  return `M${ax} ${ay}A${R} ${R} 0 ${large} 1 ${bx} ${by}L${cx2} ${cy2}A${r} ${r} 0 ${large} 0 ${dx} ${dy}Z`;
}

export function donutChart(slices: DonutSlice[], o: DonutOptions): Chart {
  const R = o.radius ?? 52;
  const r = R * 0.6;
  const fs = o.fontSize ?? 10;
  const pitch = fs * 1.75;
  const height = Math.max(2 * R + 4, slices.length * pitch);
  const cx = R + 2;
  const cy = height / 2;
  const shapes: Shape[] = [];
  const total = slices.reduce((s, x) => s + Math.max(0, Number(x.share)), 0) || 1;
  let t = 0;
  let colour = 0;
  const colours = slices.map((s) => (s.muted ? REST : RAMP[colour++ % RAMP.length]!));
  slices.forEach((s, i) => {
    const part = Math.max(0, Number(s.share)) / total;
    if (part <= 0) return;
    shapes.push(
      path(ringSegment(cx, cy, R, r, t, t + part), colours[i]!, [
        ['stroke', '#fff'],
        ['stroke-width', 1],
      ]),
    );
    t += part;
  });
  if (o.center) {
    shapes.push(
      text(cx, cy + 2, o.center.value, { size: fs * 1.9, fill: INK, anchor: 'middle', bold: true }),
    );
    shapes.push(text(cx, cy + fs * 1.5, o.center.caption, { size: fs - 1, fill: SOFT, anchor: 'middle' }));
  }
  // Legend: one line per slice, vertically centred on the donut.
  const lx = 2 * R + 18;
  const shareW = Math.max(...slices.map((s) => textWidth(s.display, fs)), 0);
  const ly = cy - ((slices.length - 1) * pitch) / 2;
  slices.forEach((s, i) => {
    const y = ly + i * pitch;
    shapes.push({
      tag: 'circle',
      a: [
        ['cx', r2(lx + 4.5)],
        ['cy', r2(y)],
        ['r', 4.5],
        ['fill', colours[i]!],
      ],
    });
    const labelMax = o.width - lx - 16 - shareW - 10;
    shapes.push(text(lx + 15, y + fs * 0.35, fitText(s.label, labelMax, fs), { size: fs, fill: INK }));
    shapes.push(text(o.width, y + fs * 0.35, s.display, { size: fs, fill: SOFT, anchor: 'end' }));
  });
  return { width: o.width, height: r2(height), title: o.title, shapes };
}
