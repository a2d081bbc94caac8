// PDFs larger than one API request carries in AWS, over HTTP against the local runtime: POST /convert/pdf/upload →
// presigned POST of the file to S3 (s3rver) → POST /convert/pdf {upload_id} → audio (ffprobe). Also what is refused
// and how: the multipart route's 413 naming the upload path, a 25 MB upload (the local S3 emulator checks no POST
// policy, so the service's own check at conversion refuses it; the policy S3 enforces is checked here field by
// field, signature included), forged, foreign and reused ids, a file that is not a PDF, and two concurrent
// conversions of one id: one audio, one charge.
import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PutObjectCommand } from '@aws-sdk/client-s3';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { dynamo, s3Client } from '../../lambdas/shared/aws/clients';
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import type { WindowRule } from '../../lambdas/shared/quota/windows';
import { tempDir } from '../helpers/env';
import { ffprobe, postJson, startRuntime, waitForAudio, type TestRuntime } from '../helpers/runtime';
import { makeFixtures, type CleanFixture } from '../fixtures/pdf/make-fixtures';
import { makeLargePdf } from '../fixtures/pdf/large-pdf';

jest.setTimeout(180_000);

const MiB = 1024 * 1024;
const files = tempDir('e2e-pdf-upload-');
let rt: TestRuntime;
let clean: CleanFixture[];
let large: Buffer;
let quotas: DynamoQuotaStore;
const FREE: WindowRule[] = [
  { period: 'hour', limit: 4 },
  { period: 'day', limit: 100 },
];
const HOUR_MS = 3_600_000;

/**
 * The free-tier windows (fixed UTC hours, lambdas/shared/quota/windows.ts) that hold charge `id` of `ip`'s, among the
 * hours from `since` to now: a test may run across the turn of an hour, and then its charges are in two windows.
 */
async function chargedIn(ip: string, id: string, since: number): Promise<number[]> {
  const hours = [Math.floor(since / HOUR_MS), Math.floor(Date.now() / HOUR_MS)];
  const windows: number[] = [];
  for (let h = hours[0]!; h <= hours[1]!; h++)
    if (await quotas.hasCharge(ipSubject(ip), FREE, new Date(h * HOUR_MS), id)) windows.push(h);
  return windows;
}

beforeAll(async () => {
  // Forwarded addresses stand for different free-tier callers (each its own IP, its own allowance).
  rt = await startRuntime(
    { FREE_PER_HOUR: '4', FREE_PER_DAY: '100' },
    { trustProxy: true, documents: false },
  );
  quotas = new DynamoQuotaStore(dynamo(), rt.emulators.tableNames.quotas);
  ({ clean } = await makeFixtures());
  large = await makeLargePdf(19 * MiB);
});

afterAll(async () => {
  await stopPdfWorkers();
  await rt.stop();
  files.cleanup();
});

interface Slot {
  upload_id: string;
  upload: { method: 'POST'; url: string; fields: Record<string, string>; file_field: string };
  max_bytes: number;
  content_type: string;
  upload_expires_at: string;
  convert_by: string;
  convert: { method: string; path: string; body: { upload_id: string } };
}

const as = (ip: string) => ({ 'x-forwarded-for': ip });

async function newSlot(ip: string): Promise<Slot> {
  const res = await fetch(rt.url('/convert/pdf/upload'), { method: 'POST', headers: as(ip) });
  expect(res.status).toBe(201);
  expect(res.headers.get('cache-control')).toBe('no-store');
  return (await res.json()) as Slot;
}

/** What a browser form does: the signed fields, then the file, POSTed straight to S3. */
async function sendFile(slot: Slot, bytes: Buffer, type = 'application/pdf'): Promise<Response> {
  const form = new FormData();
  for (const [k, v] of Object.entries(slot.upload.fields)) form.append(k, v);
  form.append(slot.upload.file_field, new Blob([bytes], { type }), 'documento.pdf');
  return fetch(slot.upload.url, { method: 'POST', body: form });
}

const convert = (ip: string, body: Record<string, unknown>, query = '') =>
  postJson(rt.url(`/convert/pdf${query}`), body, as(ip));

const fixture = (name: string) => clean.find((f) => f.name === name)!.bytes;

async function detailOf(res: Response): Promise<string> {
  const body = (await res.json()) as { detail: unknown };
  expect(typeof body.detail).toBe('string');
  return body.detail as string;
}

test('the slot: a presigned POST whose policy binds the key, application/pdf, 1 byte..20 MiB, 15 minutes, signed', async () => {
  const before = Date.now();
  const slot = await newSlot('203.0.113.10');
  expect(slot.upload_id).toMatch(/^upl_[A-Za-z0-9_-]{22}$/);
  expect(slot.max_bytes).toBe(20 * MiB);
  expect(slot.convert).toEqual({ method: 'POST', path: '/convert/pdf', body: { upload_id: slot.upload_id } });
  expect(new URL(slot.upload.url).hostname).toBe('127.0.0.1'); // the local S3, path-style
  const f = slot.upload.fields;
  expect(f['key']).toBe(`uploads/${slot.upload_id}.pdf`);
  expect(f['Content-Type']).toBe('application/pdf');
  const policy = JSON.parse(Buffer.from(f['Policy']!, 'base64').toString('utf8')) as {
    expiration: string;
    conditions: unknown[];
  };
  const expires = Date.parse(policy.expiration);
  expect(expires - before).toBeGreaterThan(14 * 60_000);
  expect(expires - before).toBeLessThanOrEqual(15 * 60_000 + 5_000);
  expect(policy.conditions).toEqual(
    expect.arrayContaining([
      ['content-length-range', 1, 20 * MiB],
      { key: `uploads/${slot.upload_id}.pdf` },
      { 'Content-Type': 'application/pdf' },
      { bucket: new URL(slot.upload.url).pathname.slice(1) },
      { 'X-Amz-Algorithm': 'AWS4-HMAC-SHA256' },
    ]),
  );
  // SigV4 POST signature, recomputed independently: HMAC chain over date/region/s3/aws4_request, then the policy.
  const [accessKey, date, region, service] = f['X-Amz-Credential']!.split('/');
  expect([accessKey, service]).toEqual(['S3RVER', 's3']);
  const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();
  const signingKey = hmac(hmac(hmac(hmac('AWS4S3RVER', date!), region!), 's3'), 'aws4_request');
  expect(f['X-Amz-Signature']).toBe(createHmac('sha256', signingKey).update(f['Policy']!).digest('hex'));
});

test('a 19 MB PDF through the upload path becomes audio; the id then converts no more, and was charged once', async () => {
  const ip = '203.0.113.20';
  expect(large.length).toBeGreaterThan(19 * MiB - 64 * 1024);
  // Too large for one request: the multipart route says where to go instead.
  const form = new FormData();
  form.append('file', new Blob([large], { type: 'application/pdf' }), 'informe.pdf');
  const direct = await fetch(rt.url('/convert/pdf'), { method: 'POST', body: form, headers: as(ip) });
  expect(direct.status).toBe(413);
  expect(await detailOf(direct)).toMatch(/POST \/convert\/pdf\/upload.*upload_id/s);

  const slot = await newSlot(ip);
  expect((await sendFile(slot, large)).status).toBe(204);
  const startedAt = Date.now();
  // A 503 (the route's deadline on a loaded machine) gives the id back, uncharged, once the abandoned attempt has
  // stopped (until then: 409 "being converted"), or, when that attempt still finished, the 409 names its audio: a
  // client retries, as the 503 tells it. Bounded in time.
  const deadline = Date.now() + 90_000;
  let res = await convert(ip, { upload_id: slot.upload_id, voice: 'es-ES-Lucia' });
  let retried = false;
  while (Date.now() < deadline) {
    if (res.status !== 503 && res.status !== 409) break;
    if (res.status === 409 && 'audio_id' in ((await res.clone().json()) as object)) break;
    retried = true;
    await new Promise((r) => setTimeout(r, 1_000));
    res = await convert(ip, { upload_id: slot.upload_id, voice: 'es-ES-Lucia' });
  }
  // 5,300 characters: answered 200 when ready within the request, else 202 and finished by the worker.
  expect(retried ? [200, 202, 409] : [200, 202]).toContain(res.status);
  const answer = (await res.json()) as { audio_id: string; chars?: number; voice?: string; reused?: true };
  const body = { audio_id: answer.audio_id, audio_url: `/audio/${answer.audio_id}.mp3` };
  if (res.status !== 409) {
    // The first charge of this caller's hour; or, when an abandoned attempt's job was finished meanwhile, that
    // audio answers as a repeat (docs/reuse.md): charged by that attempt, so this answer carries no RateLimit-*.
    expect(res.headers.get('ratelimit-remaining')).toBe(answer.reused ? null : '3');
    expect(answer.voice).toBe('es-ES-Lucia');
    expect(answer.chars).toBeGreaterThan(4_000);
  }
  // A pending job answers 202 (or, held past the wait window, 307 to itself); the audio, 302 to S3.
  let redirect = await waitForAudio(rt.url(body.audio_url), 150_000);
  for (let i = 0; i < 10 && redirect.status === 307; i++)
    redirect = await waitForAudio(rt.url(body.audio_url), 150_000);
  expect(redirect.status).toBe(302);
  const path = join(files.path, 'informe.mp3');
  writeFileSync(path, Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer()));
  const probe = ffprobe(path);
  expect(probe.codec).toBe('mp3');
  expect(probe.duration).toBeGreaterThan(120);
  const ready = (await (
    await fetch(rt.url(body.audio_url), { headers: { accept: 'application/json' } })
  ).json()) as { duration_s: number };
  expect(Math.abs(ready.duration_s - probe.duration) / probe.duration).toBeLessThan(0.02);

  // Single use: the same id again is a 409 naming the audio it became, and nothing is charged.
  const again = await convert(ip, { upload_id: slot.upload_id });
  expect(again.status).toBe(409);
  const reused = (await again.json()) as { detail: string; audio_id: string };
  expect(reused.audio_id).toBe(body.audio_id);
  expect(reused.detail).toMatch(/already converted.*converts once/s);
  const next = await newSlot(ip);
  expect((await sendFile(next, fixture('carta'))).status).toBe(204);
  const second = await convert(ip, { upload_id: next.upload_id });
  expect(second.status).toBe(200);
  // Each audio was charged exactly once, in the window of the request that made it (an attempt answered 503 gave
  // its charge back, or kept it for the audio a repeat was given), and RateLimit-Remaining counts the charges of
  // the second's window: both, unless the UTC hour turned between the two (then the first is in the hour before).
  const firstIn = await chargedIn(ip, body.audio_id, startedAt);
  const secondIn = await chargedIn(ip, ((await second.json()) as { audio_id: string }).audio_id, startedAt);
  expect([firstIn.length, secondIn.length]).toEqual([1, 1]);
  const used = await Promise.all(
    [...new Set([...firstIn, ...secondIn])].map(
      async (h) => (await quotas.peek(ipSubject(ip), FREE, new Date(h * HOUR_MS)))[0]!.used,
    ),
  );
  expect(used.reduce((a, b) => a + b, 0)).toBe(2);
  expect(second.headers.get('ratelimit-remaining')).toBe(firstIn[0] === secondIn[0] ? '2' : '3');
});

test('over 20 MB: S3 refuses it by the policy; the local S3 does not, so the conversion does (422), uncharged', async () => {
  const ip = '203.0.113.30';
  // 21 MB through the presigned form: S3 would answer EntityTooLarge; the emulator stores it.
  const slot = await newSlot(ip);
  expect((await sendFile(slot, Buffer.concat([large, large.subarray(0, 2 * MiB)]))).status).toBe(204);
  const res = await convert(ip, { upload_id: slot.upload_id });
  expect(res.status).toBe(422);
  const { detail } = (await res.json()) as { detail: { loc: string[]; msg: string; type: string }[] };
  expect(detail).toEqual([
    {
      loc: ['body', 'upload_id'],
      msg: expect.stringMatching(/over the 20 MB limit/),
      type: 'file_too_large',
    },
  ]);
  // The oversize file was deleted: the id now has nothing uploaded.
  expect((await convert(ip, { upload_id: slot.upload_id })).status).toBe(409);

  // 25 MB: the emulator drops a POST that large (connection reset above ~24 MiB, its own limit, not the policy),
  // so the object is stored directly, as a store ignoring the policy would keep it; the conversion refuses it.
  const big = Buffer.concat([large, large.subarray(0, 6 * MiB)]);
  expect(big.length).toBeGreaterThan(25 * MiB - MiB);
  const slot25 = await newSlot(ip);
  await s3Client().send(
    new PutObjectCommand({
      Bucket: rt.emulators.bucket,
      Key: slot25.upload.fields['key'],
      Body: big,
      ContentType: 'application/pdf',
    }),
  );
  const res25 = await convert(ip, { upload_id: slot25.upload_id });
  expect(res25.status).toBe(422);
  expect(((await res25.json()) as { detail: { type: string }[] }).detail[0]!.type).toBe('file_too_large');

  // Nothing was charged: this caller's first real conversion still finds the whole allowance.
  const ok = await newSlot(ip);
  await sendFile(ok, fixture('carta'));
  const first = await convert(ip, { upload_id: ok.upload_id });
  expect(first.status).toBe(200);
  expect(first.headers.get('ratelimit-remaining')).toBe('3');
});

describe('ids that do not convert, with the reason', () => {
  test('a forged id (well-formed, never issued): 404; a malformed one: 422 at body.upload_id', async () => {
    const res = await convert('203.0.113.40', { upload_id: 'upl_AAAAAAAAAAAAAAAAAAAAAA' });
    expect(res.status).toBe(404);
    expect(await detailOf(res)).toMatch(/Unknown upload_id.*POST \/convert\/pdf\/upload/);
    const bad = await convert('203.0.113.40', { upload_id: '../uploads/x' });
    expect(bad.status).toBe(422);
    expect(((await bad.json()) as { detail: { loc: string[] }[] }).detail[0]!.loc).toEqual([
      'body',
      'upload_id',
    ]);
  });

  test("someone else's id: 403 (another IP address), while its owner converts it", async () => {
    const slot = await newSlot('203.0.113.50');
    await sendFile(slot, fixture('carta'));
    const res = await convert('203.0.113.51', { upload_id: slot.upload_id });
    expect(res.status).toBe(403);
    expect(await detailOf(res)).toMatch(/issued to another caller/);
    expect((await convert('203.0.113.50', { upload_id: slot.upload_id })).status).toBe(200);
  });

  test('nothing uploaded yet: 409 saying to POST the file first; not a PDF: 422 not_pdf, the id still usable', async () => {
    const ip = '203.0.113.60';
    const slot = await newSlot(ip);
    const missing = await convert(ip, { upload_id: slot.upload_id });
    expect(missing.status).toBe(409);
    expect(await detailOf(missing)).toMatch(/Nothing was uploaded/);
    await sendFile(slot, Buffer.from('Hola, esto es texto plano y no un PDF.\n'.repeat(20)));
    const notPdf = await convert(ip, { upload_id: slot.upload_id });
    expect(notPdf.status).toBe(422);
    const { detail } = (await notPdf.json()) as { detail: { loc: string[]; type: string }[] };
    expect(detail[0]).toMatchObject({ loc: ['body', 'upload_id'], type: 'not_pdf' });
    // The form is still valid: the right file under the same id converts (form-urlencoded, like the contract's examples).
    await sendFile(slot, fixture('carta'));
    const res = await fetch(rt.url('/convert/pdf'), {
      method: 'POST',
      headers: { ...as(ip), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ upload_id: slot.upload_id, fmt: 'ogg' }).toString(),
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { audio_url: string }).audio_url).toMatch(/\.ogg$/);
  });

  test('?dry_run=true previews an upload without using it up', async () => {
    const ip = '203.0.113.70';
    const slot = await newSlot(ip);
    await sendFile(slot, fixture('carta'));
    const preview = await convert(ip, { upload_id: slot.upload_id }, '?dry_run=true');
    expect(preview.status).toBe(200);
    expect(((await preview.json()) as { dry_run: boolean }).dry_run).toBe(true);
    expect((await convert(ip, { upload_id: slot.upload_id })).status).toBe(200);
  });

  test('two concurrent conversions of one id: one audio, one 409, one charge', async () => {
    const ip = '203.0.113.80';
    const slot = await newSlot(ip);
    await sendFile(slot, fixture('carta'));
    const answers = await Promise.all([1, 2].map(() => convert(ip, { upload_id: slot.upload_id })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 409]);
    const ok = answers.find((r) => r.status === 200)!;
    expect(ok.headers.get('ratelimit-remaining')).toBe('3');
  });
});

test('the multipart route still converts files that fit in one request', async () => {
  const form = new FormData();
  form.append('file', new Blob([fixture('carta')], { type: 'application/pdf' }), 'carta.pdf');
  const res = await fetch(rt.url('/convert/pdf'), {
    method: 'POST',
    body: form,
    headers: as('203.0.113.90'),
  });
  expect(res.status).toBe(200);
});
