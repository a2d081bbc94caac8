// Reading rules over 100,000 characters (the longest text the API accepts) against the cheapest possible pass
// over the same text, measured in the same run: one `text.replace(/\s+/g, ' ')`. The ratio says how many such
// passes normalising costs; it stays flat as texts grow (every rule is a linear regex pass). Also prints, as
// comments, the times for pathological inputs (long digit runs, dotted runs) that would expose backtracking.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeForSpeech } from '../lambdas/narration/core/normalize';

const REPS = 7;
const fixture = readFileSync(join(__dirname, '../test/fixtures/texto-2000.txt'), 'utf8');
const rich =
  'El 03/04/2024 a las 10:30 h el Sr. Pérez pagó $1,234.56 MXN (15 % menos) al tel. 55 1234 5678; visita ' +
  'www.ejemplo.com.mx/precios o escribe a ana.lopez@correo.mx. Felipe II vivió en el siglo XVI. RFC ' +
  'GODE561231GR8. Del 1.er al 3.er piso hay 1,234 escalones, 21 páginas y 5 km; etc. La Dra. Ruiz llegó ' +
  'el 1 de mayo de 2023 a las 9 a. m. con 1.234,56 € y un 3,5 % de interés.\n\n';

function build(parts: string[], size: number): string {
  let t = '';
  for (let i = 0; t.length < size; i++) t += parts[i % parts.length]!;
  return t.slice(0, size);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

function time(fn: () => unknown): number {
  const samples: number[] = [];
  fn(); // warm-up (regex compilation, JIT)
  for (let i = 0; i < REPS; i++) {
    const t = performance.now();
    fn();
    samples.push(performance.now() - t);
  }
  return median(samples);
}

const texts: [string, string][] = [
  ['mixed prose', build([fixture.slice(0, 1200), rich], 100_000)],
  ['prose only', build([fixture, '\n\n'], 100_000)],
];
for (const [name, text] of texts) {
  for (const lang of ['es-MX', 'es-ES'] as const) {
    const n = time(() => normalizeForSpeech(text, lang));
    const b = time(() => text.replace(/\s+/g, ' '));
    console.log(
      `normalize (${name}, ${lang}, ${text.length} chars): ${n.toFixed(1)} ms vs baseline ${b.toFixed(2)} ms → ratio ${(n / b).toFixed(1)}×`,
    );
  }
}

const pathological: [string, string][] = [
  ['digit run', '7'.repeat(100_000)],
  ['1.1.1…', '1.'.repeat(50_000)],
  ['12 12 12…', '12 '.repeat(33_334)],
  ['a.a.a…@', 'a.'.repeat(50_000)],
  ['I I I…', 'I '.repeat(50_000)],
  ['Sr Sr Sr…', 'Sr '.repeat(33_334)],
];
for (const [name, text] of pathological) {
  const n = time(() => normalizeForSpeech(text, 'es-MX'));
  console.log(`# pathological ${name} (${text.length} chars): ${n.toFixed(1)} ms`);
}
