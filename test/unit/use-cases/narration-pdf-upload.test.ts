// The PDF upload use case (use-cases/pdf-upload.ts) against the in-memory fakes, with a clock: slot limits,
// expiry (410), and the single-use claim around a conversion — released when the conversion fails (nothing charged,
// the caller may retry), kept and noted when it succeeds. The HTTP path is test/e2e/convert-pdf-upload.test.ts.
import { startConversion } from '../../../lambdas/narration/use-cases/conversion';
import { runJob } from '../../../lambdas/narration/use-cases/narration-job';
import {
  CONVERT_WINDOW_S,
  FREE_UPLOAD_SLOTS,
  UPLOAD_WINDOW_S,
  convertUploadOnce,
  createPdfUpload,
  loadUploadedPdf,
} from '../../../lambdas/narration/use-cases/pdf-upload';
import { VOICES, findVoice } from '../../../lambdas/narration/core/voices';
import { Unavailable, QuotaExceeded } from '../../../lambdas/shared/errors';
import { toHttpError } from '../../../lambdas/shared/http/errors';
import type { ApiKeyRecord } from '../../../lambdas/shared/auth/keys';
import type { Caller } from '../../../lambdas/shared/auth/resolve-caller';
import { fakeNarrationDeps } from '../../fakes/narration';
import { rejectsAsHttp } from '../../helpers/as-http';

const MiB = 1024 * 1024;
const anonymous = { kind: 'anonymous' as const, subject: 'ip#a' };
const other = { kind: 'anonymous' as const, subject: 'ip#b' };
const paid = {
  kind: 'key' as const,
  subject: 'key#k',
  key: { plan: 'pro', keyHash: 'f'.repeat(64) } as ApiKeyRecord,
};

const T0 = new Date('2026-11-25T10:00:00Z');

function setup() {
  let now = T0;
  const f = fakeNarrationDeps({ config: { SYNC_MAX_CHARS: 100, FREE_PER_HOUR: 5 }, now: () => now });
  const convert =
    (caller: Caller = anonymous) =>
    () =>
      startConversion(f.deps, { text: 'Hola mundo.', voice: VOICES[0]!, fmt: 'wav', caller });
  return {
    ...f,
    convert,
    advance: (s: number) => (now = new Date(now.getTime() + s * 1000)),
  };
}

const status = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (e: unknown) => toHttpError(e)?.statusCode ?? e,
  );

test('a slot: presigned for 20 MiB and 15 minutes, owned by its caller, convertible for an hour', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, 20 * MiB);
  expect(s.uploads.presigned).toEqual([
    { uploadId: body.upload_id, maxBytes: 20 * MiB, expiresInS: UPLOAD_WINDOW_S },
  ]);
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({ owner: 'ip#a', status: 'pending' });
  expect(Date.parse(body.convert_by) - Date.parse(body.upload_expires_at)).toBe(
    (CONVERT_WINDOW_S - UPLOAD_WINDOW_S) * 1000,
  );
});

test('anonymous callers get a bounded number of slots per hour; paid keys are not counted', async () => {
  const s = setup();
  const limit = FREE_UPLOAD_SLOTS[0]!.limit;
  for (let i = 0; i < limit; i++) await createPdfUpload(s.deps, anonymous, MiB);
  await expect(createPdfUpload(s.deps, anonymous, MiB)).rejects.toBeInstanceOf(QuotaExceeded);
  await expect(createPdfUpload(s.deps, paid, MiB)).resolves.toBeDefined();
  // Slots are not conversions: the conversion allowance is untouched.
  const { body } = await createPdfUpload(s.deps, paid, MiB);
  s.uploads.files.set(body.upload_id, Buffer.from('%PDF-1.4'));
  expect((await convertUploadOnce(s.deps, body.upload_id, paid, s.convert(paid))).statusCode).toBe(200);
});

test('expired: 410 after the hour, even with the file there; refusals come in order owner → used → expiry', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, MiB);
  s.uploads.files.set(body.upload_id, Buffer.from('%PDF-1.4'));
  s.advance(CONVERT_WINDOW_S - 1);
  expect(await status(loadUploadedPdf(s.deps, body.upload_id, anonymous, MiB, '1 MB'))).toBe('ok');
  s.advance(1);
  expect(await status(loadUploadedPdf(s.deps, body.upload_id, anonymous, MiB, '1 MB'))).toBe(410);
  expect(await status(loadUploadedPdf(s.deps, body.upload_id, other, MiB, '1 MB'))).toBe(403);
  // The claim itself re-checks the expiry (a request that passed the first check just before the hour ends).
  expect(await status(convertUploadOnce(s.deps, body.upload_id, anonymous, s.convert()))).toBe(410);
  expect((await s.quotas.peek('ip#a', [{ period: 'hour', limit: 5 }], T0))[0]!.used).toBe(0);
});

test('nothing uploaded: 409 while the form still works, 410 once it expired', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, MiB);
  const load = () => status(loadUploadedPdf(s.deps, body.upload_id, anonymous, MiB, '1 MB'));
  expect(await load()).toBe(409);
  s.advance(UPLOAD_WINDOW_S);
  expect(await load()).toBe(410);
});

test('a conversion that fails gives the id back (nothing charged); the retry converts it once', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, MiB);
  s.uploads.files.set(body.upload_id, Buffer.from('%PDF-1.4'));
  s.store.faults.fail('putAudioFile', new Error('S3 down'));
  expect(await status(convertUploadOnce(s.deps, body.upload_id, anonymous, s.convert()))).toBe(503);
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({ status: 'pending' });
  // A 429 of the free tier releases it too.
  const refused = () => Promise.reject(new QuotaExceeded('Free tier limit reached', {}));
  expect(await status(convertUploadOnce(s.deps, body.upload_id, anonymous, refused))).toBe(429);
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({ status: 'pending' });

  const out = await convertUploadOnce(s.deps, body.upload_id, anonymous, s.convert());
  expect(out.statusCode).toBe(200);
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({
    status: 'used',
    convertedTo: out.body.audio_id,
  });
  expect(s.uploads.files.has(body.upload_id)).toBe(false); // the PDF is deleted once converted
  const again = convertUploadOnce(s.deps, body.upload_id, anonymous, s.convert());
  await expect(rejectsAsHttp(again)).resolves.toMatchObject({
    statusCode: 409,
    extra: { audio_id: out.body.audio_id },
  });
  // Charged exactly once over the three attempts.
  expect((await s.quotas.peek('ip#a', [{ period: 'hour', limit: 5 }], T0))[0]!.used).toBe(1);
});

test('someone else cannot claim, and a 503 inside their attempt never reaches the owner’s upload', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, MiB);
  s.uploads.files.set(body.upload_id, Buffer.from('%PDF-1.4'));
  const boom = () => Promise.reject(new Unavailable('down'));
  expect(await status(convertUploadOnce(s.deps, body.upload_id, other, boom))).toBe(403);
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({ status: 'pending', owner: 'ip#a' });
});

// A conversion sent with an Idempotency-Key claims the upload for its audio id; when its process dies holding the
// claim (here: held mid-narration, never to return), the retry with the same key must continue that conversion —
// not answer 409 "being converted by another request" forever while the job is narrated and charged for nobody.
test('the idempotent retry of a request that died holding the upload continues its conversion, charged once', async () => {
  const s = setup();
  const { body } = await createPdfUpload(s.deps, anonymous, MiB);
  s.uploads.files.set(body.upload_id, Buffer.from('%PDF-1.4'));
  // respondAsync: answer as soon as the job is queued (no wait window in a unit test).
  const convert = (caller: Caller, audioId: string) => () =>
    startConversion(s.deps, {
      text: 'Hola mundo.',
      voice: VOICES[0]!,
      fmt: 'wav',
      caller,
      audioId,
      respondAsync: true,
    });
  const held = s.synth.faults.hold('synthesize');
  void convertUploadOnce(s.deps, body.upload_id, anonymous, convert(anonymous, 'idem-a'), 'idem-a');
  await held.reached; // durable, charged, narrating: then the process dies (the hold is never released)
  // Another key (another audio id) of the same caller is still refused.
  const other = loadUploadedPdf(s.deps, body.upload_id, anonymous, MiB, '1 MiB', 'idem-b');
  expect(await status(other)).toBe(409);
  // The retry: the same key, so the same audio id.
  await loadUploadedPdf(s.deps, body.upload_id, anonymous, MiB, '1 MiB', 'idem-a');
  const out = await convertUploadOnce(
    s.deps,
    body.upload_id,
    anonymous,
    convert(anonymous, 'idem-a'),
    'idem-a',
  );
  expect(out).toMatchObject({ statusCode: 202, body: { audio_id: 'idem-a' } });
  expect(await s.uploadRecords.get(body.upload_id)).toMatchObject({ status: 'used', convertedTo: 'idem-a' });
  // The retry queued the job; the worker narrates it.
  expect(s.queue.sent.map((m) => [m.message.audioId, m.delayS])).toEqual([
    ['idem-a', 35], // the dead request's backstop
    ['idem-a', undefined],
  ]);
  expect(await runJob(s.deps, 'idem-a', 1, findVoice)).toBe('done');
  expect((await s.quotas.peek('ip#a', [{ period: 'hour', limit: 5 }], T0))[0]!.used).toBe(1);
  // Now converted: a further retry learns its audio from the 409.
  const again = convertUploadOnce(s.deps, body.upload_id, anonymous, convert(anonymous, 'idem-a'), 'idem-a');
  await expect(rejectsAsHttp(again)).resolves.toMatchObject({
    statusCode: 409,
    extra: { audio_id: 'idem-a' },
  });
});
