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
