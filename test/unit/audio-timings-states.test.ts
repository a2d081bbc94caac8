// GET /audio/{id}/timings and GET /audio/{id}/chapters.json answer the same states from one lookup
// (lambdas/narration/handlers/audio-lookup.ts settledTimings): 422 for a malformed id, 404 unknown, 409 failed,
// 202 {status, progress} + Retry-After while converting, 410 past retention — each route in its own words — and
// 200 from the stored timings once done.
import type { Context } from 'aws-lambda';
import { makeHandler as chaptersHandler } from '../../lambdas/narration/handlers/audio-chapters';
import { makeHandler as timingsHandler } from '../../lambdas/narration/handlers/get-timings';
import type { AudioRecord } from '../../lambdas/narration/ports';
import { apiEvent } from '../helpers/api-event';
import { FakeAudioRepository, FakeAudioStore } from '../fakes/narration';

const context = { awsRequestId: 'test', getRemainingTimeInMillis: () => 3000 } as unknown as Context;

function setup() {
  const audio = new FakeAudioRepository();
  const store = new FakeAudioStore();
  const now = new Date();
  const record = (audioId: string, more: Partial<AudioRecord>): AudioRecord => ({
    audioId,
    status: 'done',
    voice: 'es-MX-female',
    fmt: 'mp3',
    chars: 20,
    plan: 'free',
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
    expiresAt: Math.floor(now.getTime() / 1000) + 3600,
    ...more,
  });
  const routes = {
    timings: { handler: timingsHandler({ audio, store }), path: (id: string) => `/audio/${id}/timings` },
    chapters: {
      handler: chaptersHandler({ audio, store }),
      path: (id: string) => `/audio/${id}/chapters.json`,
    },
  };
  const get = async (route: keyof typeof routes, id: string) => {
    const r = (await routes[route].handler(
      apiEvent('GET', routes[route].path(id), { params: { audio_id: id } }),
      context,
    )) as { statusCode: number; headers: Record<string, string>; body: string };
    return { ...r, json: JSON.parse(r.body || 'null') as Record<string, unknown> };
  };
  return { audio, store, record, get };
}

const detail = (body: Record<string, unknown>) => JSON.stringify(body['detail']);

test.each([
  ['timings', 'audio_id should be the id returned by a convert endpoint (without .mp3, .wav or .ogg)'],
  ['chapters', 'audio_id should be the id returned by a convert endpoint'],
] as const)('%s: a malformed id is a 422 in the route’s words', async (route, msg) => {
  const { get } = setup();
  const res = await get(route, 'a.mp3');
  expect(res.statusCode).toBe(422);
  expect(detail(res.json)).toContain(JSON.stringify(msg));
});

test.each([
  ['timings', 'Audio not found. It may have expired; audio is kept for a limited time after conversion.'],
  ['chapters', 'Audio not found. It may have expired.'],
] as const)('%s: an unknown id is a 404 in the route’s words', async (route, msg) => {
  const { get } = setup();
  const res = await get(route, 'nope');
  expect([res.statusCode, res.json['detail']]).toEqual([404, msg]);
});

test.each([
  ['timings', 'The conversion failed: it has no timings.'],
  ['chapters', 'The conversion failed: it has no chapters.'],
] as const)(
  '%s: a failed conversion is a 409 in the route’s words (or the record’s own error)',
  async (route, msg) => {
    const { audio, record, get } = setup();
    await audio.create(record('f1', { status: 'failed' }));
    await audio.create(record('f2', { status: 'failed', error: 'The voice engine refused the text.' }));
    expect([(await get(route, 'f1')).statusCode, (await get(route, 'f1')).json['detail']]).toEqual([
      409,
      msg,
    ]);
    expect((await get(route, 'f2')).json['detail']).toBe('The voice engine refused the text.');
  },
);

test.each([['timings'], ['chapters']] as const)(
  '%s: converting → 202 with progress and Retry-After; past retention → 410 and its files deleted',
  async (route) => {
    const { audio, store, record, get } = setup();
    await audio.create(record('p1', { status: 'processing', progress: 0.4 }));
    const pending = await get(route, 'p1');
    expect([pending.statusCode, pending.json, pending.headers['retry-after']]).toEqual([
      202,
      { audio_id: 'p1', status: 'processing', progress: 0.4 },
      '2',
    ]);
    await audio.create(record('old', { expiresAt: Math.floor(Date.now() / 1000) - 10, timings: true }));
    await store.putTimings('old', { sentences: [], words: [], chapters: [], cues: [] });
    expect((await get(route, 'old')).statusCode).toBe(410);
    expect(await store.getTimings('old')).toBeUndefined();
  },
);

test('done: timings from the stored object (404 without one), chapters as Podcasting 2.0 JSON', async () => {
  const { audio, store, record, get } = setup();
  await audio.create(record('d1', { timings: true, durationS: 3.5, title: 'Artículo' }));
  const chapters = [{ title: 'Uno', start_s: 0, offset: 0 }];
  await store.putTimings('d1', { sentences: [[0, 5]], words: [], chapters, cues: [[0, 1000]] });
  const timings = await get('timings', 'd1');
  expect([timings.statusCode, timings.json['duration_s'], timings.json['chapters']]).toEqual([
    200,
    3.5,
    chapters,
  ]);
  const json = await get('chapters', 'd1');
  expect([json.statusCode, json.headers['content-type']]).toEqual([200, 'application/json+chapters']);
  await audio.create(record('d2', {}));
  expect((await get('timings', 'd2')).statusCode).toBe(404);
  expect((await get('chapters', 'd2')).json).toMatchObject({ chapters: [] });
});
