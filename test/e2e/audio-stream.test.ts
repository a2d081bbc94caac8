// GET /audio/{id}/stream.m3u8 and GET /audio/{id}/seg/{n}.mp3 over HTTP against the local runtime: a long job is
// fabricated through the real adapters (segments of real espeak speech in s3rver, the record in dynalite) and lands
// one segment at a time; the playlist must list exactly what has landed, end once the job is done, and its segments,
// fetched through the redirects, must join into audio whose length ffprobe confirms; played by ffprobe's own HLS
// demuxer over HTTP, the playlist must sound as long as the joined file (a playlist missing a segment must not).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from '../helpers/env';
import { playedSeconds, servePlaylist } from '../helpers/hls';
import { fabricateJob, type FabricatedJob } from '../helpers/segmented-job';
import { ffprobe, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

const TEXT =
  'Primera frase del artículo. La segunda frase es un poco más larga que la primera. ¿Una pregunta? ' +
  'Una respuesta clara. Quinta frase para el tercer segmento. Y la última, que cierra el texto.';

let rt: TestRuntime;
let job: FabricatedJob;
const files = tempDir('stream-');
beforeAll(async () => {
  rt = await startRuntime({}, { startWorker: false, documents: false });
  job = await fabricateJob('streamjob0000001', TEXT, 2, files.path);
});
afterAll(async () => {
  await rt.stop();
  files.cleanup();
});

/** The playlist's segments as (duration, uri), and whether it is closed. */
function parse(m3u8: string) {
  const lines = m3u8.trim().split('\n');
  const entries: { duration: number; uri: string }[] = [];
  lines.forEach((l, i) => {
    const m = /^#EXTINF:([0-9.]+),$/.exec(l);
    if (m) entries.push({ duration: Number(m[1]), uri: lines[i + 1]! });
  });
  return { lines, entries, ended: lines.includes('#EXT-X-ENDLIST') };
}

async function playlist(id: string) {
  const res = await fetch(rt.url(`/audio/${id}/stream.m3u8`));
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toBe('application/vnd.apple.mpegurl');
  return { res, ...parse(await res.text()) };
}

test('the playlist grows as segments land and ends when the job is done', async () => {
  expect(job.segments).toHaveLength(3);
  await job.create();
  const empty = await playlist(job.audioId);
  expect(empty.lines.slice(0, 5)).toEqual([
    '#EXTM3U',
    '#EXT-X-VERSION:3',
    '#EXT-X-PLAYLIST-TYPE:EVENT',
    '#EXT-X-TARGETDURATION:4',
    '#EXT-X-MEDIA-SEQUENCE:0',
  ]);
  expect(empty.entries).toEqual([]);
  expect(empty.ended).toBe(false);
  expect(empty.res.headers.get('cache-control')).toBe('no-store');

  // A segment not landed yet is a 404 that says so.
  const early = await fetch(rt.url(`/audio/${job.audioId}/seg/0.mp3`), { redirect: 'manual' });
  expect(early.status).toBe(404);
  expect(((await early.json()) as { detail: string }).detail).toMatch(/not ready yet/);

  await job.land(0);
  await job.land(1);
  const two = await playlist(job.audioId);
  expect(two.entries.map((e) => e.uri)).toEqual(['seg/0.mp3', 'seg/1.mp3']);
  two.entries.forEach((e, i) => expect(e.duration).toBeCloseTo(job.segments[i]!.duration_s, 3));
  const target = Number(/#EXT-X-TARGETDURATION:(\d+)/.exec(two.lines.join('\n'))![1]);
  for (const e of two.entries) expect(Math.round(e.duration)).toBeLessThanOrEqual(target);
  expect(two.ended).toBe(false);

  await job.land(2);
  await job.finish();
  const done = await playlist(job.audioId);
  expect(done.entries.map((e) => e.uri)).toEqual(['seg/0.mp3', 'seg/1.mp3', 'seg/2.mp3']);
  expect(done.ended).toBe(true);
  expect(done.res.headers.get('cache-control')).toMatch(/max-age/);

  // Every URI resolves against the playlist's own URL, redirects to the bucket and serves real MP3; joined, they
  // are the whole audio.
  const base = rt.url(`/audio/${job.audioId}/stream.m3u8`);
  const parts: Buffer[] = [];
  for (const e of done.entries) {
    const seg = await fetch(new URL(e.uri, base), { redirect: 'manual' });
    expect(seg.status).toBe(302);
    const file = await fetch(seg.headers.get('location')!);
    expect(file.status).toBe(200);
    parts.push(Buffer.from(await file.arrayBuffer()));
  }
  const joined = join(files.path, 'joined.mp3');
  writeFileSync(joined, Buffer.concat(parts));
  const probe = ffprobe(joined);
  expect(probe.codec).toBe('mp3');
  const listed = done.entries.reduce((s, e) => s + e.duration, 0);
  expect(Math.abs(probe.duration - listed)).toBeLessThan(0.1);
  expect(probe.duration).toBeGreaterThan(5);

  // Played as a player plays it (ffprobe's HLS demuxer over loopback HTTP, every frame decoded): it hears the joined
  // file's length.
  const played = await playedSeconds(base);
  expect(played.errors).toBe('');
  expect(Math.abs(played.seconds - probe.duration)).toBeLessThan(0.1);
  // Negative control: the same playlist without its middle segment (URIs made absolute, served from another loopback
  // port) plays short by that segment, and the same comparison rejects it.
  const lines = done.lines.map((l) => (l.startsWith('seg/') ? new URL(l, base).href : l));
  lines.splice(lines.indexOf(new URL('seg/1.mp3', base).href) - 1, 2);
  const broken = await servePlaylist(lines.join('\n') + '\n');
  try {
    const short = await playedSeconds(broken.url);
    expect(Math.abs(short.seconds - probe.duration)).toBeGreaterThan(0.1);
    expect(short.seconds).toBeCloseTo(probe.duration - job.segments[1]!.duration_s, 1);
  } finally {
    await broken.close();
  }
});

test('a short MP3 made in one go is listed as its one file; bad names and ids are 422, unknown ids 404', async () => {
  const res = await postJson(rt.url('/convert/text'), { text: 'Un audio corto.', fmt: 'mp3' });
  expect(res.status).toBe(200);
  const { audio_id, duration_s } = (await res.json()) as { audio_id: string; duration_s: number };
  const pl = await playlist(audio_id);
  expect(pl.entries).toEqual([{ duration: Number(duration_s.toFixed(3)), uri: `../${audio_id}.mp3` }]);
  expect(pl.ended).toBe(true);
  const whole = await fetch(new URL(pl.entries[0]!.uri, rt.url(`/audio/${audio_id}/stream.m3u8`)), {
    redirect: 'manual',
  });
  expect(whole.status).toBe(302);

  const ogg = await postJson(rt.url('/convert/text'), { text: 'Un audio corto.', fmt: 'ogg' });
  const oggId = ((await ogg.json()) as { audio_id: string }).audio_id;
  const none = await fetch(rt.url(`/audio/${oggId}/stream.m3u8`));
  expect(none.status).toBe(404);
  expect(((await none.json()) as { detail: string }).detail).toContain(`/audio/${oggId}.ogg`);

  expect((await fetch(rt.url('/audio/nope0000000000x/stream.m3u8'))).status).toBe(404);
  const badSeg = await fetch(rt.url(`/audio/${audio_id}/seg/01.mp3`));
  expect(badSeg.status).toBe(422);
  expect(((await badSeg.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
    'path',
    'segment',
  ]);
  expect((await fetch(rt.url(`/audio/${audio_id}/seg/0.mp3`), { redirect: 'manual' })).status).toBe(404);
  expect((await fetch(rt.url('/audio/bad.id/stream.m3u8'))).status).toBe(422);
  // GET and DELETE /audio/{audio_id}: the id, with or without its file's extension; anything else is 422 on audio_id
  expect((await fetch(rt.url(`/audio/${audio_id}.mp3`), { redirect: 'manual' })).status).toBe(302);
  for (const method of ['GET', 'DELETE']) {
    const bad = await fetch(rt.url(`/audio/${audio_id}.flac`), { method, redirect: 'manual' });
    expect(bad.status).toBe(422);
    const [issue] = ((await bad.json()) as { detail: { loc: string[]; msg: string }[] }).detail;
    expect(issue!.loc).toEqual(['path', 'audio_id']);
    expect(issue!.msg).toContain('optionally followed by .mp3, .wav or .ogg');
  }
});
