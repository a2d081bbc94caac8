// "Nothing narrated twice" (docs/reuse.md): POST /convert/text of a ~2,600-character text against the local runtime
// (espeak-ng, dynalite, s3rver), first time (narrated) vs the identical repeat (answered with the earlier audio), in
// the same run. Prints both medians and the ratio; the target is a repeat under 300 ms.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLocal } from '../lib/local/runtime';

const REPS = 5;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const text = (n: number) =>
  Array.from(
    { length: 17 },
    (_, i) =>
      `Párrafo ${i + 1} de la prueba ${n}. La biblioteca municipal abrió sus puertas a las nueve de la mañana y recibió a cientos de lectores que buscaban refugio del calor.`,
  ).join('\n\n');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-reuse-'));
  const rt = await startLocal({
    dataDir: dir,
    persist: false,
    documents: false,
    env: { FREE_PER_HOUR: '1000', FREE_PER_DAY: '1000', SYNC_MAX_CHARS: '3000' },
  });
  const post = async (body: string) => {
    const t = performance.now();
    const res = await fetch(`${rt.narrationUrl}/convert/text`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: body }),
    });
    const json = (await res.json()) as { reused?: boolean };
    if (res.status !== 200) throw new Error(`convert answered ${res.status}`);
    return { ms: performance.now() - t, reused: json.reused === true };
  };
  try {
    await post(text(-1)); // warm-up: engine, clients
    await post(text(-1));
    const first: number[] = [];
    const repeat: number[] = [];
    for (let i = 0; i < REPS; i++) {
      const a = await post(text(i));
      const b = await post(text(i));
      if (a.reused || !b.reused) throw new Error('the repeat was not reused');
      first.push(a.ms);
      repeat.push(b.ms);
    }
    const f = median(first);
    const r = median(repeat);
    console.log(`text length: ${text(0).length} characters, ${REPS} texts`);
    console.log(
      `reuse: repeat ${r.toFixed(1)} ms vs baseline first narration ${f.toFixed(1)} ms → ratio ${(r / f).toFixed(3)}×`,
    );
  } finally {
    await rt.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

void main().catch((err) => {
  console.error(err);
  process.exit(1);
});
