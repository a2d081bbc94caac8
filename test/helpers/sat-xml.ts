// SAT's own artifacts as independent checkers (test/fixtures/sat, from phpcfdi/resources-sat-xml; see its README):
// xmllint (Debian libxml2-utils) validates against cfdv40.xsd with the complements a stamped CFDI carries, and
// xsltproc (Debian xsltproc) applies SAT's cadenaoriginal_TFD_1_1.xslt. The test setup installs both; without them
// the tests fail with that instruction.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SAT_DIR = join(__dirname, '..', 'fixtures', 'sat');
/** cfdv40.xsd + TimbreFiscalDigitalv11.xsd + nomina12.xsd + Pagos20.xsd (cfdv40's Complemento is a strict xs:any). */
export const CFDI_XSD = join(SAT_DIR, 'cfdi-completo.xsd');
export const TFD_XSLT = join(SAT_DIR, 'cfd', 'TimbreFiscalDigital', 'cadenaoriginal_TFD_1_1.xslt');

function need(tool: string, pkg: string): void {
  if (spawnSync(tool, ['--version']).error)
    throw new Error(`${tool} is not installed: run \`apt-get install -y ${pkg}\``);
}

let dir: string | undefined;
function tmp(name: string, text: string | Buffer): string {
  dir ??= mkdtempSync(join(tmpdir(), 'sat-xml-'));
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
}

/** `xmllint --noout --nonet --schema` of the XML: ok, and the validator's messages when not. */
export function xmllintSchema(xml: string | Buffer, xsd = CFDI_XSD): { ok: boolean; errors: string } {
  need('xmllint', 'libxml2-utils');
  const file = tmp('cfdi.xml', xml);
  const r = spawnSync('xmllint', ['--noout', '--nonet', '--schema', xsd, file], { encoding: 'utf8' });
  const errors = r.stderr
    .split('\n')
    .filter((l) => l && l !== `${file} validates`)
    .map((l) => l.replace(`${file}:`, ''))
    .join('\n');
  return { ok: r.status === 0, errors };
}

/** The TimbreFiscalDigital element alone (as SAT's XSLT takes it), with SAT's XSLT applied by xsltproc. */
export function cadenaTfdXslt(tfdXml: string): string {
  need('xsltproc', 'xsltproc');
  const file = tmp('tfd.xml', tfdXml);
  const r = spawnSync('xsltproc', ['--nonet', TFD_XSLT, file], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`xsltproc failed: ${r.stderr}`);
  return r.stdout;
}
