// Idempotency-Key over HTTP against the local runtime (lambdas/shared/idempotency, DynamoDB conditional put on the
// emulator): 50 parallel requests with one key do the work once and charge once; replays give the first answer;
// a key reused with another body is 422; keys are scoped per caller; documents' render honours it too, and
// POST /convert/pdf/upload gives one slot per key.
import { Charges, probeSpentHour, windowOf } from '../helpers/quota-window';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(180_000);

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime({}, { trustProxy: true });
});
afterAll(async () => rt?.stop());

type Answer = { status: number; body: Record<string, unknown>; replayed: boolean; headers: Headers };
async function convert(text: string, key?: string, ip = '203.0.113.10'): Promise<Answer> {
  const res = await postJson(
    rt.url('/convert/text'),
    { text },
    { 'x-forwarded-for': ip, ...(key ? { 'idempotency-key': key } : {}) },
  );
  return {
    status: res.status,
    body: (await res.json()) as Record<string, unknown>,
    replayed: res.headers.get('idempotent-replayed') === 'true',
    headers: res.headers,
  };
}

test('50 parallel requests with one key: one conversion, one charge; the others 409 or the replay', async () => {
  const key = 'parallel-0001';
  const answers = await Promise.all(
    Array.from({ length: 50 }, () => convert('Hola, esto es una prueba de idempotencia.', key)),
  );
  const worked = answers.filter((a) => a.status === 200 && !a.replayed);
  const replays = answers.filter((a) => a.status === 200 && a.replayed);
  const busy = answers.filter((a) => a.status === 409);
  expect(worked).toHaveLength(1);
  expect(replays.length + busy.length).toBe(49);
  for (const b of busy) {
    expect(b.body).toMatchObject({ type: 'idempotency_key_in_use' });
    expect(b.headers.get('retry-after')).toBe('2');
  }
  const audioId = worked[0]!.body.audio_id as string;
  expect(audioId).toMatch(/^[A-Za-z0-9_-]+$/);
  for (const r of replays) expect(r.body).toEqual(worked[0]!.body);
  // One charge: the free tier (5/hour) has 4 left, then this next un-keyed request takes the 4th (of its hour:
  // the next one, full, when the hour turned between them).
  const charges = new Charges(5);
  expect(worked[0]!.headers.get('ratelimit-remaining')).toBe(String(charges.add(worked[0]!)));
  // A replay afterwards: same status, body and audio_id; nothing charged or narrated.
  const again = await convert('Hola, esto es una prueba de idempotencia.', key);
  expect(again).toMatchObject({ status: 200, replayed: true, body: worked[0]!.body });
  expect(again.headers.get('content-type')).toMatch(/^application\/json/);
  const next = await convert('Otra frase distinta.');
  expect(next.status).toBe(200);
  expect(next.headers.get('ratelimit-remaining')).toBe(String(charges.add(next)));
  // The audio the replays name exists once.
  const audio = await fetch(rt.url(`/audio/${audioId}`), { headers: { accept: 'application/json' } });
  expect(audio.status).toBe(200);
});

test('same key, different body → 422 naming the header; nothing charged', async () => {
  const first = await convert('Primera petición.', 'reuse-1', '203.0.113.11');
  expect(first.status).toBe(200);
  const charges = new Charges(5);
  charges.add(first);
  const other = await convert('Segunda petición, distinta.', 'reuse-1', '203.0.113.11');
  expect(other.status).toBe(422);
  expect(other.body.detail).toEqual([
    expect.objectContaining({ loc: ['header', 'Idempotency-Key'], type: 'idempotency_key_reused' }),
  ]);
  const after = await convert('Tercera.', undefined, '203.0.113.11');
  expect(after.headers.get('ratelimit-remaining')).toBe(String(charges.add(after)));
});

test('keys are scoped per caller: another client IP with the same key gets its own conversion', async () => {
  const a = await convert('Mismo texto, dos clientes.', 'shared-key', '203.0.113.12');
  const b = await convert('Mismo texto, dos clientes.', 'shared-key', '203.0.113.13');
  expect(a.status).toBe(200);
  expect(b.status).toBe(200);
  expect(b.replayed).toBe(false);
  expect(b.body.audio_id).not.toBe(a.body.audio_id);
});

test('a malformed key → 422; an answer that is not final (429) is not kept: the key works once allowed again', async () => {
  const bad = await convert('Hola.', 'x'.repeat(256), '203.0.113.14');
  expect(bad.status).toBe(422);
  expect((bad.body.detail as { type: string }[])[0]!.type).toBe('idempotency_key_invalid');
  // Exhaust the free tier of this address, then a keyed request is refused 429 (not stored): probeSpentHour, so
  // across a turn of the hour too.
  const ip = '203.0.113.15';
  const { refused, round } = await probeSpentHour(
    5,
    (i, round) =>
      postJson(rt.url('/convert/text'), { text: `Frase ${round}-${i}.` }, { 'x-forwarded-for': ip }),
    (round) =>
      postJson(
        rt.url('/convert/text'),
        { text: `Con clave ${round}.` },
        { 'x-forwarded-for': ip, 'idempotency-key': `after-limit-${round}` },
      ),
  );
  const retried = await convert(`Con clave ${round}.`, `after-limit-${round}`, ip);
  // Refused again in the spent hour; once the hour turned (a full window), the key works: allowed again.
  expect(retried.status).toBe(windowOf(retried) === windowOf(refused) ? 429 : 200);
  expect(retried.replayed).toBe(false);
});

test('documents render: a replay returns the same bytes and is not charged again', async () => {
  const body = {
    template: 'ventas',
    format: 'csv',
    data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 1 }] },
  };
  const post = (key?: string) =>
    fetch(rt.documentsUrl! + '/v1/render', {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-forwarded-for': '203.0.113.16',
        ...(key ? { 'idempotency-key': key } : {}),
      },
      body: JSON.stringify(body),
    });
  const first = await post('render-1');
  expect(first.status).toBe(200);
  // 50 a calendar month for this address (a turn of the month between two charges starts a full window).
  const charges = new Charges(50, 'month');
  expect(first.headers.get('ratelimit-remaining')).toBe(String(charges.add(first)));
  const bytes = Buffer.from(await first.arrayBuffer());
  const replay = await post('render-1');
  expect(replay.status).toBe(200);
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect(replay.headers.get('content-type')).toBe(first.headers.get('content-type'));
  expect(Buffer.from(await replay.arrayBuffer()).equals(bytes)).toBe(true);
  const fresh = await post();
  expect(fresh.headers.get('ratelimit-remaining')).toBe(String(charges.add(fresh)));
});

test('POST /convert/pdf/upload: 20 parallel requests with one key → one upload slot; replays name it; another body → 422', async () => {
  const ip = '203.0.113.17';
  const slot = (key?: string, body?: string) =>
    fetch(rt.url('/convert/pdf/upload'), {
      method: 'POST',
      headers: {
        'x-forwarded-for': ip,
        ...(key ? { 'idempotency-key': key } : {}),
        ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      ...(body !== undefined ? { body } : {}),
    }).then(async (res) => ({
      status: res.status,
      body: (await res.json()) as Record<string, unknown>,
      replayed: res.headers.get('idempotent-replayed') === 'true',
      headers: res.headers,
    }));
  const answers = await Promise.all(Array.from({ length: 20 }, () => slot('upload-1')));
  const created = answers.filter((a) => a.status === 201 && !a.replayed);
  const replays = answers.filter((a) => a.status === 201 && a.replayed);
  const busy = answers.filter((a) => a.status === 409);
  expect(created).toHaveLength(1);
  expect(replays.length + busy.length).toBe(19);
  for (const b of busy) expect(b.body).toMatchObject({ type: 'idempotency_key_in_use' });
  const uploadId = created[0]!.body.upload_id as string;
  expect(uploadId).toMatch(/^upl_/);
  for (const r of replays) expect(r.body).toEqual(created[0]!.body);
  // One slot charged against the anonymous 30 per hour: the next un-keyed slot leaves 28 (of its hour).
  const charges = new Charges(30);
  expect(created[0]!.headers.get('ratelimit-remaining')).toBe(String(charges.add(created[0]!)));
  const again = await slot('upload-1');
  expect(again).toMatchObject({ status: 201, replayed: true });
  expect(again.body.upload_id).toBe(uploadId);
  const other = await slot('upload-1', '{"note": "otro"}');
  expect(other.status).toBe(422);
  expect((other.body.detail as { type: string }[])[0]!.type).toBe('idempotency_key_reused');
  const fresh = await slot();
  expect(fresh.status).toBe(201);
  expect(fresh.body.upload_id).not.toBe(uploadId);
  expect(fresh.headers.get('ratelimit-remaining')).toBe(String(charges.add(fresh)));
});
