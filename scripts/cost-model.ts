// Cost model: what 1M narrated characters and 1,000 PDFs cost on AWS (us-east-1, list prices, no free tier), from a
// price table that names its source and the date it was read, and assumptions that name where each number comes
// from (the manifests, the code, or a measurement on this machine). Writes docs/operations/cost.md.
//
//   npm run cost                 regenerate docs/operations/cost.md
//   npm run cost -- --check      exit 1 if the committed cost.md differs from what the script produces
//   npm run cost -- --measure    re-measure the MP3 encoder speed on this machine (then update ASSUMPTIONS)
//
// The parts: cost/prices.ts (cited list prices), cost/assumptions.ts (every other number, with its origin),
// cost/scenarios.ts (the arithmetic), cost/markdown.ts (the document).
import { readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { renderMarkdown } from './cost/markdown';

const OUT = join(resolve(__dirname, '..'), 'docs', 'operations', 'cost.md');

async function measureEncoder(): Promise<void> {
  const { mkdtempSync, rmSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { encodeToFile } = await import('../lambdas/narration/audio/encode');
  const rate = 16000;
  const seconds = 120;
  const pcm = new Int16Array(rate * seconds);
  for (let i = 0; i < pcm.length; i++) pcm[i] = Math.round(8000 * Math.sin(i / 7) * Math.sin(i / 3000));
  const dir = mkdtempSync(join(tmpdir(), 'cost-enc-'));
  const runs: number[] = [];
  try {
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      await encodeToFile(
        'mp3',
        rate,
        (async function* () {
          for (let o = 0; o < pcm.length; o += 32768) yield pcm.subarray(o, o + 32768);
        })(),
        join(dir, 'a.mp3'),
      );
      runs.push(performance.now() - t);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const best = Math.min(...runs);
  console.log(`MP3 encoder, 16 kHz mono: ${((seconds * 1000) / best).toFixed(0)}× realtime (best of 3)`);
}

/** The markdown as prettier writes it (the repository's lint runs prettier --check on docs/). */
async function formatted(md: string): Promise<string> {
  const prettier = await import('prettier');
  const options = (await prettier.resolveConfig(OUT)) ?? {};
  return prettier.format(md, { ...options, parser: 'markdown' });
}

async function main(): Promise<number> {
  const args = process.argv.slice(2);
  if (args.includes('--measure')) {
    await measureEncoder();
    return 0;
  }
  const md = await formatted(renderMarkdown());
  if (args.includes('--check')) {
    const current = readFileSync(OUT, 'utf8');
    if (current !== md) {
      console.error('docs/operations/cost.md is out of date: run npm run cost');
      return 1;
    }
    return 0;
  }
  writeFileSync(OUT, md);
  console.log(`wrote ${OUT}`);
  return 0;
}

if (require.main === module)
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      console.error(err);
      process.exit(1);
    },
  );
