// GET /stats over HTTP against the local runtime: public counters bumped by real conversions on both completion
// paths (inside the request, and the worker for a queued text), the waitlist size, Cache-Control — and a stats
// store that fails never fails a conversion, on either path.
import type { Context } from 'aws-lambda';
import { apiEvent } from '../helpers/api-event';
import { awsDeps, type NarrationDeps } from '../../lambdas/narration/deps';
import { startConversion } from '../../lambdas/narration/use-cases/conversion';
import { runJob } from '../../lambdas/narration/use-cases/narration-job';
import { findVoice } from '../../lambdas/narration/core/voices';
import { makeHandler as makeConvertText } from '../../lambdas/narration/handlers/convert-text';
import type { GrowthStore } from '../../lambdas/shared/growth/ports';
import { postJson, waitForAudio } from '../helpers/runtime';
import { startGrowthRuntime, type GrowthRuntime } from '../helpers/growth-runtime';
import { until } from '../helpers/until';

jest.setTimeout(120_000);

let g: GrowthRuntime;
beforeAll(async () => {
  // No wait window: the long conversion is answered 202 and finished by the worker (the path this file counts).
  g = await startGrowthRuntime({
    FREE_PER_HOUR: '1000',
    FREE_PER_DAY: '1000',
    SYNC_MAX_CHARS: '200',
    WAIT_WINDOW_S: '0',
  });
});
afterAll(async () => g?.stop());

interface Stats {
  conversions: number;
  characters_narrated: number;
  seconds_narrated: number;
  hours_narrated: number;
  by_format: Record<string, number>;
  by_voice: Record<string, number>;
  waitlist: number;
  since: string | null;
  generated_at: string;
}
async function stats(): Promise<Stats> {
  const res = await fetch(g.url('/stats'));
  expect(res.status).toBe(200);
  return (await res.json()) as Stats;
}

test('before any conversion: zeros, cacheable for a minute', async () => {
  const res = await fetch(g.url('/stats'));
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=60, stale-while-revalidate=300');
  const s = (await res.json()) as Stats;
  expect(s).toEqual({
    conversions: 0,
    characters_narrated: 0,
    seconds_narrated: 0,
    hours_narrated: 0,
    by_format: {},
    by_voice: {},
    waitlist: 0,
    since: null,
    generated_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
  });
});

test('a conversion inside the request and one finished by the worker both count, exactly', async () => {
  const short = await postJson(g.url('/convert/text'), { text: 'Hola, esto es una prueba breve.' });
  expect(short.status).toBe(200);
  const a = (await short.json()) as { chars: number; duration_s: number };
  let s = await stats();
  expect(s.conversions).toBe(1);
  expect(s.characters_narrated).toBe(a.chars);
  expect(s.seconds_narrated).toBe(a.duration_s);
  expect(s.by_format).toEqual({ mp3: 1 });
  expect(s.by_voice).toEqual({ 'es-MX-Mia': 1 });
  expect(Date.parse(s.since!)).toBeLessThanOrEqual(Date.now());

  const text = 'La narración larga pasa por la cola y la termina el trabajador en segundo plano. '.repeat(4);
  const long = await postJson(g.url('/convert/text'), { text, fmt: 'ogg', voice: 'es-ES-Lucia' });
  expect(long.status).toBe(202);
  const b = (await long.json()) as { audio_url: string; chars: number };
  const done = await waitForAudio(g.url(b.audio_url), 60_000);
  expect(done.status).toBe(302);
  const info = (await (
    await fetch(g.url(b.audio_url), { headers: { accept: 'application/json' } })
  ).json()) as { duration_s: number };
  // The worker counts a job just after marking it done (the counters never hold up the audio): wait for it.
  s = await until("the worker's conversion in the public counters", async () => {
    const now = await stats();
    return now.conversions >= 2 ? now : undefined;
  });
  expect(s.conversions).toBe(2);
  expect(s.characters_narrated).toBe(a.chars + b.chars);
  expect(s.seconds_narrated).toBeCloseTo(a.duration_s + info.duration_s, 3);
  expect(s.by_format).toEqual({ mp3: 1, ogg: 1 });
  expect(s.by_voice).toEqual({ 'es-ES-Lucia': 1, 'es-MX-Mia': 1 });
  expect(s.hours_narrated).toBe(Math.round((s.seconds_narrated / 3600) * 100) / 100);
});

test('the waitlist size is part of the stats', async () => {
  const before = (await stats()).waitlist;
  expect((await postJson(g.url('/waitlist'), { email: 'stats@example.com' })).status).toBe(200);
  expect((await stats()).waitlist).toBe(before + 1);
});

describe('a failing stats store never fails a conversion', () => {
  const broken: GrowthStore = {
    putIfAbsent: () => Promise.reject(new Error('growth table unavailable')),
    add: () => Promise.reject(new Error('growth table unavailable')),
    getMany: () => Promise.reject(new Error('growth table unavailable')),
  };
  const withBrokenGrowth = (overrides: PropertyDescriptorMap = {}): NarrationDeps =>
    Object.create(awsDeps(), { growth: { value: broken }, ...overrides }) as NarrationDeps;

  test('inside the request: POST /convert/text still answers 200', async () => {
    const event = apiEvent('POST', '/convert/text', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'La estadística falla, la conversión no.' }),
      requestId: 'r-stats',
      sourceIp: '127.0.0.9',
    });
    const context = { awsRequestId: 'r-stats', getRemainingTimeInMillis: () => 29_000 } as unknown as Context;
    const before = (await stats()).conversions;
    const res = (await makeConvertText(withBrokenGrowth())(event, context)) as {
      statusCode: number;
      body: string;
    };
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body).duration_s).toBeGreaterThan(0);
    expect((await stats()).conversions).toBe(before); // not counted, but delivered
  });

  test('in the worker: runJob still completes the job', async () => {
    const base = awsDeps();
    // Queue nothing (this test runs the job itself instead of the runtime's worker).
    const deps = withBrokenGrowth({
      config: { value: { ...base.config, SYNC_MAX_CHARS: 10 } },
      queue: { value: { enqueue: async () => undefined } },
    });
    const voice = findVoice('es-MX-Andres')!;
    const out = await startConversion(deps, {
      text: 'Un trabajo en cola cuya estadística falla.',
      voice,
      fmt: 'mp3',
      caller: { kind: 'anonymous', subject: 'ip#stats-worker' },
    });
    expect(out.statusCode).toBe(202);
    const audioId = out.body.audio_id as string;
    await expect(runJob(deps, audioId, 1, findVoice)).resolves.toBe('done');
    expect((await base.audio.get(audioId))!.status).toBe('done');
  });
});
