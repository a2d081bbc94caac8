// 100 % stacked horizontal bars, one per row, each segment labelled inside when it fits ("Circulante 52 %"), or
// (legend: true) with the percentage inside and a legend line under each bar. The balance sheet uses it for its
// structure: what the assets are made of next to how they are financed. Negative segments (a group whose accounts
// net below zero) are left out of the picture.
import { INK, RAMP } from './palette';
import { fitText, textWidth } from './text';
import { r2, rect, text, type Chart, type Shape } from './scene';

export interface StackedRow {
  label: string;
  segments: { label: string; value: number | string; display: string; colour?: string }[];
}

export interface StackedOptions {
  width: number;
  title: string;
  fontSize?: number;
  bar?: number;
  /** Row labels above the bars and a legend line (swatch, label, share) under each: for narrow charts. */
  legend?: boolean;
}

/** Relative luminance (0 black – 1 white) of a #rrggbb colour: white text on dark segments, ink on light ones. */
function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  });
  return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
}

export function stackedBars(rows: StackedRow[], o: StackedOptions): Chart {
  const fs = o.fontSize ?? 9.5;
  const barH = o.bar ?? 24;
  // With a legend, each bar is followed by its legend line; segments then carry only their percentage.
  const legendH = o.legend ? fs * 1.55 : 0;
  const head = o.legend ? fs * 1.4 : 0; // the row label above the bar
  const pitch = barH + 8 + legendH + head;
  const labelW = o.legend ? 0 : Math.max(...rows.map((r) => textWidth(r.label, fs, true)), 0) + 12;
  const x0 = labelW;
  const w = o.width - x0;
  const shapes: Shape[] = [];
  rows.forEach((row, i) => {
    const top = i * pitch + head;
    if (o.legend) shapes.push(text(0, top - fs * 0.5, row.label, { size: fs, fill: INK, bold: true }));
    else shapes.push(text(0, top + barH / 2 + fs * 0.35, row.label, { size: fs, fill: INK, bold: true }));
    const values = row.segments.map((s) => Math.max(0, Number(s.value)));
    const total = values.reduce((a, b) => a + b, 0) || 1;
    let x = x0;
    let lx = 0;
    row.segments.forEach((s, j) => {
      const part = (values[j]! / total) * w;
      const colour = s.colour ?? RAMP[j % RAMP.length]!;
      if (o.legend) {
        const ly = top + barH + legendH * 0.62;
        shapes.push({
          tag: 'circle',
          a: [
            ['cx', r2(lx + 4)],
            ['cy', r2(ly - fs * 0.33)],
            ['r', 4],
            ['fill', colour],
          ],
        });
        const item = `${s.label} ${s.display}`;
        shapes.push(text(lx + 11, ly, item, { size: fs - 0.5, fill: INK }));
        lx += 11 + textWidth(item, fs - 0.5) + 14;
      }
      if (part <= 0) return;
      shapes.push(
        rect(x, top, part, barH, colour, [
          ['stroke', '#fff'],
          ['stroke-width', 1],
        ]),
      );
      const label = o.legend ? s.display : `${s.label} ${s.display}`;
      const dark = luminance(colour) < 0.22; // where white and ink text have equal contrast
      const fitted =
        textWidth(label, fs) <= part - 10 ? label : textWidth(s.display, fs) <= part - 8 ? s.display : '';
      if (fitted)
        shapes.push(
          text(x + part / 2, top + barH / 2 + fs * 0.35, fitText(fitted, part - 8, fs), {
            size: fs,
            fill: dark ? '#fff' : INK,
            anchor: 'middle',
          }),
        );
      x += part;
    });
  });
  return { width: o.width, height: r2(rows.length * pitch - 8), title: o.title, shapes };
}
