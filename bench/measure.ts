// What the document benches share: the median of repeated timings, a ratio line against a baseline measured in the
// same run, and the render dependencies of one warm Chromium renderer (as a render function holds them).
import { readdirSync, readFileSync } from 'node:fs';
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

/** Milliseconds of CPU per clock tick in /proc/<pid>/stat (USER_HZ is 100 on Linux). */
const TICK_MS = 10;

/**
 * CPU milliseconds used so far by this process and every process under it (Chromium's browser, renderer and GPU
 * processes), the reaped ones included (cutime/cstime). Unlike wall time it barely moves with the load other
 * processes put on a shared machine. Linux only.
 */
export function treeCpuMs(): number {
  const procs = new Map<number, { ppid: number; own: number; reaped: number }>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${d}/stat`, 'utf8');
    } catch {
      continue; // gone meanwhile
    }
    // Fields after "pid (comm) ": state ppid … utime(14) stime(15) cutime(16) cstime(17), counted from 1.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    procs.set(Number(d), {
      ppid: Number(f[1]),
      own: (Number(f[11]) + Number(f[12])) * TICK_MS,
      reaped: (Number(f[13]) + Number(f[14])) * TICK_MS,
    });
  }
  let total = 0;
  const stack = [process.pid];
  while (stack.length) {
    const pid = stack.pop()!;
    const p = procs.get(pid);
    if (!p) continue;
    total += p.own + p.reaped;
    for (const [child, c] of procs) if (c.ppid === pid) stack.push(child);
  }
  return total;
}

/** `time`, plus the CPU milliseconds per run of the whole process tree (treeCpuMs) over the same runs. */
export async function timeWithCpu(n: number, fn: () => unknown): Promise<{ ms: number; cpuMs: number }> {
  await fn();
  const out: number[] = [];
  const cpu0 = treeCpuMs();
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return { ms: median(out), cpuMs: (treeCpuMs() - cpu0) / n };
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
