// PDF → narration text: our extraction (pdf.js in the fenced worker thread + layout + cleaning), warm, against
// pdftotext (poppler's C++ extractor, the usual command-line reference) on the same files in the same run.
// pdftotext is timed as it would be used from a service: one process per file (spawn included). A ratio above 1
// means we are slower; what we buy with it is column order, no headers/footers/page numbers, joined hyphenation,
// and a hard time/memory fence. Needs pdftotext (apt-get install -y poppler-utils).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { extractPdf, stopPdfWorkers } from '../lambdas/narration/pdf/index';
import { requirePdftotext } from '../test/helpers/pdftotext';
import { informeLargo, makeFixtures, type CleanFixture } from '../test/fixtures/pdf/make-fixtures';

const REPS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function time(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

(async () => {
  requirePdftotext();
  const dir = mkdtempSync(join(tmpdir(), 'bench-pdf-'));
  try {
    const { clean } = await makeFixtures();
    const docs: CleanFixture[] = [clean[3]!, clean[0]!, clean[1]!, await informeLargo(12)];
    // Warm-up: worker start and pdf.js load (paid once per Lambda instance), not measured.
    const t0 = performance.now();
    await extractPdf(clean[3]!.bytes);
    console.log(`# first extraction (worker start + pdf.js load): ${(performance.now() - t0).toFixed(0)} ms`);
    for (const doc of docs) {
      const file = join(dir, `${doc.name}.pdf`);
      writeFileSync(file, doc.bytes);
      const ours: number[] = [];
      const base: number[] = [];
      let chars = 0;
      let pages = 0;
      for (let i = 0; i < REPS; i++) {
        ours.push(
          await time(async () => {
            const r = await extractPdf(doc.bytes);
            chars = r.chars;
            pages = r.pageCount;
          }),
        );
        base.push(await time(() => execFileSync('pdftotext', ['-enc', 'UTF-8', '-q', file, '-'])));
      }
      const o = median(ours);
      const b = median(base);
      console.log(
        `pdf-extract (${doc.name}, ${pages} pages, ${chars} chars): ${o.toFixed(1)} ms vs baseline ${b.toFixed(1)} ms → ratio ${(o / b).toFixed(2)}×`,
      );
    }
    console.log(
      `# median of ${REPS} runs; pdftotext timed per process (spawn included), ours per call to a warm worker`,
    );
  } finally {
    await stopPdfWorkers();
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
