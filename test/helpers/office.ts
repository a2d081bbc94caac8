// LibreOffice headless (Debian `libreoffice-calc-nogui`) as an independent reader of our spreadsheets: converting a
// file to PDF succeeds only if LibreOffice can open it, and the PDF's text shows what it drew (cells and charts).
// `npm test` installs it (scripts/ensure-install.cjs --system); without it these tests fail with the instruction.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

export function requireSoffice(): void {
  if (spawnSync('soffice', ['--version'], { timeout: 60_000 }).status !== 0)
    throw new Error(
      'LibreOffice is not installed: run `apt-get install -y --no-install-recommends libreoffice-calc-nogui` ' +
        '(npm test does this through scripts/ensure-install.cjs --system)',
    );
}

/**
 * Converts `files` to `format` (e.g. "pdf", "ods") in `outDir` with one soffice run and a private profile (so
 * parallel runs do not share a lock), returning the output paths.
 */
export function sofficeConvert(files: string[], format: string, outDir: string): string[] {
  const profile = mkdtempSync(join(tmpdir(), 'lo-profile-'));
  try {
    execFileSync(
      'soffice',
      [
        `-env:UserInstallation=file://${profile}`,
        '--headless',
        '--norestore',
        '--convert-to',
        format,
        '--outdir',
        outDir,
        ...files,
      ],
      { timeout: 150_000, stdio: 'pipe' },
    );
  } finally {
    rmSync(profile, { recursive: true, force: true });
  }
  return files.map((f) => join(outDir, `${basename(f).replace(/\.[^.]+$/, '')}.${format}`));
}

export type Cell = string | number | null;

/** Python (stdlib ElementTree) reading a flat ODS: every sheet's rows of cells, numbers as numbers, empties trimmed. */
const PY_FODS_CELLS = `
import sys, json, xml.etree.ElementTree as ET
T = '{urn:oasis:names:tc:opendocument:xmlns:table:1.0}'
O = '{urn:oasis:names:tc:opendocument:xmlns:office:1.0}'
P = '{urn:oasis:names:tc:opendocument:xmlns:text:1.0}p'
out = {}
for t in ET.parse(sys.argv[1]).getroot().iter(T + 'table'):
    rows = []
    for r in t.iter(T + 'table-row'):
        cells = []
        for c in r:
            if c.tag not in (T + 'table-cell', T + 'covered-table-cell'):
                continue
            kind = c.get(O + 'value-type')
            if kind in ('float', 'percentage', 'currency'):
                v = float(c.get(O + 'value'))
            elif kind is None:
                v = None
            else:
                v = '\\n'.join(''.join(p.itertext()) for p in c.iter(P))
            cells += [v] * min(int(c.get(T + 'number-columns-repeated', '1')), 64)
        while cells and cells[-1] is None:
            cells.pop()
        rows += [cells] * min(int(r.get(T + 'number-rows-repeated', '1')), 64)
    while rows and not rows[-1]:
        rows.pop()
    out[t.get(T + 'name')] = rows
print(json.dumps(out, ensure_ascii=False))
`;

/**
 * The cells LibreOffice Calc reads from each spreadsheet (XLSX, ODS, …), by sheet name: Calc converts the files to flat
 * ODS in one run and Python's XML parser reads the values and their types (LibreOffice's reader, not ours). A file
 * LibreOffice cannot open yields no output and this throws.
 */
export function sofficeCells(files: string[], outDir: string): Record<string, Cell[][]>[] {
  return sofficeConvert(files, 'fods', outDir).map((fods, i) => {
    const read = spawnSync('python3', ['-c', PY_FODS_CELLS, fods], { encoding: 'utf8' });
    if (read.status !== 0) throw new Error(`LibreOffice did not read ${files[i]}: ${read.stderr.trim()}`);
    return JSON.parse(read.stdout) as Record<string, Cell[][]>;
  });
}
