// ?dry_run=true: the preview costs nothing — no audio, no free-tier charge — and says what a conversion would do.
import { spendWindow } from '../helpers/quota-window';
import { postJson, startRuntime, type TestRuntime } from '../helpers/runtime';

jest.setTimeout(60_000);
let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime({ FREE_PER_HOUR: '1' }, { startWorker: false, documents: false });
});
afterAll(async () => rt.stop());

test('previews are free; the one real conversion allowed still goes through', async () => {
  for (let i = 0; i < 3; i++) {
    const res = await postJson(rt.url('/convert/text?dry_run=true'), {
      text: 'Capítulo 1\n\nEl 1.º de mayo pagué 15 %.',
      voice: 'es-ES-Lucia',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      dry_run: true,
      voice: 'es-ES-Lucia',
      fmt: 'mp3',
      delivery: 'sync',
      chapters: [{ title: 'Capítulo 1', offset: 0, start_s: 0 }],
    });
    expect(body.spoken_text).toContain('quince por ciento');
    expect(body.audio_id).toBeUndefined();
    expect(res.headers.get('ratelimit-limit')).toBeNull();
  }
  // One an hour, then 429 (spendWindow: across a turn of the hour too). Each text differs: a repeat would reuse
  // its audio, uncharged (docs/reuse.md).
  await spendWindow(1, (i) => postJson(rt.url('/convert/text'), { text: `Hola ${i}.` }));
});

test('a dry run validates like the real thing', async () => {
  const res = await postJson(rt.url('/convert/text?dry_run=true'), { text: '' });
  expect(res.status).toBe(422);
});
