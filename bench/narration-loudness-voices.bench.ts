// Loudness of every voice on both engines' MP3 paths for one length (default 10,000 characters): espeak-ng (gain +
// limiter, then LAME) and the speaking Polly stand-in (each voice's own speech, its frames levelled with
// global_gain), measured with ffmpeg's ebur128 (−16 ± 1 LUFS, ≤ −1 dBTP). The CI test (narration-loudness) runs
// every voice's short text and long jobs of one voice per engine; this runs every voice long.
// Usage: npm run bench -- narration-loudness-voices   (LOUD_CHARS=3000, LOUD_ENGINES=espeak|polly|both, LOUD_VOICE=es-ES-Sergio)
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PollySynthesizer } from '../lambdas/narration/adapters/polly';
import { VOICES } from '../lambdas/narration/core/voices';
import { createSynthesizer } from '../lambdas/narration/speech';
import { narrate } from '../lambdas/narration/use-cases/narrate';
import { ffmpegLoudness } from '../test/helpers/loudness-meter';
import { standInClient, startPollyStandIn, textOf } from '../test/helpers/polly-stand-in';

async function main(): Promise<void> {
  const chars = Number(process.env.LOUD_CHARS ?? 10000);
  const which = process.env.LOUD_ENGINES ?? 'both';
  const only = process.env.LOUD_VOICE;
  const dir = await mkdtemp(join(tmpdir(), 'loud-'));
  const local = await createSynthesizer('espeak');
  const standIn = await startPollyStandIn();
  const client = standInClient(standIn);
  const speaking = new PollySynthesizer(client);
  const engines =
    which === 'both'
      ? ([
          ['espeak-ng', local],
          ['polly-stand-in (own speech per voice)', speaking],
        ] as const)
      : which === 'espeak'
        ? ([['espeak-ng', local]] as const)
        : ([['polly-stand-in (own speech per voice)', speaking]] as const);
  for (const v of VOICES.filter((x) => !only || x.id === only)) {
    for (const [name, engine] of engines) {
      const outPath = join(dir, `${v.id}-${name.slice(0, 5)}-${chars}.mp3`);
      const t0 = Date.now();
      await narrate({ text: textOf(chars), voice: v, fmt: 'mp3', synthesizer: engine, outPath });
      const m = ffmpegLoudness(outPath);
      const ok = Math.abs(m.i + 16) <= 1 && m.tp <= -1;
      console.log(
        `narration-loudness-voices ${chars} chars ${v.id} ${name}: ${m.i} LUFS, ${m.tp} dBTP → ${ok ? 'met' : 'NOT MET'} (${((Date.now() - t0) / 1000).toFixed(0)} s)`,
      );
    }
  }
  client.destroy();
  await standIn.stop();
}
void main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
