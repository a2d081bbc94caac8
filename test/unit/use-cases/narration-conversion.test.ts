// The conversion use case (startConversion) against the in-memory fakes: short texts are narrated in the request,
// long ones stored and queued; the free tier is charged once and given back whenever nothing was delivered.
import { startConversion } from '../../../lambdas/narration/use-cases/conversion';
import type { ConversionInput } from '../../../lambdas/narration/use-cases/conversion-input';
import { VOICES } from '../../../lambdas/narration/core/voices';
import type { ApiKeyRecord } from '../../../lambdas/shared/auth/keys';
import { Unavailable, QuotaExceeded } from '../../../lambdas/shared/errors';
import { freeRules } from '../../../lambdas/narration/use-cases/free-charge';
import { runJob } from '../../../lambdas/narration/use-cases/narration-job';
import { findVoice } from '../../../lambdas/narration/core/voices';
import { fakeNarrationDeps } from '../../fakes/narration';
import { audioOwner } from '../../../lambdas/narration/use-cases/data-control';
import { audioEventIdFor } from '../../../lambdas/narration/use-cases/webhooks';

const T0 = new Date('2026-11-21T10:00:00Z');
const voice = VOICES[0]!;
const anonymous = { kind: 'anonymous' as const, subject: 'ip#test' };
const paid = {
  kind: 'key' as const,
  subject: 'key#test',
  key: { plan: 'pro', keyHash: 'f'.repeat(64) } as ApiKeyRecord,
};

function setup(config: { WAIT_WINDOW_S?: number } = {}) {
  // No worker runs here unless a test starts one: by default the window is 0 (answer 202 at once).
  const f = fakeNarrationDeps({
    config: { SYNC_MAX_CHARS: 40, FREE_PER_HOUR: 2, WAIT_WINDOW_S: 0, ...config },
    now: () => T0,
  });
  const input = (text: string, caller: ConversionInput['caller'] = anonymous): ConversionInput => ({
    text,
    voice,
    fmt: 'wav',
    caller,
  });
  const used = async () => (await f.quotas.peek(anonymous.subject, freeRules(f.deps), T0)).map((w) => w.used);
  return { ...f, input, used };
}

test('a short text is narrated in the request: 200, audio stored, record done, one unit charged', async () => {
  const s = setup();
  const out = await startConversion(s.deps, s.input('Hola mundo.'));
  expect(out.statusCode).toBe(200);
  const id = out.body.audio_id as string;
  expect(out.body).toMatchObject({ audio_url: `/audio/${id}.wav`, voice: voice.id, chars: 11 });
  expect(out.body.duration_s).toBeGreaterThan(0);
  expect(s.store.objects.get(`audio/${id}.wav`)!.subarray(0, 4).toString()).toBe('RIFF');
  expect(await s.audio.get(id)).toMatchObject({ status: 'done', progress: 1, chars: 11, plan: 'free' });
  // Only the free job's backstop: a message that shows up after the request's deadline (the worker skips it: done).
  expect(s.queue.sent).toEqual([{ message: { audioId: id, backstop: true }, priority: false, delayS: 35 }]);
  expect(await runJob(s.deps, id, 1, findVoice)).toBe('skipped');
  expect(await s.used()).toEqual([1, 1]);
  expect(out.headers['ratelimit-remaining']).toBe('1');
});

test('a long text is stored and queued: 202, record queued, standard queue for free, priority for paid', async () => {
  const s = setup();
  const text = 'Un texto largo que no cabe en la petición. '.repeat(3);
  const free = await startConversion(s.deps, s.input(text));
  expect(free).toMatchObject({ statusCode: 202, body: { status: 'queued', progress: 0, duration_s: null } });
  const id = free.body.audio_id as string;
  expect(free.headers.location).toBe(`/audio/${id}.wav`);
  expect(s.store.objects.get(`jobs/${id}.txt`)!.toString()).toBe(text);
  expect(await s.audio.get(id)).toMatchObject({ status: 'queued', progress: 0 });
  const byKey = await startConversion(s.deps, s.input(text, paid));
  expect(s.queue.sent).toEqual([
    { message: { audioId: id, backstop: true }, priority: false, delayS: 35 }, // the free job's backstop
    { message: { audioId: id }, priority: false },
    { message: { audioId: byKey.body.audio_id }, priority: true },
  ]);
  expect(s.synth.texts).toEqual([]); // nothing narrated in the request
  expect(await s.used()).toEqual([1, 1]); // paid keys are not charged
});

test('the free tier refuses with 429 past its limit, charging nothing', async () => {
  const s = setup();
  await startConversion(s.deps, s.input('Uno.'));
  await startConversion(s.deps, s.input('Dos.'));
  await expect(startConversion(s.deps, s.input('Tres.'))).rejects.toBeInstanceOf(QuotaExceeded);
  expect(await s.used()).toEqual([2, 2]);
  expect(s.audio.items.size).toBe(2);
});

test('a queue failure answers 503, gives the charge back and retires the record so it never runs', async () => {
  const s = setup();
  s.queue.faults.fail('enqueue', undefined, 2); // the queue is down: the backstop is not sent either
  await expect(startConversion(s.deps, s.input('x'.repeat(100)))).rejects.toBeInstanceOf(Unavailable);
  expect(await s.used()).toEqual([0, 0]);
  const [record] = s.audio.items.values();
  expect(record).toMatchObject({ status: 'failed', error: expect.stringMatching(/Not accepted/) });
  expect(await s.audio.listUnfinished(10)).toEqual([]);
});

test('a storage failure of a short text answers 503 and gives the charge back; its record is retired (failed)', async () => {
  const s = setup();
  s.store.faults.fail('putAudioFile');
  await expect(startConversion(s.deps, s.input('Hola.'))).rejects.toBeInstanceOf(Unavailable);
  expect(await s.used()).toEqual([0, 0]);
  // The free conversion was made durable before it was charged; the failure retires it (never served, never run).
  expect([...s.audio.items.values()].map((r) => r.status)).toEqual(['failed']);
});

describe('the wait window: a queued job that finishes in time answers 200', () => {
  const LONG = 'Un texto largo que no cabe en la petición. '.repeat(3);

  /** A worker: runs each enqueued job (after the request started waiting), like the SQS event source. */
  function withWorker(s: ReturnType<typeof setup>, fail = false) {
    const enqueue = s.queue.enqueue.bind(s.queue);
    s.queue.enqueue = async (message, priority, delayS) => {
      await enqueue(message, priority, delayS);
      if (delayS) return; // the free job's backstop shows up after the request's deadline
      if (fail) s.synth.faults.fail('synthesize');
      setTimeout(() => void runJob(s.deps, message.audioId, 3, findVoice).catch(() => undefined), 50);
    };
  }

  test('done within the window: 200 with the real duration, charged once, record done with timings', async () => {
    const s = setup({ WAIT_WINDOW_S: 10 });
    withWorker(s);
    const out = await startConversion(s.deps, s.input(LONG));
    expect(out.statusCode).toBe(200);
    const id = out.body.audio_id as string;
    expect(out.body.duration_s).toEqual(expect.any(Number));
    expect(out.body.duration_s).toBeGreaterThan(0);
    expect(out.body).not.toHaveProperty('status');
    expect(out.headers.location).toBeUndefined();
    expect(await s.audio.get(id)).toMatchObject({ status: 'done', timings: true });
    expect(s.store.objects.has(`audio/${id}/timings.json`)).toBe(true);
    expect(s.queue.sent.filter((m) => !m.delayS)).toHaveLength(1);
    expect(await s.used()).toEqual([1, 1]);
  });

  test('failed within the window: 503 and the charge given back', async () => {
    const s = setup({ WAIT_WINDOW_S: 10 });
    withWorker(s, true);
    await expect(startConversion(s.deps, s.input(LONG))).rejects.toBeInstanceOf(Unavailable);
    expect(await s.used()).toEqual([0, 0]);
  });

  // The window is timed on a virtual clock (jest's fake timers: setTimeout and Date), so these tests say exactly when
  // the answer comes whatever the machine's load. Promise jobs and I/O callbacks keep running for real.
  const virtualClock = () =>
    jest.useFakeTimers({ now: T0, doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  afterEach(() => jest.useRealTimers());
  /** The promise's outcome once it settles (undefined while pending). */
  function watch<T>(p: Promise<T>): { value?: T } {
    const w: { value?: T } = {};
    void p.then((v) => (w.value = v));
    return w;
  }

  test('not ready within the window: 202 as before, still charged once, job left to run', async () => {
    const s = setup({ WAIT_WINDOW_S: 0.3 });
    virtualClock();
    const answer = watch(startConversion(s.deps, s.input(LONG)));
    await jest.advanceTimersByTimeAsync(290);
    expect(answer.value).toBeUndefined(); // still inside the 300 ms window
    await jest.advanceTimersByTimeAsync(20);
    const out = answer.value!;
    expect(out).toMatchObject({ statusCode: 202, body: { status: 'queued', duration_s: null } });
    expect(await s.audio.get(out.body.audio_id as string)).toMatchObject({ status: 'queued' });
    expect(await s.used()).toEqual([1, 1]);
  });

  test("the window ends before the route's deadline", async () => {
    const s = setup({ WAIT_WINDOW_S: 25 });
    virtualClock();
    // 1.8 s left before the route's deadline: the wait ends with the margin to spare, long before the 25 s window.
    const answer = watch(startConversion(s.deps, { ...s.input(LONG), remainingMs: () => 1800 }));
    await jest.advanceTimersByTimeAsync(1800);
    expect(answer.value?.statusCode).toBe(202);
  });

  test('abandoned while waiting (the caller got its 503): charge given back, job retired', async () => {
    const s = setup({ WAIT_WINDOW_S: 10 });
    const abort = new AbortController();
    setTimeout(() => abort.abort(), 100);
    await expect(startConversion(s.deps, { ...s.input(LONG), signal: abort.signal })).rejects.toBeInstanceOf(
      Unavailable,
    );
    expect(await s.used()).toEqual([0, 0]);
    const [record] = s.audio.items.values();
    expect(record).toMatchObject({ status: 'failed' });
  });
});

describe('charges follow deliveries (a process that dies mid-request)', () => {
  /**
   * The paid caller's webhook, and a process that dies when its end first looks it up (after the done write):
   * `dead` resolves then; that end never finishes.
   */
  async function dieLookingUpTheWebhook(s: ReturnType<typeof setup>): Promise<{ dead: Promise<void> }> {
    await s.webhooks.put({
      owner: audioOwner(paid),
      url: 'https://hooks.example/voz',
      events: ['audio.completed'],
      secret: 'whsec_test',
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      changedBy: 'test',
    });
    const get = s.webhooks.get.bind(s.webhooks);
    let died!: () => void;
    const dead = new Promise<void>((r) => (died = r));
    s.webhooks.get = () => {
      s.webhooks.get = get;
      died();
      return new Promise(() => undefined); // killed while looking up the endpoint
    };
    return { dead };
  }

  /** The state a request leaves when its process dies after making the job durable, charged or not yet. */
  async function orphan(s: ReturnType<typeof setup>, charged: boolean): Promise<string> {
    const audioId = 'orphan-' + (charged ? 'charged' : 'uncharged');
    await s.store.putJobText(audioId, 'Hola mundo.');
    await s.audio.create({
      audioId,
      status: 'queued',
      voice: voice.id,
      fmt: 'wav',
      chars: 11,
      plan: 'free',
      owner: anonymous.subject,
      createdAt: T0.toISOString(),
      updatedAt: T0.toISOString(),
      expiresAt: Math.floor(T0.getTime() / 1000) + 86400,
      progress: 0,
      charge: { subject: anonymous.subject, rules: freeRules(s.deps) },
    });
    if (charged) await s.quotas.consume(anonymous.subject, freeRules(s.deps), T0, { id: audioId });
    return audioId;
  }

  test('charged before the crash → the worker finishes it, charged exactly once', async () => {
    const s = setup();
    const id = await orphan(s, true);
    expect(await runJob(s.deps, id, 1, findVoice)).toBe('done');
    expect(await s.used()).toEqual([1, 1]);
    // A second delivery of the same job changes nothing.
    expect(await runJob(s.deps, id, 2, findVoice)).toBe('skipped');
    expect(await s.used()).toEqual([1, 1]);
  });

  test('not charged before the crash → nobody was told of it: failed without narrating, nothing charged', async () => {
    const s = setup();
    const id = await orphan(s, false);
    expect(await runJob(s.deps, id, 1, findVoice)).toBe('skipped');
    expect(await s.audio.get(id)).toMatchObject({ status: 'failed' });
    expect(s.store.objects.has(`audio/${id}.wav`)).toBe(false);
    expect(await s.used()).toEqual([0, 0]);
  });

  test('a request that dies after charging, before queueing its job: the backstop brings it to the worker, charged once', async () => {
    const s = setup();
    const consume = s.quotas.consume.bind(s.quotas);
    let killed!: () => void;
    const charged = new Promise<void>((r) => (killed = r));
    s.quotas.consume = async (...args) => {
      await consume(...args);
      s.quotas.consume = consume; // the worker's charges go through
      killed();
      return new Promise(() => undefined); // the process is killed right after the charge
    };
    void startConversion(s.deps, s.input('Un texto largo que se cobra y luego se pierde. '.repeat(3)));
    await charged;
    expect(s.queue.sent).toHaveLength(1); // only the backstop: the request never queued its job
    const [backstop] = s.queue.sent;
    expect(backstop).toMatchObject({ priority: false, delayS: 35 });
    expect(await s.audio.get(backstop!.message.audioId)).toMatchObject({ status: 'queued' });
    expect(await runJob(s.deps, backstop!.message.audioId, 1, findVoice)).toBe('done');
    expect(await s.used()).toEqual([1, 1]);
  });

  test('a job that fails for good gives its charge back, once', async () => {
    const s = setup();
    const id = await orphan(s, true);
    s.synth.faults.fail('synthesize');
    await expect(runJob(s.deps, id, 3, findVoice)).rejects.toThrow();
    expect(await s.used()).toEqual([0, 0]);
  });

  test('an idempotent retry (same id) continues the conversion: same audio, charged once', async () => {
    const s = setup();
    const first = await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: 'idem-1' });
    const again = await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: 'idem-1' });
    expect(again.statusCode).toBe(200);
    expect(again.body.audio_id).toBe(first.body.audio_id);
    expect(again.body.duration_s).toBe(first.body.duration_s);
    expect(await s.used()).toEqual([1, 1]);
  });

  test('a retry whose first request died with its job queued finishes that job, charged once', async () => {
    const s = setup({ WAIT_WINDOW_S: 10 });
    const id = await orphan(s, true);
    const enqueue = s.queue.enqueue.bind(s.queue);
    s.queue.enqueue = async (message, priority) => {
      await enqueue(message, priority);
      setTimeout(() => void runJob(s.deps, message.audioId, 1, findVoice).catch(() => undefined), 20);
    };
    const out = await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: id });
    expect(out.statusCode).toBe(200);
    expect(out.body.audio_id).toBe(id);
    expect(await s.used()).toEqual([1, 1]);
  });

  // A restart re-queues the job of a request that died before charging it while that request's idempotent retry
  // arrives: the worker's check and the retry's charge interleave. Either the job is narrated and charged once, or
  // the retry starts a new conversion; never a 202 naming a job that then fails "not charged".
  test("the retry charges between the worker's check and its retirement: the worker narrates it, charged once", async () => {
    const s = setup();
    const id = await orphan(s, false);
    const hasCharge = s.quotas.hasCharge.bind(s.quotas);
    let retried: Awaited<ReturnType<typeof startConversion>> | undefined;
    s.quotas.hasCharge = async (...args) => {
      const found = await hasCharge(...args);
      retried ??= await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: id });
      return found;
    };
    expect(await runJob(s.deps, id, 1, findVoice)).toBe('done');
    expect(retried).toMatchObject({ statusCode: 202, body: { audio_id: id } });
    expect(await s.audio.get(id)).toMatchObject({ status: 'done' });
    expect(await s.used()).toEqual([1, 1]);
  });

  test("the worker retires it between the retry's read and its charge: the retry gives that charge back and starts anew", async () => {
    const s = setup();
    const id = await orphan(s, false);
    const consume = s.quotas.consume.bind(s.quotas);
    let worker: string | undefined;
    s.quotas.consume = async (...args) => {
      worker ??= await runJob(s.deps, id, 1, findVoice);
      return consume(...args);
    };
    const out = await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: id });
    expect(worker).toBe('skipped');
    expect(await s.audio.get(id)).toMatchObject({ status: 'failed' });
    expect(out.statusCode).toBe(200); // a short text: the new conversion is narrated in the request
    expect(out.body.audio_id).not.toBe(id);
    expect(await s.audio.get(String(out.body.audio_id))).toMatchObject({ status: 'done' });
    expect(await s.used()).toEqual([1, 1]); // the new conversion's one charge; the retired job's was given back
  });

  test('a retry whose first request died uncharged in an hour now full: a new conversion in the current hour', async () => {
    const s = setup();
    const id = await orphan(s, false);
    // The caller spent the orphan's hour meanwhile; the retry comes an hour later.
    await startConversion(s.deps, s.input('Uno.'));
    await startConversion(s.deps, s.input('Dos.'));
    const later = new Date(T0.getTime() + 3_600_000);
    s.deps.now = () => later;
    const out = await startConversion(s.deps, { ...s.input('Hola mundo.'), audioId: id });
    expect(out.statusCode).toBe(200);
    expect(out.body.audio_id).not.toBe(id);
    expect(out.headers['ratelimit-remaining']).toBe('1'); // the current hour's headers: one of two spent
    expect(await s.audio.get(id)).toMatchObject({ status: 'failed' });
    expect(await s.used()).toEqual([2, 3]); // the orphan's hour: the two others; the day: all three delivered
  });

  // A worker that dies between settling a job and ending it (jobEnded): SQS delivers the message again, and that
  // delivery finds the job settled. It must end it (charge, webhook, counters), each step once.
  test('a worker that dies after failing a job, before its end: the next delivery gives the charge back, counted once', async () => {
    const s = setup();
    const id = await orphan(s, true);
    s.synth.faults.fail('synthesize');
    const refund = s.quotas.refund.bind(s.quotas);
    let died!: () => void;
    const dead = new Promise<void>((r) => (died = r));
    let wakeUp!: () => void;
    s.quotas.refund = async (decision) => {
      s.quotas.refund = refund;
      died();
      await new Promise<void>((r) => (wakeUp = r)); // the worker stops here (killed, or stalled for good)
      return refund(decision);
    };
    const first = runJob(s.deps, id, 3, findVoice).catch(() => 'gave up');
    await dead;
    expect(await s.audio.get(id)).toMatchObject({ status: 'failed', ending: true });
    expect(await s.used()).toEqual([1, 1]);
    const failures = () => Number(s.growth.items.get('stats#failed')?.failed ?? 0);
    // The message comes back (the dead worker never acknowledged it): the end runs again.
    expect(await runJob(s.deps, id, 3, findVoice)).toBe('skipped');
    expect(await s.used()).toEqual([0, 0]);
    expect(failures()).toBe(1);
    expect(await s.audio.get(id)).not.toHaveProperty('ending');
    // Another delivery, and the stalled worker going on after all: nothing given back or counted twice.
    expect(await runJob(s.deps, id, 3, findVoice)).toBe('skipped');
    wakeUp();
    expect(await first).toBe('gave up');
    expect(await s.used()).toEqual([0, 0]);
    expect(failures()).toBe(1);
  });

  test('a worker that dies after completing a paid job, before its webhook: the next delivery queues it, counted once', async () => {
    const s = setup();
    const out = await startConversion(
      s.deps,
      s.input('Un texto de pago que termina y cuyo aviso se pierde. '.repeat(2), paid),
    );
    const id = String(out.body.audio_id);
    const { dead } = await dieLookingUpTheWebhook(s);
    void runJob(s.deps, id, 1, findVoice);
    await dead;
    expect(await s.audio.get(id)).toMatchObject({ status: 'done', ending: true });
    expect(s.deliveryQueue.sent).toEqual([]);
    expect(await runJob(s.deps, id, 2, findVoice)).toBe('skipped');
    expect(s.deliveryQueue.sent).toEqual([
      {
        message: { audioId: id, eventId: audioEventIdFor(id, 'audio.completed'), type: 'audio.completed' },
        delayS: 0,
      },
    ]);
    expect(await runJob(s.deps, id, 3, findVoice)).toBe('skipped');
    expect(s.deliveryQueue.sent).toHaveLength(1);
    expect(s.growth.items.get('stats#totals')).toMatchObject({ conversions: 1, chars: out.body.chars });
  });
  test('a paid request that dies after its done write, before its end: its backstop ends it, counted once', async () => {
    const s = setup();
    const { dead } = await dieLookingUpTheWebhook(s);
    void startConversion(s.deps, s.input('Corto y de pago.', paid)); // narrated in the request (≤ 40 chars)
    await dead;
    // Its only message: the backstop, on the paid queue, due after the request's deadline.
    expect(s.queue.sent).toHaveLength(1);
    const [sent] = s.queue.sent;
    expect(sent).toMatchObject({ message: { backstop: true }, priority: true, delayS: 35 });
    const id = sent!.message.audioId;
    expect(await s.audio.get(id)).toMatchObject({ status: 'done', ending: true });
    expect(s.deliveryQueue.sent).toEqual([]);
    expect(s.growth.items.get('stats#totals')).toBeUndefined();
    // The backstop's delivery ends it: the webhook queued and the conversion counted, once.
    expect(await runJob(s.deps, id, 1, findVoice, true)).toBe('skipped');
    expect(await s.audio.get(id)).not.toHaveProperty('ending');
    expect(s.deliveryQueue.sent).toEqual([
      {
        message: { audioId: id, eventId: audioEventIdFor(id, 'audio.completed'), type: 'audio.completed' },
        delayS: 0,
      },
    ]);
    expect(s.growth.items.get('stats#totals')).toMatchObject({ conversions: 1, chars: 16 });
    expect(await runJob(s.deps, id, 2, findVoice, true)).toBe('skipped');
    expect(s.deliveryQueue.sent).toHaveLength(1);
    expect(s.growth.items.get('stats#totals')).toMatchObject({ conversions: 1 });
  });

  test('a paid request that ends normally, or fails, leaves its backstop nothing to do', async () => {
    const s = setup();
    const ok = await startConversion(s.deps, s.input('Pago que termina bien.', paid));
    expect(ok.statusCode).toBe(200);
    s.store.faults.fail('putAudioFile');
    await expect(startConversion(s.deps, s.input('Pago que falla al guardar.', paid))).rejects.toThrow();
    expect(s.queue.sent.map((m) => m.message.backstop)).toEqual([true, true]);
    const [done, lost] = s.queue.sent.map((m) => m.message.audioId);
    expect(done).toBe(ok.body.audio_id);
    const before = s.deliveryQueue.sent.length;
    expect(await runJob(s.deps, done!, 1, findVoice, true)).toBe('skipped');
    expect(await runJob(s.deps, lost!, 1, findVoice, true)).toBe('skipped'); // no record: nothing to end
    expect(await s.audio.get(lost!)).toBeUndefined();
    expect(s.deliveryQueue.sent).toHaveLength(before);
    expect(s.growth.items.get('stats#totals')).toMatchObject({ conversions: 1 });
  });
});
