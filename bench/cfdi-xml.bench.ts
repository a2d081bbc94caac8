// factura from a stamped CFDI 4.0 XML (cfdi_xml) against the same kind of invoice from JSON data (the baseline),
// measured in the same run with one warm Chromium renderer: request validation + view (no browser), then the whole
// PDF. The XML is test/fixtures/cfdi/ingreso-basico.xml (3 conceptos, timbre); the JSON is the template's stamped
// sample (4 conceptos, timbre). Usage: npm run bench -- cfdi-xml
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  parseRenderRequest,
  renderDocument,
  type RenderDeps,
} from '../lambdas/documents/use-cases/render-request';
import { TEMPLATES } from '../lambdas/documents/domain/template-registry';
import { Renderer } from '../lambdas/documents/render/chromium';

const REPS = 15;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(n: number, fn: () => unknown): Promise<number> {
  await fn();
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return median(out);
}

const line = (name: string, ms: number, base: number) =>
  console.log(
    `${name}: ${ms.toFixed(2)} ms vs baseline ${base.toFixed(2)} ms → ratio ${(ms / base).toFixed(2)}×`,
  );

async function main(): Promise<void> {
  const xml = readFileSync(join(__dirname, '..', 'test', 'fixtures', 'cfdi', 'ingreso-basico.xml'), 'utf8');
  const data = TEMPLATES.find((t) => t.meta.slug === 'factura')!.sample;
  const fromXml = { template: 'factura', format: 'pdf', cfdi_xml: xml };
  const fromJson = { template: 'factura', format: 'pdf', data };

  const vJson = await time(200, () => parseRenderRequest(fromJson));
  const vXml = await time(200, () => parseRenderRequest(fromXml));
  line('cfdi-xml validate+read (XML) vs JSON schema', vXml, vJson);

  const renderer = new Renderer();
  const deps: RenderDeps = {
    renderPdf: (h, o) => renderer.renderPdf(h, o),
    renderPng: (h, o) => renderer.renderPng(h, o),
  };
  try {
    const pJson = await time(REPS, () => renderDocument(parseRenderRequest(fromJson), deps));
    const pXml = await time(REPS, () => renderDocument(parseRenderRequest(fromXml), deps));
    line('cfdi-xml PDF per document (XML) vs JSON', pXml, pJson);
  } finally {
    await renderer.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
