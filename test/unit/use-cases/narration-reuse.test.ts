// "Nothing narrated twice" (core/reuse.ts, startConversion): an identical request of the same caller is answered
// with the earlier audio — no synthesis, no job, no charge — and anything that changes the audio (text, voice,
// engine, loudness, format, lexicon entries, SSML, retention, caller) is a new conversion. Against the in-memory
// fakes.
import { startConversion } from '../../../lambdas/narration/use-cases/conversion';
import type { ConversionInput } from '../../../lambdas/narration/use-cases/conversion-input';
import { freeRules } from '../../../lambdas/narration/use-cases/free-charge';
import { runJob } from '../../../lambdas/narration/use-cases/narration-job';
import { Abandoned } from '../../../lambdas/narration/use-cases/job-answers';
import { Unavailable } from '../../../lambdas/shared/errors';
import { deleteAudio } from '../../../lambdas/narration/use-cases/data-control';
import { normalizeForReuse, reuseKey, stillReusable } from '../../../lambdas/narration/core/reuse';
import { VOICES, findVoice, withEngine } from '../../../lambdas/narration/core/voices';
import type { ApiKeyRecord } from '../../../lambdas/shared/auth/keys';
import { fakeNarrationDeps } from '../../fakes/narration';

const T0 = new Date('2026-11-21T10:00:00Z');
const [mia, lucia] = [VOICES.find((v) => v.id === 'es-MX-Mia')!, VOICES.find((v) => v.id === 'es-ES-Lucia')!];
const anonymous = { kind: 'anonymous' as const, subject: 'ip#test' };
const otherIp = { kind: 'anonymous' as const, subject: 'ip#other' };
const paid = {
  kind: 'key' as const,
  subject: 'key#test',
  key: { plan: 'pro', keyHash: 'f'.repeat(64) } as ApiKeyRecord,
};

function setup(opts: { reuse?: boolean; now?: () => Date } = {}) {
  let now = T0;
  const f = fakeNarrationDeps({
    config: { SYNC_MAX_CHARS: 60, FREE_PER_HOUR: 50, FREE_PER_DAY: 50, WAIT_WINDOW_S: 0 },
    now: opts.now ?? (() => now),
    reuse: opts.reuse ?? true,
  });
  const input = (text: string, over: Partial<ConversionInput> = {}): ConversionInput => ({
    text,
    voice: mia,
    fmt: 'mp3',
    caller: anonymous,
    ...over,
  });
  const used = async () =>
    (await f.quotas.peek(anonymous.subject, freeRules(f.deps), now)).map((w) => w.used);
  return { ...f, input, used, setNow: (d: Date) => (now = d) };
}

test('the same text twice: the second answer is the first audio, not synthesized again, not charged again', async () => {
  const s = setup();
  const first = await startConversion(s.deps, s.input('Hola, esto es una prueba.'));
  expect(first.statusCode).toBe(200);
  const calls = s.synth.texts.length;
  const objects = s.store.objects.size;
  const second = await startConversion(s.deps, s.input('Hola, esto es una prueba.  \n'));
  expect(second.statusCode).toBe(200);
  expect(second.body).toMatchObject({
    audio_id: first.body.audio_id,
    audio_url: first.body.audio_url,
    duration_s: first.body.duration_s,
    chars: first.body.chars,
    reused: true,
  });
  expect(first.body.reused).toBeUndefined();
  expect(s.synth.texts.length).toBe(calls); // no synthesis
  expect(s.store.objects.size).toBe(objects); // no new object
  expect(await s.used()).toEqual([1, 1]); // one charge
});

test('negative controls: another text, voice, engine, loudness, format, lexicon, retention or caller is narrated anew', async () => {
  const s = setup();
  const text = 'El coche rojo.';
  const base = await startConversion(s.deps, s.input(text));
  const lexicon = [{ grapheme: 'coche', alias: 'carro' }];
  const variants: Partial<ConversionInput>[] = [
    { text: 'El coche azul.' },
    { voice: lucia },
    { fmt: 'ogg' },
    { speech: { lexicon } },
    { speech: { lexicon: [{ grapheme: 'coche', alias: 'auto' }] } }, // the lexicon edited: a new version
    { voice: withEngine(mia, 'generative')!, speech: { engine: 'generative' } }, // the voice's other engine
    { speech: { loudness: -20 } }, // another loudness target
    { speech: { loudness: 'off' } }, // the engine's own level
    { ttlDays: 7 },
    { caller: otherIp },
    { caller: paid },
    { reuse: false },
  ];
  const ids = new Set([base.body.audio_id]);
  for (const v of variants) {
    const out = await startConversion(s.deps, s.input(v.text ?? text, v));
    expect(out.body.reused).toBeUndefined();
    ids.add(out.body.audio_id);
  }
  expect(ids.size).toBe(variants.length + 1);
});

test('the default loudness asked for by name (-16) is the same request as none: reused', async () => {
  const s = setup();
  const first = await startConversion(s.deps, s.input('Sin pedir nivel.'));
  const named = await startConversion(s.deps, s.input('Sin pedir nivel.', { speech: { loudness: -16 } }));
  expect(named.body).toMatchObject({ audio_id: first.body.audio_id, reused: true });
});

test('a long text still queued: the repeat names the same job and queues nothing', async () => {
  const s = setup();
  const text = 'Un texto largo que no cabe en la petición y va a la cola. '.repeat(3);
  const first = await startConversion(s.deps, s.input(text, { caller: paid }));
  expect(first.statusCode).toBe(202);
  const second = await startConversion(s.deps, s.input(text, { caller: paid }));
  expect(second).toMatchObject({
    statusCode: 202,
    body: { audio_id: first.body.audio_id, status: 'queued', reused: true },
  });
  expect(s.queue.sent).toHaveLength(1);
});

test('a deleted audio is not reused (the repeat narrates anew); a failed one neither', async () => {
  const s = setup();
  const first = await startConversion(s.deps, s.input('Borrar y volver a pedir.', { caller: paid }));
  await deleteAudio(s.deps, first.body.audio_id as string, paid, '127.0.0.1');
  const again = await startConversion(s.deps, s.input('Borrar y volver a pedir.', { caller: paid }));
  expect(again.statusCode).toBe(200);
  expect(again.body.audio_id).not.toBe(first.body.audio_id);
  expect(again.body.reused).toBeUndefined();
  s.audio.items.get(again.body.audio_id as string)!.status = 'failed'; // e.g. a worker gave up on it
  const third = await startConversion(s.deps, s.input('Borrar y volver a pedir.', { caller: paid }));
  expect(third.body.audio_id).not.toBe(again.body.audio_id);
});

describe('the reuse race (docs/reuse.md "A reuse holds the job"), played in order by a held engine call', () => {
  /** A narrates inside its request and is held in its engine call; resolves with A's outcome (or its error). */
  async function heldFirst(s: ReturnType<typeof setup>, text: string) {
    const held = s.synth.faults.hold('synthesize');
    const cut = new AbortController();
    const first = startConversion(s.deps, s.input(text, { signal: cut.signal })).catch((e: Error) => e);
    await held.reached; // A's job is durable and charged, its narration under way
    const id = [...s.audio.items.keys()][0]!;
    /** The route's deadline: A is answered 503 (the signal), then its engine call returns. */
    const answer503 = async () => {
      cut.abort();
      held.release();
      return first;
    };
    return { id, answer503 };
  }

  test('an identical request answered 202 with the job, then the job’s own request answers 503: the worker finishes it, charged once', async () => {
    const s = setup();
    const text = 'Dos pedidos iguales a la vez.';
    const a = await heldFirst(s, text);
    const b = await startConversion(s.deps, s.input(text)); // WAIT_WINDOW_S 0: answered at once
    expect(b).toMatchObject({ statusCode: 202, body: { audio_id: a.id, status: 'queued', reused: true } });
    // A's backstop: a message that shows up after A's deadline (35 s), for a request that dies (queueBackstop).
    expect(s.queue.sent).toEqual([
      { message: { audioId: a.id, backstop: true }, priority: false, delayS: 35 },
    ]);
    expect(await a.answer503()).toBeInstanceOf(Abandoned); // the 503's error
    expect(s.audio.items.get(a.id)).toMatchObject({ status: 'queued', referenced: true }); // not retired
    expect(s.queue.sent.map((m) => [m.message.audioId, m.delayS])).toEqual([
      [a.id, 35],
      [a.id, undefined], // handed over at once by A
    ]);
    expect(await s.used()).toEqual([1, 1]); // A's charge stays: the caller gets this audio through B's answer
    expect(await runJob(s.deps, a.id, 1, findVoice)).toBe('done');
    expect(await runJob(s.deps, a.id, 1, findVoice)).toBe('skipped'); // the second message: no work
    expect(s.audio.items.get(a.id)).toMatchObject({ status: 'done' });
    expect(await s.used()).toEqual([1, 1]); // charged once
    const again = await startConversion(s.deps, s.input(text));
    expect(again).toMatchObject({ statusCode: 200, body: { audio_id: a.id, reused: true } });
  });

  test('the job’s own request fails instead (a backing service) while an identical request holds the job: its 503 says the attempt stays counted once, and it does', async () => {
    const s = setup();
    const text = 'Un pedido que falla mientras otro igual lo espera.';
    const held = s.synth.faults.hold('synthesize');
    const first = startConversion(s.deps, s.input(text)).catch((e: Error) => e);
    await held.reached;
    const id = [...s.audio.items.keys()][0]!;
    const b = await startConversion(s.deps, s.input(text));
    expect(b).toMatchObject({ statusCode: 202, body: { audio_id: id, reused: true } });
    s.store.faults.fail('putAudioFile'); // A's audio cannot be stored
    held.release();
    const err = await first;
    expect(err).toBeInstanceOf(Unavailable);
    expect((err as Error).message).toMatch(/stays counted once against your limits; please retry/);
    expect(await s.used()).toEqual([1, 1]); // true: the charge stays with the job B was given
    expect(s.audio.items.get(id)).toMatchObject({ status: 'queued', referenced: true });
    // Negative control: the same failure with nobody holding the job retires it and says "not counted" (true).
    const alone = setup();
    const held2 = alone.synth.faults.hold('synthesize');
    const lone = startConversion(alone.deps, alone.input(text)).catch((e: Error) => e);
    await held2.reached;
    alone.store.faults.fail('putAudioFile');
    held2.release();
    expect(((await lone) as Error).message).toMatch(/this attempt was not counted against your limits/);
    expect(await alone.used()).toEqual([0, 0]);
  });

  test('negative controls: no identical request → the 503 retires the job and gives the charge back; a repeat after that is a new conversion', async () => {
    const s = setup();
    const text = 'Un pedido que nadie más hizo.';
    const a = await heldFirst(s, text);
    expect(await a.answer503()).toBeInstanceOf(Abandoned); // the 503's error
    expect(s.audio.items.get(a.id)).toMatchObject({ status: 'failed' });
    expect(s.queue.sent).toEqual([
      { message: { audioId: a.id, backstop: true }, priority: false, delayS: 35 },
    ]); // its backstop
    expect(await runJob(s.deps, a.id, 1, findVoice)).toBe('skipped'); // finds it retired: no work
    expect(await s.used()).toEqual([0, 0]);
    // The retire came first: the repeat cannot hold the failed job and is narrated (and charged) as its own.
    const b = await startConversion(s.deps, s.input(text));
    expect(b).toMatchObject({ statusCode: 200 });
    expect(b.body.audio_id).not.toBe(a.id);
    expect(b.body.reused).toBeUndefined();
    expect(await s.used()).toEqual([1, 1]);
  });
});

test('past half of its retention an audio is not handed out again: a fresh one is made', async () => {
  const s = setup();
  const first = await startConversion(s.deps, s.input('Una noticia de hace días.', { ttlDays: 10 }));
  s.setNow(new Date(T0.getTime() + 4 * 86400_000));
  const early = await startConversion(s.deps, s.input('Una noticia de hace días.', { ttlDays: 10 }));
  expect(early.body.audio_id).toBe(first.body.audio_id);
  s.setNow(new Date(T0.getTime() + 6 * 86400_000));
  const late = await startConversion(s.deps, s.input('Una noticia de hace días.', { ttlDays: 10 }));
  expect(late.body.audio_id).not.toBe(first.body.audio_id);
});

test('a failing index never fails a conversion: it narrates (a miss)', async () => {
  const s = setup();
  s.reuse.faults.fail('find', new Error('throttled'));
  s.reuse.faults.fail('remember', new Error('throttled'));
  const out = await startConversion(s.deps, s.input('Aunque el índice falle.'));
  expect(out.statusCode).toBe(200);
});

test('the key: stable, sensitive to every field, blind to trailing whitespace and Unicode composition', () => {
  const k = {
    owner: 'acct:cus_1',
    text: 'Canción',
    voice: 'es-MX-Mia',
    fmt: 'mp3',
    engine: 'polly',
    voiceEngine: 'neural',
    loudness: -16,
    retentionDays: 30,
  };
  expect(reuseKey(k)).toMatch(/^[0-9a-f]{64}$/);
  expect(reuseKey({ ...k, text: 'Cancio\u0301n \n' })).toBe(reuseKey(k));
  expect(normalizeForReuse(' a ')).toBe(' a'); // leading text kept: the timings' offsets stay valid
  for (const change of [
    { owner: 'ip#x' },
    { text: 'canción' },
    { voice: 'es-ES-Lucia' },
    { fmt: 'wav' },
    { engine: 'espeak' },
    { voiceEngine: 'generative' },
    { loudness: -14 },
    { loudness: 'off' as const },
    { retentionDays: 7 },
    { title: 'T' },
    { headings: [{ text: 'H', offset: 0 }] },
    { speech: { textType: 'ssml' as const } },
    { speech: { lexicon: [{ grapheme: 'a', alias: 'b' }] } },
  ])
    expect(reuseKey({ ...k, ...change })).not.toBe(reuseKey(k));
  const rec = { createdAt: T0.toISOString(), expiresAt: T0.getTime() / 1000 + 10 * 86400 };
  expect(stillReusable(rec, new Date(T0.getTime() + 5 * 86400_000))).toBe(true);
  expect(stillReusable(rec, new Date(T0.getTime() + 5 * 86400_000 + 1000))).toBe(false);
});
