// POST /demo/try over HTTP against the local runtime: ≤ 500 characters, MP3 only, its own per-IP limit that is
// independent of the free tier's, demo audio kept 1 day. Limits are lowered here so exhausting them is quick.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { awsDeps } from '../../lambdas/narration/deps';
import { tempDir } from '../helpers/env';
import { spendWindow } from '../helpers/quota-window';
import { ffprobe, postForm, postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(120_000);

let rt: TestRuntime;
let api: TestRuntime;
const files = tempDir('demo-');

beforeAll(async () => {
  // X-Forwarded-For picks the client address here (TRUST_PROXY), so each test can be a different caller.
  rt = await startRuntime(
    { DEMO_PER_HOUR: '3', DEMO_PER_DAY: '30', FREE_PER_HOUR: '2', FREE_PER_DAY: '20' },
    { trustProxy: true, documents: false },
  );
  api = rt;
});
afterAll(async () => {
  await rt?.stop();
  files.cleanup();
});

const from = (ip: string) => ({ 'x-forwarded-for': ip });
const sentence = 'La demostración lee en voz alta un texto breve en español. ';

interface Result {
  audio_id: string;
  audio_url: string;
  duration_s: number;
  voice: string;
  chars: number;
}

async function detail(res: Response) {
  return ((await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] }).detail;
}

test('500 characters → 200, the Conversion result, a real MP3 kept for one day', async () => {
  const text = sentence.repeat(10).slice(0, 500);
  expect([...text]).toHaveLength(500);
  const res = await postJson(api.url('/demo/try'), { text, voice: 'es-MX-Andres' }, from('198.51.100.1'));
  expect(res.status).toBe(200);
  const body = (await res.json()) as Result;
  expect(Object.keys(body).sort()).toEqual(['audio_id', 'audio_url', 'chars', 'duration_s', 'voice']);
  expect(body.chars).toBe(500);
  expect(body.voice).toBe('es-MX-Andres');
  expect(body.audio_url).toBe(`/audio/${body.audio_id}.mp3`);

  const redirect = await fetch(rt.url(body.audio_url), { redirect: 'manual' });
  expect(redirect.status).toBe(302);
  const audio = await fetch(redirect.headers.get('location')!);
  const path = join(files.path, `${body.audio_id}.mp3`);
  writeFileSync(path, Buffer.from(await audio.arrayBuffer()));
  const probe = ffprobe(path);
  expect(probe.codec).toBe('mp3');
  expect(Math.abs(body.duration_s - probe.duration) / probe.duration).toBeLessThan(0.02);

  const record = await awsDeps().audio.get(body.audio_id);
  const nowS = Date.now() / 1000;
  expect(record!.expiresAt - nowS).toBeGreaterThan(86400 - 120);
  expect(record!.expiresAt - nowS).toBeLessThanOrEqual(86400);
});

test('501 characters → 422 string_too_long, not charged', async () => {
  const ip = '198.51.100.2';
  const res = await postJson(api.url('/demo/try'), { text: 'a'.repeat(501) }, from(ip));
  expect(res.status).toBe(422);
  expect(await detail(res)).toEqual([
    { loc: ['body', 'text'], msg: 'String should have at most 500 characters', type: 'string_too_long' },
  ]);
  const ok = await postForm(api.url('/demo/try'), { text: 'Hola.' }, from(ip));
  expect(ok.status).toBe(200);
  expect(ok.headers.get('ratelimit-remaining')).toBe('2'); // the refused request cost nothing
});

test('MP3 only: WAV or OGG → 422 naming /convert/text; "MP3" and an empty fmt are fine', async () => {
  const ip = '198.51.100.3';
  for (const fmt of ['wav', 'ogg', 'flac']) {
    const res = await postJson(api.url('/demo/try'), { text: 'Hola.', fmt }, from(ip));
    expect(res.status).toBe(422);
    const [item] = await detail(res);
    expect(item).toMatchObject({ loc: ['body', 'fmt'], type: 'literal_error' });
    expect(item!.msg).toMatch(/MP3 only.*\/convert\/text/);
  }
  const upper = await postJson(api.url('/demo/try'), { text: 'Hola.', fmt: 'MP3' }, from(ip));
  expect(upper.status).toBe(200);
  expect(((await upper.json()) as Result).audio_url).toMatch(/\.mp3$/);
  const empty = await postForm(api.url('/demo/try'), { text: 'Hola.', fmt: '' }, from(ip));
  expect(empty.status).toBe(200);
});

test('anonymous: an Authorization header is ignored, even a malformed one', async () => {
  const res = await postJson(
    api.url('/demo/try'),
    { text: 'Hola.' },
    { ...from('198.51.100.4'), authorization: 'Bearer key_no_existe' },
  );
  expect(res.status).toBe(200);
  expect(res.headers.get('ratelimit-limit')).toBe('3'); // counted as a demo, like any anonymous caller
});

test('exhausting the demo leaves /convert/text untouched', async () => {
  const ip = '198.51.100.5';
  // 3 demos an hour, then 429 (a turn of the hour between them starts a full window: spendWindow follows it).
  const { accepted, refused: limited } = await spendWindow(3, (i) =>
    postJson(api.url('/demo/try'), { text: `Prueba ${i}.` }, from(ip)),
  );
  for (const res of accepted) expect(res.headers.get('ratelimit-policy')).toBe('3;w=3600, 30;w=86400');
  const retry = Number(limited.headers.get('retry-after'));
  expect(retry).toBeGreaterThan(0);
  expect(retry).toBeLessThanOrEqual(3600);
  expect(limited.headers.get('ratelimit-limit')).toBe('3');
  const body = (await limited.json()) as { detail: string };
  expect(body.detail).toMatch(/Demo limit reached: 3 demos per hour/);
  expect(body.detail).toMatch(/\/convert\/text/);

  const convert = await postJson(api.url('/convert/text'), { text: 'Sigo pudiendo convertir.' }, from(ip));
  expect(convert.status).toBe(200);
  expect(convert.headers.get('ratelimit-limit')).toBe('2');
  expect(convert.headers.get('ratelimit-remaining')).toBe('1');
});

test('exhausting /convert/text leaves the demo untouched', async () => {
  const ip = '198.51.100.6';
  await spendWindow(2, (i) => postJson(api.url('/convert/text'), { text: `Texto ${i}.` }, from(ip)));

  const demo = await postJson(api.url('/demo/try'), { text: 'La demo sigue disponible.' }, from(ip));
  expect(demo.status).toBe(200);
  expect(demo.headers.get('ratelimit-limit')).toBe('3');
  expect(demo.headers.get('ratelimit-remaining')).toBe('2');
});

test('validation: missing text, nothing speakable, unknown voice', async () => {
  const ip = '198.51.100.7';
  expect(await detail(await postJson(api.url('/demo/try'), {}, from(ip)))).toEqual([
    { loc: ['body', 'text'], msg: 'Field required', type: 'missing' },
  ]);
  expect((await detail(await postJson(api.url('/demo/try'), { text: '¿¡…!?' }, from(ip))))[0]!.type).toBe(
    'value_error',
  );
  expect(
    (
      await detail(await postJson(api.url('/demo/try'), { text: 'Hola.', voice: 'es-AR-Nadie' }, from(ip)))
    )[0]!.loc,
  ).toEqual(['body', 'voice']);
});
