// Pareto chart: one thin column per item (its share, items ranked by value) and the cumulative share as a line,
// with the 80 % reference and the point where it is reached marked. For long reports (tens to thousands of rows)
// it shows in one picture how concentrated the revenue is.
import { ACCENT, FAINT, INK, RAMP, RULE, SOFT, WARM } from './palette';
import { line, path, r2, rect, text, type Chart, type Shape } from './scene';

export interface ParetoOptions {
  width: number;
  height?: number;
  title: string;
  /** Caption under the x axis, e.g. "Productos ordenados por ingresos (300)". */
  xCaption: string;
  /** Item number (1-based) at which the cumulative share reaches 80 %, to mark; omitted when none. */
  cut?: number;
  /** Text of the marker, e.g. "80 % con 41 productos". */
  cutLabel?: string;
  fontSize?: number;
}

/**
 * `shares`: each item's share of the total (0–1), in rank order; `cumulative`: the running total of the exact
 * shares (so the last is 1 up to rounding of the inputs).
 */
export function paretoChart(shares: number[], cumulative: number[], o: ParetoOptions): Chart {
  const fs = o.fontSize ?? 9.5;
  const H = o.height ?? 150;
  const left = 34;
  const right = 8;
  const top = 8;
  const bottom = 22;
  const w = o.width - left - right;
  const h = H - top - bottom;
  const n = shares.length;
  const y = (f: number) => top + h * (1 - Math.min(1, Math.max(0, f)));
  const slot = w / Math.max(1, n);
  const shapes: Shape[] = [];
  for (const t of [0, 0.25, 0.5, 0.75, 1]) {
    shapes.push(line(left, y(t), left + w, y(t), RULE, [['stroke-width', 0.75]]));
    shapes.push(
      text(left - 5, y(t) + fs * 0.35, `${t * 100} %`, { size: fs - 1, fill: SOFT, anchor: 'end' }),
    );
  }
  // Column heights are shares on the same 0–100 % axis; small shares would vanish, so columns get a 0.5 floor.
  const gap = slot > 4 ? Math.min(2, slot * 0.2) : 0;
  shares.forEach((s, i) => {
    const tall = Math.max(0.5, y(0) - y(Math.max(0, s)));
    shapes.push(rect(left + i * slot + gap / 2, y(0) - tall, slot - gap, tall, RAMP[3]!));
  });
  // 80 % reference.
  shapes.push(
    line(left, y(0.8), left + w, y(0.8), WARM, [
      ['stroke-width', 1],
      ['stroke-dasharray', '4 3'],
    ]),
  );
  // Cumulative line through the right edge of each item's slot, starting at (0, 0).
  const pts = [
    `M${left} ${r2(y(0))}`,
    ...cumulative.map((c, i) => `L${r2(left + (i + 1) * slot)} ${r2(y(c))}`),
  ];
  shapes.push(
    path(pts.join(''), 'none', [
      ['stroke', ACCENT],
      ['stroke-width', 1.75],
      ['stroke-linejoin', 'round'],
    ]),
  );
  if (o.cut !== undefined && o.cut >= 1 && o.cut <= n) {
    const cx = left + o.cut * slot;
    shapes.push(
      line(cx, y(0), cx, y(0.8), WARM, [
        ['stroke-width', 1],
        ['stroke-dasharray', '2 2'],
      ]),
    );
    shapes.push({
      tag: 'circle',
      a: [
        ['cx', r2(cx)],
        ['cy', r2(y(cumulative[o.cut - 1]!))],
        ['r', 3],
        ['fill', WARM],
      ],
    });
    if (o.cutLabel) {
      // Below the 80 % line: past the cut the curve runs above it, before the cut the columns stay low.
      const onRight = cx < left + w * 0.6;
      shapes.push(
        text(cx + (onRight ? 6 : -6), y(0.8) + fs + 4, o.cutLabel, {
          size: fs,
          fill: INK,
          anchor: onRight ? 'start' : 'end',
          bold: true,
        }),
      );
    }
  }
  shapes.push(line(left, y(0), left + w, y(0), FAINT, [['stroke-width', 1]]));
  shapes.push(text(left + w / 2, H - 5, o.xCaption, { size: fs - 0.5, fill: SOFT, anchor: 'middle' }));
  return { width: o.width, height: H, title: o.title, shapes };
}
