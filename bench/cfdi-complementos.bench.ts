// A CFDI with a Carta Porte 3.1 of 50 mercancías against the same CFDI without the complement (the baseline),
// measured in the same run with one warm Chromium renderer: the whole PDF from cfdi_xml (validation, view, HTML,
// Chromium). Two cases from test/fixtures/cfdi/complementos: a traslado (carta-porte-31-traslado.xml) whose 50 goods
// are also its conceptos — the usual shape of a Carta Porte CFDI — and a freight invoice of one concepto
// (carta-porte-31-ingreso.xml), the worst case: there the complement is most of the document (1 page without, 2
// with), and Chromium's time follows the text it lays out, paints and tags (blank pages cost next to nothing). Mercancías repeated to 50 with numbered descriptions; the baseline
// drops the cartaporte31:CartaPorte element. Goal (issue #25): ≤ 1.3×. Usage: npm run bench -- cfdi-complementos
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRenderRequest, renderDocument } from '../lambdas/documents/use-cases/render-request';
import { median, ratioLine, timeWithCpu, warmRenderer } from './measure';

const REPS = 11;
// Interleaved rounds (the two sides alternate which goes first): the median of 9 steadies a ratio on a machine shared
// with other work, and the spread of the rounds' own ratios says how much the load moved it.
const ROUNDS = 9;

const fixture = (name: string) =>
  readFileSync(join(__dirname, '..', 'test', 'fixtures', 'cfdi', 'complementos', name), 'utf8');

/** `xml` with its mercancías repeated to `n` (descriptions numbered), and the same XML without the complement. */
function conYSin(xml: string, n: number): { con: string; sin: string } {
  const mercancias = [...xml.matchAll(/<cartaporte31:Mercancia [\s\S]*?<\/cartaporte31:Mercancia>/g)].map(
    (m) => m[0],
  );
  const many = Array.from({ length: n }, (_, i) =>
    mercancias[i % mercancias.length]!.replace(/ lote \d+"/, ` lote ${i + 1}"`),
  ).join('\n      ');
  const con = xml
    .replace(/<cartaporte31:Mercancia [\s\S]*<\/cartaporte31:Mercancia>/, many)
    .replace(/NumTotalMercancias="\d+"/, `NumTotalMercancias="${n}"`);
  const sin = xml.replace(/<cartaporte31:CartaPorte [\s\S]*<\/cartaporte31:CartaPorte>/, '');
  return { con, sin };
}

/** A freight invoice (one concepto: the service) with `n` mercancías in its Carta Porte, and without it. */
export function cartaPorteXml(n: number): { con: string; sin: string } {
  return conYSin(fixture('carta-porte-31-ingreso.xml'), n);
}

/** A CFDI de traslado listing its `n` goods as conceptos, with the Carta Porte of those `n` mercancías, and without. */
export function trasladoXml(n: number): { con: string; sin: string } {
  const xml = fixture('carta-porte-31-traslado.xml');
  const conceptos = [...xml.matchAll(/<cfdi:Concepto [^>]*>(?:<\/cfdi:Concepto>)?/g)].map((m) => m[0]);
  const many = Array.from({ length: n }, (_, i) =>
    conceptos[i % conceptos.length]!.replace(/Descripcion="([^"]*)"/, `Descripcion="$1 lote ${i + 1}"`),
  ).join('\n    ');
  return conYSin(xml.replace(/<cfdi:Concepto [\s\S]*<\/cfdi:Concepto>/, many), n);
}

async function main(): Promise<void> {
  const body = (cfdi_xml: string) => ({ template: 'factura', format: 'pdf', cfdi_xml });
  const { deps, close } = warmRenderer();
  const cases: [string, { con: string; sin: string }][] = [
    ['traslado with its 50 goods as conceptos + Carta Porte 3.1 of the 50 mercancías', trasladoXml(50)],
    ['freight invoice of 1 concepto + Carta Porte 3.1 of 50 mercancías', cartaPorteXml(50)],
  ];
  try {
    for (const [name, { con, sin }] of cases) {
      // Interleaved rounds, so a load spike on this shared machine hits both sides alike.
      const base: { ms: number; cpuMs: number }[] = [];
      const subject: { ms: number; cpuMs: number }[] = [];
      const run = (xml: string) =>
        timeWithCpu(REPS, () => renderDocument(parseRenderRequest(body(xml)), deps));
      for (let round = 0; round < ROUNDS; round++) {
        if (round % 2) {
          subject.push(await run(con));
          base.push(await run(sin));
        } else {
          base.push(await run(sin));
          subject.push(await run(con));
        }
      }
      // Baseline: the same CFDI without the complement. Wall time, and CPU time of this process and its Chromium
      // (the steadier figure on a machine shared with other work).
      const of = (xs: typeof base, k: 'ms' | 'cpuMs') => median(xs.map((x) => x[k]));
      ratioLine(`cfdi-complementos ${name} PDF`, of(subject, 'ms'), of(base, 'ms'));
      ratioLine(`cfdi-complementos ${name} PDF (CPU ms)`, of(subject, 'cpuMs'), of(base, 'cpuMs'));
      const spread = (k: 'ms' | 'cpuMs') => {
        const r = subject.map((x, i) => x[k] / base[i]![k]).sort((a, b) => a - b);
        return `${r[0]!.toFixed(2)}–${r[r.length - 1]!.toFixed(2)}× (median ${median(r).toFixed(2)}×)`;
      };
      console.log(`# ${name}: each round's own ratio, wall ${spread('ms')}, CPU ${spread('cpuMs')}`);
    }
  } finally {
    await close();
  }
}

if (require.main === module)
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
