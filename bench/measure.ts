// What the document benches share: the median of repeated timings, a ratio line against a baseline measured in the
// same run, and the render dependencies of one warm Chromium renderer (as a render function holds them).
import type { RenderDeps } from '../lambdas/documents/ports';
import { Renderer } from '../lambdas/documents/render/chromium';

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median milliseconds of `n` runs of `fn`, after one warm-up run (compiled templates, pooled page, JIT). */
export async function time(n: number, fn: () => unknown): Promise<number> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

/** Prints `name: <ms> ms vs baseline <base> ms → ratio <r>×`. */
export function ratioLine(name: string, ms: number, base: number, digits = 2): void {
  console.log(
    `${name}: ${ms.toFixed(digits)} ms vs baseline ${base.toFixed(digits)} ms → ratio ${(ms / base).toFixed(2)}×`,
  );
}

/** One warm renderer and the RenderDeps over it; `close()` when done. */
export function warmRenderer(): { renderer: Renderer; deps: RenderDeps; close(): Promise<void> } {
  const renderer = new Renderer();
  return {
    renderer,
    deps: {
      renderPdf: (h, o) => renderer.renderPdf(h, o),
      renderPng: (h, o) => renderer.renderPng(h, o),
    },
    close: () => renderer.close(),
  };
}
