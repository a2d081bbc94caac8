// Horizontal bar chart, ranked top to bottom: [label | bar | value], values right-aligned in their own column so
// figures line up like a table (tabular numerals). Handles negative values (bars grow left of a zero line).
import { ACCENT, INK, REST, RULE, SOFT } from './palette';
import { fitText, textWidth } from './text';
import { line, r2, rect, text, type Chart, type Shape } from './scene';

export interface BarItem {
  label: string;
  /** The amount (exact decimal text or number); only its ratio to the largest bar is drawn. */
  value: number | string;
  /** What is printed at the right, already formatted ("$239,850.00"). */
  display: string;
  /** A small note after the value, e.g. a share "32.8 %". */
  note?: string;
  /** Drawn in grey (a remainder such as "Otros (12 productos)"). */
  muted?: boolean;
}

export interface BarChartOptions {
  width: number;
  title: string;
  /** Row pitch and bar thickness (defaults 22 and 13). */
  pitch?: number;
  bar?: number;
  fontSize?: number;
  color?: string;
}

export function barChart(items: BarItem[], o: BarChartOptions): Chart {
  const pitch = o.pitch ?? 22;
  const barH = o.bar ?? 13;
  const fs = o.fontSize ?? 10.5;
  const color = o.color ?? ACCENT;
  const values = items.map((i) => Number(i.value));
  const maxLabel = Math.max(0, ...items.map((i) => textWidth(i.label, fs)));
  const labelW = Math.min(maxLabel + 10, o.width * 0.36);
  const noteW = Math.max(0, ...items.map((i) => (i.note ? textWidth(i.note, fs - 1) + 8 : 0)));
  const valueW = Math.max(...items.map((i) => textWidth(i.display, fs)), 0) + 10;
  const x0 = labelW;
  const x1 = o.width - valueW - noteW;
  const hi = Math.max(0, ...values);
  const lo = Math.min(0, ...values);
  const span = hi - lo || 1;
  const scale = (v: number) => x0 + ((v - lo) / span) * (x1 - x0);
  const zero = scale(0);
  const shapes: Shape[] = [];
  items.forEach((item, i) => {
    const v = values[i]!;
    const top = i * pitch;
    const mid = top + pitch / 2;
    shapes.push(text(0, mid + fs * 0.35, fitText(item.label, labelW - 10, fs), { size: fs, fill: INK }));
    const a = scale(Math.min(0, v));
    const b = scale(Math.max(0, v));
    // Round bar ends on the outer side only would need a path; a 1.5-unit corner on a thin bar reads as flat.
    shapes.push(
      rect(a, mid - barH / 2, Math.max(b - a, v === 0 ? 0 : 0.75), barH, item.muted ? REST : color, [
        ['rx', 1.5],
      ]),
    );
    shapes.push(text(o.width - noteW, mid + fs * 0.35, item.display, { size: fs, fill: INK, anchor: 'end' }));
    if (item.note)
      shapes.push(text(o.width, mid + fs * 0.35, item.note, { size: fs - 1, fill: SOFT, anchor: 'end' }));
  });
  const height = Math.max(pitch, items.length * pitch);
  shapes.unshift(line(zero, 0, zero, height, RULE, [['stroke-width', 1]]));
  return { width: o.width, height: r2(height), title: o.title, shapes };
}
