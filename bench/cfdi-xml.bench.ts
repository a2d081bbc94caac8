// factura from a stamped CFDI 4.0 XML (cfdi_xml) against the same kind of invoice from JSON data (the baseline),
// measured in the same run with one warm Chromium renderer: request validation + view (no browser), then the whole
// PDF. The XML is test/fixtures/cfdi/ingreso-basico.xml (3 conceptos, timbre); the JSON is the template's stamped
// sample (4 conceptos, timbre). Usage: npm run bench -- cfdi-xml
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseRenderRequest, renderDocument } from '../lambdas/documents/use-cases/render-request';
import { TEMPLATES } from '../lambdas/documents/domain/template-registry';
import { ratioLine as line, time, warmRenderer } from './measure';

const REPS = 15;

async function main(): Promise<void> {
  const xml = readFileSync(join(__dirname, '..', 'test', 'fixtures', 'cfdi', 'ingreso-basico.xml'), 'utf8');
  const data = TEMPLATES.find((t) => t.meta.slug === 'factura')!.sample;
  const fromXml = { template: 'factura', format: 'pdf', cfdi_xml: xml };
  const fromJson = { template: 'factura', format: 'pdf', data };

  const vJson = await time(200, () => parseRenderRequest(fromJson));
  const vXml = await time(200, () => parseRenderRequest(fromXml));
  line('cfdi-xml validate+read (XML) vs JSON schema', vXml, vJson);

  const { deps, close } = warmRenderer();
  try {
    const pJson = await time(REPS, () => renderDocument(parseRenderRequest(fromJson), deps));
    const pXml = await time(REPS, () => renderDocument(parseRenderRequest(fromXml), deps));
    line('cfdi-xml PDF per document (XML) vs JSON', pXml, pJson);
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
