// pdftotext (Debian poppler-utils) as an independent reference for PDF text extraction. CI installs it
// (`apt-get install -y poppler-utils`); without it the comparison tests fail with that instruction.
import { execFileSync, spawnSync } from 'node:child_process';

export function pdftotextAvailable(): boolean {
  return spawnSync('pdftotext', ['-v']).status === 0;
}

export function requirePdftotext(): void {
  if (!pdftotextAvailable())
    throw new Error(
      'pdftotext is not installed: run `apt-get install -y poppler-utils` (CI does this in .ci/run)',
    );
}

/** Text of `file` as pdftotext reads it (UTF-8, its default reading order), optionally only a band of each page. */
export function pdftotext(file: string, crop?: { y0: number; y1: number; width: number }): string {
  const args = ['-enc', 'UTF-8', '-q'];
  if (crop)
    args.push('-x', '0', '-y', String(crop.y0), '-W', String(crop.width), '-H', String(crop.y1 - crop.y0));
  return execFileSync('pdftotext', [...args, file, '-'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
}
