// Publisher feeds end to end against the local runtime (real espeak-ng, dynalite, s3rver, fauxqs; the feed poll and
// article workers as SQS pollers, the scheduler as a timer): an RSS feed and its article pages served from loopback
// (allow-listed through URL_FETCH_ALLOWLIST for this server only, as convert-url's tests do). Register a feed of 3 →
// 3 narrations; the feed changes (1 new, 1 changed, 1 unchanged) → exactly 2 new narrations; the podcast feed lists
// them, parsed with an XML parser: each enclosure's bytes and ffprobe duration match `length` and itunes:duration,
// transcripts parse as WebVTT, chapters as JSON. Then the scheduler timer, conditional GETs, errors and deletion.
// Case groups live beside it in test/e2e/feeds/ (one runtime, one browser for all: standUp runs once).
import { auth, type FeedsContext, getFeed, rt, standUp, tripwire } from './feeds/stand';
import { playerCases } from './feeds/player.cases';
import { publishCases } from './feeds/publish.cases';

jest.setTimeout(180_000);

const ctx: FeedsContext = { feedId: '', playerTag: () => '', browser: undefined };
standUp(ctx);
publishCases(ctx);
playerCases(ctx);

test('delete with its audio: every narration the feed made is gone; another account sees 404', async () => {
  const other = await fetch(rt.url(`/v1/feeds/${ctx.feedId}`), {
    headers: { authorization: `Bearer key_other_${'c'.repeat(32)}` },
  });
  expect(other.status).toBe(401); // an unknown key
  const f = await getFeed(ctx.feedId);
  const ids = f.entries.map((e) => e.audio_id!);
  const res = await fetch(rt.url(`/v1/feeds/${ctx.feedId}?audio=delete`), {
    method: 'DELETE',
    headers: auth,
  });
  expect(res.status).toBe(200);
  // a1, a2 (its second narration), a3 (no longer listed) and a4
  expect(await res.json()).toEqual({ deleted: true, audio_deleted: 4, audio_kept: 0 });
  for (const id of ids)
    expect((await fetch(rt.url(`/audio/${id}`), { redirect: 'manual' })).status).toBe(404);
  expect((await fetch(rt.url(`/v1/feeds/${ctx.feedId}`), { headers: auth })).status).toBe(404);
  expect((await fetch(rt.url(`/feeds/${ctx.feedId}/podcast.xml`))).status).toBe(404);
});

test('network rule: this process connected to loopback only', () => {
  expect(tripwire.attempts).toEqual([]);
});
