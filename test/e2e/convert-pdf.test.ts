// POST /convert/pdf over HTTP against the local runtime: multipart upload → extraction in the worker thread →
// the same conversion as /convert/text (200 inline / 202 queued), free-tier limits included, and the 4xx answers
// for oversize (413 naming the upload path: test/e2e/convert-pdf-upload.test.ts), non-PDF, encrypted and wrongly
// encoded uploads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { tempDir } from '../helpers/env';
import { windowOf } from '../helpers/quota-window';
import { ffprobe, startRuntime, type TestRuntime } from '../helpers/runtime';
import { makeFixtures, type BrokenFixture, type CleanFixture } from '../fixtures/pdf/make-fixtures';

jest.setTimeout(120_000);

const MiB = 1024 * 1024;

let rt: TestRuntime;
let base: string;
const files = tempDir('e2e-pdf-');
let clean: CleanFixture[];
let broken: BrokenFixture[];

beforeAll(async () => {
  // Three conversions per hour: enough to see the free tier apply to PDFs exactly as to text.
  rt = await startRuntime(
    // No worker: a queued job answers 202 at once (WAIT_WINDOW_S 0) instead of waiting 25 s for one.
    { FREE_PER_HOUR: '3', FREE_PER_DAY: '100', SYNC_MAX_CHARS: '3000', WAIT_WINDOW_S: '0' },
    { startWorker: false, documents: false },
  );
  ({ clean, broken } = await makeFixtures());
  base = rt.narrationUrl;
});

afterAll(async () => {
  await stopPdfWorkers();
  await rt.stop();
  files.cleanup();
});

const fixture = (name: string) => [...clean, ...broken].find((f) => f.name === name)!.bytes;

function upload(bytes: Buffer, fields: Record<string, string> = {}, query = '', filename = 'documento.pdf') {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', new Blob([bytes], { type: 'application/pdf' }), filename);
  return fetch(`${base}/convert/pdf${query}`, { method: 'POST', body: form });
}

type Detail = { loc: (string | number)[]; msg: string; type: string }[];

async function expect422(res: Response, loc: (string | number)[], type: string): Promise<string> {
  expect(res.status).toBe(422);
  const body = (await res.json()) as { detail: Detail };
  expect(body.detail).toEqual([{ loc, msg: expect.any(String), type }]);
  return body.detail[0]!.msg;
}

describe('refusals (none of them counts against the free tier)', () => {
  test('a body over what one request carries in AWS (about 4.5 MB): 413 naming the upload path, before it is read', async () => {
    for (const size of [5 * MiB, 22 * MiB]) {
      const res = await upload(Buffer.alloc(size, 0x25));
      expect(res.status).toBe(413);
      const body = (await res.json()) as { detail: string };
      expect(body.detail).toMatch(/POST \/convert\/pdf\/upload/);
      expect(body.detail).toMatch(/upload_id/);
    }
  });

  test('not a PDF (a PNG renamed): 422 not_pdf saying what it is', async () => {
    const msg = await expect422(await upload(fixture('imagen-png')), ['body', 'file'], 'not_pdf');
    expect(msg).toMatch(/PNG image/);
  });

  test('password-protected and scanned PDFs: 422 saying what to do', async () => {
    expect(await expect422(await upload(fixture('cifrado')), ['body', 'file'], 'pdf_encrypted')).toMatch(
      /password/,
    );
    expect(await expect422(await upload(fixture('escaneado')), ['body', 'file'], 'pdf_no_text')).toMatch(
      /OCR/,
    );
  });

  test('plain text instead of multipart: 415 naming both ways; JSON without upload_id: 422; unknown voice: 422 at body.voice', async () => {
    const res = await fetch(`${base}/convert/pdf`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(res.status).toBe(415);
    expect(((await res.json()) as { detail: string }).detail).toMatch(/multipart\/form-data.*upload_id/s);
    await expect422(
      await fetch(`${base}/convert/pdf`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{"file":"x"}',
      }),
      ['body', 'upload_id'],
      'missing',
    );
    await expect422(
      await upload(fixture('carta'), { voice: 'es-AR-Nadie' }),
      ['body', 'voice'],
      'value_error',
    );
  });

  test('?dry_run=true previews the cleaned text with the PDF bookmarks as chapters, free of charge', async () => {
    const res = await upload(fixture('libro-capitulos'), {}, '?dry_run=true');
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      chapters: { title: string; offset: number }[];
      text: string;
      chars: number;
    };
    expect(body.chapters.map((c) => c.title)).toEqual([
      'Primera parte',
      'Capítulo 1. La llegada',
      'Capítulo 2. Los primeros lectores',
      'Segunda parte',
      'Capítulo 3. La crecida',
      'Capítulo 4. Epílogo',
    ]);
    expect([...body.text].slice(body.chapters[2]!.offset).join('')).toMatch(/^Capítulo 2\./);
    expect(res.headers.get('ratelimit-remaining')).toBeNull();
  });
});

describe('conversions', () => {
  /** The hourly window each charge of these tests was counted in (the UTC hour may turn between them). */
  const charged: number[] = [];

  test('a one-page letter: 200 with chars and the real duration of the audio', async () => {
    const res = await upload(fixture('carta'));
    expect(res.status).toBe(200);
    charged.push(windowOf(res));
    // First charge of the hour: everything before was free.
    expect(res.headers.get('ratelimit-remaining')).toBe('2');
    const body = (await res.json()) as Record<string, unknown> & { audio_url: string; duration_s: number };
    expect(Object.keys(body).sort()).toEqual(['audio_id', 'audio_url', 'chars', 'duration_s', 'voice']);
    const expected = clean.find((f) => f.name === 'carta')!.expected;
    expect(body.chars).toBeGreaterThanOrEqual([...expected].length);
    expect(body.chars).toBeLessThanOrEqual([...expected].length + 10); // + full stops closing the letter's lines
    expect(body.voice).toBe('es-MX-Mia');
    expect(body.audio_url).toBe(`/audio/${body.audio_id as string}.mp3`);
    const redirect = await fetch(rt.url(body.audio_url), { redirect: 'manual' });
    expect(redirect.status).toBe(302);
    const audio = Buffer.from(await (await fetch(redirect.headers.get('location')!)).arrayBuffer());
    const path = join(files.path, 'carta.mp3');
    writeFileSync(path, audio);
    const probe = ffprobe(path);
    expect(probe.codec).toBe('mp3');
    expect(body.duration_s).toBeGreaterThan(30);
    expect(Math.abs(body.duration_s - probe.duration) / probe.duration).toBeLessThan(0.02);
  });

  test('voice and fmt form fields are honoured', async () => {
    const res = await upload(fixture('carta'), { voice: 'es-ES-Lucia', fmt: 'OGG' });
    expect(res.status).toBe(200);
    charged.push(windowOf(res));
    const body = (await res.json()) as { voice: string; audio_url: string };
    expect(body.voice).toBe('es-ES-Lucia');
    expect(body.audio_url).toMatch(/\.ogg$/);
  });

  test('a long report is queued (202), then the free tier is spent: 429 as for text', async () => {
    const res = await upload(fixture('informe-dos-columnas'));
    expect(res.status).toBe(202);
    charged.push(windowOf(res));
    const body = (await res.json()) as { status: string; chars: number; duration_s: null };
    expect(body.status).toBe('queued');
    expect(body.chars).toBeGreaterThan(7000);
    expect(body.duration_s).toBeNull();
    // A new conversion (another voice): the same PDF with the same options would reuse its audio, free.
    const limited = await upload(fixture('carta'), { voice: 'es-MX-Andres' });
    // Spent when the three charges are in this request's window; a run across the turn of an hour has fewer there.
    const inWindow = charged.filter((w) => w === windowOf(limited)).length;
    expect(charged).toHaveLength(3);
    expect(limited.status).toBe(inWindow === 3 ? 429 : 200);
    if (limited.status === 429) expect(limited.headers.get('retry-after')).toBeTruthy();
    else expect(limited.headers.get('ratelimit-remaining')).toBe(String(2 - inWindow));
  });
});
