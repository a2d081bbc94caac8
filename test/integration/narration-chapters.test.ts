// Chapters inside the MP3 (narrate() → audio/id3-chapters.ts): an article's headings become ID3v2 CHAP/CTOC frames
// that ffprobe (`-show_chapters`, ffmpeg's own MP3 demuxer) lists with their titles, each starting within 100 ms of
// the timings' chapter start, which is where the heading is heard (silence just before, speech right after, in the
// audio ffmpeg decodes). The tag does not change the duration players read, on both engines' MP3 paths.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PollyClient } from '@aws-sdk/client-polly';
import { PollySynthesizer } from '../../lambdas/narration/adapters/polly';
import { id3ChapterTag } from '../../lambdas/narration/audio/id3-chapters';
import { extractArticle, fitForNarration } from '../../lambdas/narration/core/article';
import { findVoice } from '../../lambdas/narration/core/voices';
import type { Synthesizer } from '../../lambdas/narration/ports';
import { createSynthesizer } from '../../lambdas/narration/speech';
import { narrate } from '../../lambdas/narration/use-cases/narrate';
import { ffmpegDecode } from '../helpers/loudness-meter';
import { standInClient, startPollyStandIn, type PollyStandIn } from '../helpers/polly-stand-in';
import { FFPROBE } from '../helpers/runtime';

jest.setTimeout(300_000);

interface ProbedChapter {
  start_time: string;
  end_time: string;
  tags?: { title?: string };
}

function probe(path: string): { chapters: ProbedChapter[]; duration: number } {
  const out = JSON.parse(
    execFileSync(
      FFPROBE,
      ['-v', 'error', '-show_chapters', '-show_entries', 'format=duration', '-of', 'json', path],
      {
        encoding: 'utf8',
      },
    ),
  ) as { chapters: ProbedChapter[]; format: { duration: string } };
  return { chapters: out.chapters, duration: Number(out.format.duration) };
}

const rms = (s: Int16Array, rate: number, fromS: number, toS: number) => {
  const a = Math.max(0, Math.round(fromS * rate));
  const b = Math.min(s.length, Math.round(toS * rate));
  let e = 0;
  for (let i = a; i < b; i++) e += s[i]! * s[i]!;
  return Math.sqrt(e / Math.max(1, b - a));
};

const article = fitForNarration(
  extractArticle(readFileSync(join(__dirname, '../fixtures/articles/noticia.html'), 'utf8')),
  100_000,
);
const voice = findVoice('es-ES-Lucia')!;

let dir: string;
let polly: PollyStandIn;
let client: PollyClient;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'chapters-'));
  polly = await startPollyStandIn();
  client = standInClient(polly);
});
afterAll(async () => {
  client.destroy();
  await polly.stop();
  await rm(dir, { recursive: true, force: true });
});

describe("an article's headings as chapters in the MP3", () => {
  it('the article has headings to test with', () => {
    expect(article.headings.map((h) => h.text)).toEqual(
      expect.arrayContaining(['Los agricultores, los más afectados', 'Barcos cisterna y nuevas desaladoras']),
    );
  });

  it.each([
    ['espeak-ng', async (): Promise<Synthesizer> => createSynthesizer('espeak')],
    ['Polly stand-in', async (): Promise<Synthesizer> => new PollySynthesizer(client)],
  ])(
    '%s: ffprobe lists each heading, starting within 100 ms of the timings, where it is heard',
    async (_n, make) => {
      const outPath = join(dir, `${_n}.mp3`);
      const r = await narrate({
        text: article.text,
        voice,
        fmt: 'mp3',
        synthesizer: await make(),
        outPath,
        headings: article.headings.map((h) => ({ text: h.text, offset: h.offset })),
      });
      const { chapters, duration } = probe(outPath);
      expect(chapters.map((c) => c.tags?.title)).toEqual(article.headings.map((h) => h.text));
      expect(r.timings.chapters.map((c) => c.title)).toEqual(article.headings.map((h) => h.text));
      const { samples, rate } = ffmpegDecode(outPath);
      chapters.forEach((c, k) => {
        const start = Number(c.start_time);
        expect(Math.abs(start - r.timings.chapters[k]!.start_s)).toBeLessThanOrEqual(0.1);
        // Ends where the next starts; the last with the audio.
        const end = k + 1 < chapters.length ? Number(chapters[k + 1]!.start_time) : r.durationS;
        expect(Number(c.end_time)).toBeCloseTo(end, 2);
        // Heard: the pause before the heading is quiet (below -40 dBFS), its first words follow within 300 ms
        // (speech at -16 LUFS has an RMS in the thousands).
        expect(rms(samples, rate, start - 0.25, start - 0.05)).toBeLessThan(330);
        expect(rms(samples, rate, start, start + 0.3)).toBeGreaterThan(1000);
      });
      // The tag is not audio: the duration ffprobe reads is the frames'.
      expect(duration).toBeCloseTo(r.durationS, 2);
    },
  );

  it('a text without headings gets no tag; titles are UTF-8 and the tag size depends only on them', () => {
    expect(id3ChapterTag([])).toHaveLength(0);
    const a = id3ChapterTag([{ title: 'Año nuevo', startMs: 0, endMs: 1000 }]);
    const b = id3ChapterTag([{ title: 'Año nuevo', startMs: 123_456, endMs: 7_654_321 }]);
    expect(a.length).toBe(b.length);
    expect(Buffer.from(b).includes(Buffer.from('Año nuevo', 'utf8'))).toBe(true);
  });
});
