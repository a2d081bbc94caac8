// The TypeScript client (clients/typescript, voz-client) and its `voz` CLI against the real local runtime: every
// operation they wrap, over HTTP only. Narration: voices, text (200 and 202 → polling at Retry-After), URL, PDF
// (direct, and a 19 MB one through the presigned upload path, as #29 asks: far over the ~4.5 MB a request may carry, so
// the direct route refuses it, and under the 20 MiB ceiling, which is convert-pdf-upload.test.ts's), download (ffprobe), timings,
// lexicons, webhooks (a real signed delivery verified), typed errors with the API's X-Error-Code in English and
// Spanish, an idempotent retry after a lost answer, a publisher feed (served from loopback: narrated, its podcast,
// paused, polled, deleted with its audio). Documents: every format, an async job with its signed webhook, a merge
// (qpdf), a batch of CFDI through the zip upload and as an XML list (the result zip read). The generated types match the
// running APIs' OpenAPI documents; a sample consumer type-checks against the built package; the CLI (built bin)
// narrates a PDF to an MP3 (ffprobe) and prints facturas from CFDI XML (qpdf --check), with its exit codes.
import { execFile, execFileSync } from 'node:child_process';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import {
  AuthenticationError,
  DocumentsClient,
  FORMATS,
  InvalidRequestError,
  NarrationClient,
  NotFoundError,
  PayloadTooLargeError,
  VozError,
  constructEvent,
  verifySignature,
  type UploadSlot,
} from '../../clients/typescript/src';
import { generate, type OpenApiDoc } from '../../clients/scripts/generate-types';
import { stopPdfWorkers } from '../../lambdas/narration/pdf/index';
import { generateKey } from '../../lambdas/shared/auth/keys';
import { putApiKey } from '../helpers/api-keys';
import { tempDir } from '../helpers/env';
import { FFPROBE, ffprobe, startRuntime, type TestRuntime } from '../helpers/runtime';
import {
  startWebhookReceiver,
  tampered,
  webhookTestEnv,
  type WebhookReceiver,
} from '../helpers/webhook-receiver';
import { textPdf } from '../helpers/text-pdf';
import { ARTICLE_TITLE, startArticleSite, type ArticleSite } from '../helpers/clients-site';

jest.setTimeout(180_000);

const run = promisify(execFile);
const MiB = 1024 * 1024;
const ROOT = join(__dirname, '..', '..');
const files = tempDir('clients-ts-');
const CFDI = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
  readFileSync(join(__dirname, '..', 'fixtures', 'cfdi', n), 'utf8'),
);
const keys = { pro: generateKey(), scale: generateKey() };
let rt: TestRuntime;
let receiver: WebhookReceiver;
let site: ArticleSite;
let narration: NarrationClient;
let documents: DocumentsClient;
let smallPdf: Buffer;
let dist = '';

/** A fetch that records each request's URL, method and Idempotency-Key. */
function recordingFetch(
  log: { url: string; method: string; key: string | null; status: number }[],
): typeof fetch {
  return async (input, init) => {
    const res = await fetch(input, init);
    const headers = new Headers(init?.headers);
    log.push({
      url: String(input),
      method: init?.method ?? 'GET',
      key: headers.get('idempotency-key'),
      status: res.status,
    });
    return res;
  };
}

/** The error a call fails with (a call that succeeds fails the test). */
const failure = <E>(p: Promise<unknown>): Promise<E> =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as E,
  );

const waitFor = async (check: () => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

beforeAll(async () => {
  receiver = await startWebhookReceiver();
  site = await startArticleSite();
  rt = await startRuntime({
    ...webhookTestEnv(''),
    URL_FETCH_ALLOWLIST: `127.0.0.1:${site.port}`,
    // Texts over 200 characters are queued and answered 202 at once: the client's polling path, cheaply.
    SYNC_MAX_CHARS: '200',
    WAIT_WINDOW_S: '0',
  });
  await putApiKey(rt, keys.pro, 'pro', 'cus_ts_pro');
  await putApiKey(rt, keys.scale, 'scale', 'cus_ts_scale');
  narration = new NarrationClient({ apiKey: keys.pro, baseUrl: rt.narrationUrl });
  documents = new DocumentsClient({ apiKey: keys.scale, baseUrl: rt.documentsUrl! });
  smallPdf = textPdf(['Informe de ventas del primer trimestre.', 'Las ventas crecieron un diez por ciento.']);
  // The package as published: esbuild bundles + tsc declarations (clients/typescript/build.mjs).
  dist = join(files.path, 'pkg', 'dist');
  await run(process.execPath, [join(ROOT, 'clients/typescript/build.mjs'), dist]);
});

afterAll(async () => {
  await stopPdfWorkers();
  await rt?.stop();
  await receiver?.close();
  await site?.close();
  files.cleanup();
});

test('the committed types are what the generator makes of the running APIs’ OpenAPI documents', async () => {
  const get = async (base: string) => (await (await fetch(`${base}/api?format=json`)).json()) as OpenApiDoc;
  const generated = generate({
    narration: await get(rt.narrationUrl),
    documents: await get(rt.documentsUrl!),
  });
  for (const [rel, text] of Object.entries(generated))
    expect({ rel, text: readFileSync(join(ROOT, 'clients', rel), 'utf8') }).toEqual({ rel, text });
});

describe('narration', () => {
  test('voices; a short text answers 200 with the audio, sent with an Idempotency-Key; download is an MP3', async () => {
    const log: Parameters<typeof recordingFetch>[0] = [];
    const client = new NarrationClient({
      apiKey: keys.pro,
      baseUrl: rt.narrationUrl,
      fetch: recordingFetch(log),
    });
    const voices = await client.voices();
    expect(voices.map((v) => v.id)).toEqual(expect.arrayContaining(['es-MX-Mia', 'es-ES-Lucia']));
    const done = await client.narrateText({
      text: 'Hola, ¿qué tal? Esto es una prueba.',
      voice: 'es-ES-Lucia',
    });
    expect(done).toMatchObject({ voice: 'es-ES-Lucia', chars: 35 });
    expect(log.find((l) => l.url.endsWith('/convert/text'))).toMatchObject({
      status: 200,
      key: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const mp3 = join(files.path, 'corto.mp3');
    writeFileSync(mp3, await client.download(done.audio_url));
    expect(ffprobe(mp3)).toMatchObject({ codec: 'mp3' });
    expect(ffprobe(mp3).duration).toBeCloseTo(done.duration_s!, 1);
  });

  test('a long text: 202 → polled at Retry-After with progress → the finished result; timings as JSON and WebVTT', async () => {
    const text = 'Esta es una oración de prueba para el cliente. '.repeat(8);
    const pending = await narration.narrateText({ text }, { wait: false });
    expect(pending).toMatchObject({ status: expect.stringMatching(/queued|processing/), duration_s: null });
    const seen: number[] = [];
    const done = await narration.narrateText({ text }, { onProgress: (p) => seen.push(p.progress) });
    expect(done).toMatchObject({ status: 'done', chars: text.length, url: expect.any(String) });
    expect(seen.length).toBeGreaterThan(0);
    const timings = await narration.timings(done.audio_id);
    expect(timings.sentences.length).toBe(8);
    expect(await narration.timings(done.audio_id, { format: 'vtt' })).toMatch(/^WEBVTT/);
    const again = await narration.waitForAudio(pending.audio_id);
    expect(again).toMatchObject({ audio_id: pending.audio_id, status: 'done' });
  });

  test('an idempotent retry: the first answer is lost, the retry carries the same key and gets the replay', async () => {
    const attempts: { key: string | null; status: number; replayed: string | null; audioId: string }[] = [];
    const lossy: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (String(input).endsWith('/convert/text')) {
        const body = (await res.clone().json()) as { audio_id: string };
        attempts.push({
          key: new Headers(init?.headers).get('idempotency-key'),
          status: res.status,
          replayed: res.headers.get('idempotent-replayed'),
          audioId: body.audio_id,
        });
        if (attempts.length === 1)
          throw new TypeError('fetch failed: the connection dropped before the answer');
      }
      return res;
    };
    const client = new NarrationClient({ apiKey: keys.pro, baseUrl: rt.narrationUrl, fetch: lossy });
    const done = await client.narrateText({ text: 'Una sola vez, aunque se reintente.' });
    expect(attempts).toHaveLength(2);
    expect(attempts[1]!.key).toBe(attempts[0]!.key);
    expect(attempts.map((a) => [a.status, a.replayed])).toEqual([
      [200, null],
      [200, 'true'],
    ]);
    expect(done.audio_id).toBe(attempts[0]!.audioId);
  });

  test('an article URL (its title in the result)', async () => {
    const done = await narration.narrateUrl({
      url: site.articleUrl,
      voice: 'es-MX-Mia',
    });
    expect(done).toMatchObject({ voice: 'es-MX-Mia', title: expect.any(String) });
    expect(done.title).toContain(ARTICLE_TITLE);
    expect(done.chars).toBeGreaterThan(300);
  });

  test('PDFs: a small one directly; a 19 MB one through upload slot → S3 POST → POST /convert/pdf {upload_id}', async () => {
    const direct = await narration.narratePdf(smallPdf);
    expect(direct.chars).toBeGreaterThan(0);

    // 19 MB: a PDF padded with a binary stream (as photographs weigh), just under the upload path's 20 MiB.
    const big = textPdf(['Anexo del informe anual.', 'Este documento pesa por sus fotografias.'], 19e6);
    expect(big.length).toBeGreaterThan(19e6);
    expect(big.length).toBeLessThan(20 * MiB);
    await expect(narration.narratePdf(big, { via: 'direct' })).rejects.toMatchObject({
      constructor: PayloadTooLargeError,
      status: 413,
    });
    const log: Parameters<typeof recordingFetch>[0] = [];
    const client = new NarrationClient({
      apiKey: keys.pro,
      baseUrl: rt.narrationUrl,
      fetch: recordingFetch(log),
    });
    const stages: string[] = [];
    const done = await client.narratePdf(big, { fmt: 'mp3', onUpload: (s) => stages.push(s) });
    expect(stages).toEqual(['slot', 'sending', 'converting']);
    const posts = log.filter((l) => l.method === 'POST').map((l) => [new URL(l.url).pathname, l.status]);
    const slotPost = posts.findIndex(([p]) => p === '/convert/pdf/upload');
    expect(posts[slotPost]).toEqual(['/convert/pdf/upload', 201]);
    expect(posts[slotPost + 1]![1]).toBeLessThan(300); // the file, to the presigned S3 URL
    expect(posts[slotPost + 2]).toEqual(['/convert/pdf', expect.any(Number)]);
    expect(done).toMatchObject({ audio_id: expect.any(String), duration_s: expect.any(Number) });
    expect(done.chars).toBeGreaterThan(40);
    const slot: UploadSlot = await narration.createPdfUpload();
    expect(slot.upload.file_field).toBe('file');
  });

  test('lexicons: put, get, list, used by a narration, delete', async () => {
    const put = await narration.lexicons.put('marcas', {
      language: 'es-MX',
      entries: [{ grapheme: 'ACME', alias: 'acmé' }],
    });
    expect(put).toMatchObject({ name: 'marcas' });
    expect(await narration.lexicons.get('marcas')).toMatchObject({
      name: 'marcas',
      entries: [{ grapheme: 'ACME' }],
    });
    expect(JSON.stringify(await narration.lexicons.list())).toContain('marcas');
    const done = await narration.narrateText({
      text: 'Compré en ACME.',
      voice: 'es-MX-Mia',
      lexicons: ['marcas'],
    });
    expect(done.lexicons).toEqual(['marcas']);
    await narration.lexicons.delete('marcas');
    await expect(narration.lexicons.get('marcas')).rejects.toMatchObject({
      status: 404,
      code: 'lexicon_unknown',
    });
  });

  test('webhooks: register, a real audio.completed delivery verifies (and a tampered one does not)', async () => {
    const created = await narration.webhooks.put({ url: receiver.hook('/voz') });
    expect(created.secret).toMatch(/^whsec_/);
    expect(await narration.webhooks.get()).toMatchObject({ url: receiver.hook('/voz') });
    const done = await narration.narrateText({ text: 'Aviso por webhook.' });
    await waitFor(() => receiver.at('/voz').length >= 1);
    const cb = receiver.at('/voz')[0]!;
    const header = String(cb.headers['voz-signature']);
    expect(await verifySignature(created.secret!, header, cb.body)).toBe(true);
    expect(await verifySignature(created.secret!, header, tampered(cb.body))).toBe(false);
    expect(await verifySignature('whsec_otro', header, cb.body)).toBe(false);
    const event = await constructEvent<{ audio_id: string }>(created.secret!, header, cb.body);
    expect(event).toMatchObject({ type: 'audio.completed', data: { audio: { audio_id: done.audio_id } } });
    await narration.webhooks.delete();
  });

  test('typed errors: the contract’s status, detail items and codes', async () => {
    const err = await narration.narrateText({ text: '' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(InvalidRequestError);
    expect(err).toMatchObject({
      status: 422,
      items: [{ loc: ['body', 'text'] }],
      requestId: expect.any(String),
    });
    expect((err as InvalidRequestError).code).toBe((err as InvalidRequestError).items[0]!.type);
    const anon = new NarrationClient({ apiKey: 'key_no_existe_0000000000000000', baseUrl: rt.narrationUrl });
    await expect(anon.voices().then(() => anon.narrateText({ text: 'hola' }))).rejects.toMatchObject({
      constructor: AuthenticationError,
      status: 401,
      code: 'api_key_unknown',
    });
  });
  test('errors carry the API’s X-Error-Code, the same in English and in Spanish (language: "es")', async () => {
    const es = new NarrationClient({ apiKey: keys.pro, baseUrl: rt.narrationUrl, language: 'es' });
    const raw = await fetch(`${rt.narrationUrl}/v1/lexicons/no-existe`, {
      headers: { authorization: `Bearer ${keys.pro}` },
    });
    const header = raw.headers.get('x-error-code');
    expect(header).toMatch(/^[a-z_]+$/);
    const [en, spanish] = await Promise.all(
      [narration, es].map((c) => failure<VozError>(c.lexicons.get('no-existe'))),
    );
    expect(en).toBeInstanceOf(NotFoundError);
    expect(spanish).toBeInstanceOf(NotFoundError);
    expect([en!.code, spanish!.code]).toEqual([header, header]);
    expect(en!.code).not.toBe('not_found'); // the API's own code, not the client's per-status fallback
    expect(en!.message).toBe(((await raw.json()) as { detail: string }).detail);
    expect(spanish!.message).not.toBe(en!.message);
    expect(spanish!.message).toMatch(/[áéíóúñ]|no (existe|se encontr)/i);
    // Invalid input: the items' messages in Spanish, their types (the code) unchanged.
    const [enItems, esItems] = await Promise.all(
      [narration, es].map((c) => failure<InvalidRequestError>(c.narrateText({ text: '' }))),
    );
    expect(esItems!.code).toBe(enItems!.code);
    expect(esItems!.items[0]!.msg).not.toBe(enItems!.items[0]!.msg);
  });

  test('feeds: register a loopback RSS → its article narrated; the podcast lists it; pause, poll, delete', async () => {
    const feed = await narration.feeds.create({
      url: site.feedUrl,
      voice: 'es-MX-Mia',
    });
    expect(feed).toMatchObject({
      feed_id: expect.stringMatching(/^fd_/),
      status: 'active',
      voice: 'es-MX-Mia',
    });
    expect(feed.podcast_url).toBe(`${rt.narrationUrl}/feeds/${feed.feed_id}/podcast.xml`);
    let got = await narration.feeds.get(feed.feed_id);
    for (let i = 0; i < 300 && got.entries[0]?.status !== 'narrated'; i++) {
      await new Promise((r) => setTimeout(r, 200));
      got = await narration.feeds.get(feed.feed_id);
    }
    expect(got.entries).toEqual([expect.objectContaining({ url: site.feedArticleUrl, status: 'narrated' })]);
    const audioId = got.entries[0]!.audio_id!;
    expect(await narration.waitForAudio(audioId)).toMatchObject({ status: 'done' });
    expect(await narration.feeds.podcast(feed.feed_id)).toContain(`/audio/${audioId}.mp3`);
    expect((await narration.feeds.list()).feeds.map((f) => f.feed_id)).toContain(feed.feed_id);
    expect(await narration.feeds.setStatus(feed.feed_id, 'paused')).toMatchObject({ status: 'paused' });
    await expect(narration.feeds.poll(feed.feed_id)).rejects.toMatchObject({
      constructor: InvalidRequestError,
      code: 'feed_paused',
    });
    await narration.feeds.setStatus(feed.feed_id, 'active');
    expect(await narration.feeds.poll(feed.feed_id)).toMatchObject({ feed_id: feed.feed_id });
    // Deleted without `audio: 'delete'`: its audio stays (the CLI test's feed of the same article reuses it, then
    // deletes it with --borrar-audio).
    expect(await narration.feeds.delete(feed.feed_id)).toEqual({
      deleted: true,
      audio_deleted: 0,
      audio_kept: 0,
    });
    expect(await narration.waitForAudio(audioId)).toMatchObject({ status: 'done' });
    await expect(narration.feeds.get(feed.feed_id)).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'feed_not_found',
    });
  });

  test('preview (dry run, nothing charged), delete, webhook secret rotation', async () => {
    const preview = await narration.preview({ text: 'El 3 de mayo llegó.' });
    expect(preview).toMatchObject({ dry_run: true });
    const done = await narration.narrateText({ text: 'Para borrar.' });
    await narration.deleteAudio(done.audio_url);
    await expect(narration.waitForAudio(done.audio_id)).rejects.toMatchObject({
      status: 404,
      code: 'audio_not_found',
    });
    const created = await narration.webhooks.put({ url: receiver.hook('/rotar') });
    const rotated = await narration.webhooks.rotateSecret();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    await narration.webhooks.delete();
  });
});

describe('documents', () => {
  test('every format renders (templates where they offer it, custom_html for the rest)', async () => {
    const templates = (await documents.templates()) as unknown as {
      templates?: { slug: string; formats: string[] }[];
    };
    const list = Array.isArray(templates)
      ? (templates as { slug: string; formats: string[] }[])
      : templates.templates!;
    const magic: Record<string, (b: Buffer) => boolean> = {
      pdf: (b) => b.subarray(0, 5).toString() === '%PDF-',
      png: (b) => b.subarray(0, 4).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47])),
      xlsx: (b) => b.subarray(0, 2).toString() === 'PK',
      docx: (b) => b.subarray(0, 2).toString() === 'PK',
      zip: (b) => b.subarray(0, 2).toString() === 'PK',
      json: (b) => JSON.parse(b.toString('utf8')) !== undefined,
      csv: (b) => b.toString('utf8').includes('Café'),
      html: (b) => /<html/i.test(b.toString('utf8')),
      md: (b) => /hola/i.test(b.toString('utf8')),
      txt: (b) => /hola/i.test(b.toString('utf8')),
    };
    const ventas = { title: 'Ventas', rows: [{ product: 'Café', units: 3, revenue: 150 }] };
    const results: Record<string, boolean> = {};
    for (const format of FORMATS) {
      const tpl = list.find((t) => t.slug === 'ventas' && t.formats.includes(format))
        ? { template: 'ventas', data: ventas }
        : { custom_html: '<h1>Hola {{ nombre }}</h1><p>Café</p>', data: { nombre: 'Ana' } };
      const doc = await documents.render({ format, ...tpl });
      results[format] = magic[format]!(Buffer.from(doc.bytes)) && doc.filename.endsWith(`.${format}`);
    }
    expect(results).toEqual(Object.fromEntries(FORMATS.map((f) => [f, true])));
  });

  test('async job (Scale): 202 → job polled → document; its document.rendered webhook verifies', async () => {
    const created = await documents.webhooks.put({ url: receiver.hook('/docs') });
    const accepted = await documents.renderAsync({
      template: 'ventas',
      format: 'csv',
      data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 1 }] },
    });
    expect(accepted).toMatchObject({ status: 'queued', status_url: `/v1/jobs/${accepted.id}` });
    const job = await documents.waitForJob(accepted.id);
    expect(job).toMatchObject({ status: 'done', format: 'csv' });
    const doc = await documents.downloadJob(job);
    expect(doc.bytes.length).toBe(job.bytes);
    // render() with options.async waits and downloads by itself.
    const viaRender = await documents.render({
      template: 'ventas',
      format: 'csv',
      data: { title: 'V', rows: [{ product: 'A', units: 1, revenue: 1 }] },
      options: { async: true },
    });
    expect(viaRender.filename).toBe('ventas.csv');
    await waitFor(() => receiver.at('/docs').length >= 1);
    const cb = receiver.at('/docs')[0]!;
    const event = await constructEvent(created.secret!, String(cb.headers['docs-signature']), cb.body);
    expect(event.type).toBe('document.rendered');
    expect(
      await verifySignature(created.secret!, String(cb.headers['docs-signature']), tampered(cb.body)),
    ).toBe(false);
  });

  test('merge: two documents in one PDF (qpdf --check); a 400 carries its items', async () => {
    const merged = await documents.merge([
      { template: 'ventas', data: { title: 'Uno', rows: [{ product: 'A', units: 1, revenue: 1 }] } },
      { template: 'ventas', data: { title: 'Dos', rows: [{ product: 'B', units: 2, revenue: 2 }] } },
    ]);
    expect(merged.filename).toBe('documentos.pdf');
    const file = join(files.path, 'merged.pdf');
    writeFileSync(file, merged.bytes);
    execFileSync('qpdf', ['--check', file]);
    expect(
      Number(execFileSync('qpdf', ['--show-npages', file], { encoding: 'utf8' })),
    ).toBeGreaterThanOrEqual(2);
    await expect(documents.render({ template: 'no-existe', format: 'pdf', data: {} })).rejects.toMatchObject({
      constructor: InvalidRequestError,
      status: 400,
      items: [expect.objectContaining({ loc: expect.arrayContaining(['template']) })],
    });
  });
  test('templates, a template’s source and sample PDF, pricing, stats, a job by id', async () => {
    expect(JSON.stringify(await documents.templates())).toContain('factura');
    expect(await documents.templateSource('factura')).toMatch(/</);
    expect(
      Buffer.from(await documents.templateSample('factura'))
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    expect(JSON.stringify(await documents.pricing())).toMatch(/scale/i);
    expect(typeof (await documents.stats())).toBe('object');
    const accepted = await documents.renderAsync({
      template: 'ventas',
      format: 'csv',
      data: { title: 'J', rows: [{ product: 'A', units: 1, revenue: 1 }] },
    });
    expect(await documents.job(accepted.id)).toMatchObject({ id: accepted.id, format: 'csv' });
  });
  test('batches: a zip of CFDI through the upload path, and an XML list with a refused file; the result zip read', async () => {
    const stages: string[] = [];
    const progress: number[] = [];
    const { batch, zip } = await documents.printBatch(
      { zip: zipSync(Object.fromEntries(CFDI.map((x, i) => [`mes/${i}.xml`, new TextEncoder().encode(x)]))) },
      { onUpload: (s) => stages.push(s), onProgress: (b) => progress.push(b.progress) },
    );
    expect(stages).toEqual(['slot', 'sending']);
    expect(batch).toMatchObject({ object: 'batch', status: 'done', total: 2, done: 2, refused: 0 });
    const names = Object.keys(unzipSync(zip.bytes)).sort();
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(2);
    expect(names).toEqual(expect.arrayContaining(['resumen.csv', 'resumen.xlsx']));
    expect(zip.bytes.length).toBe(batch.bytes);

    const started = await documents.startBatch({ xml: [CFDI[0]!, '<no-es-un-cfdi/>'] });
    expect(started).toMatchObject({ object: 'batch', status: 'queued' });
    const listed = await documents.waitForBatch(started.id);
    expect(listed).toMatchObject({ status: 'done', done: 1, refused: 1 });
    expect(await documents.batch(started.id)).toMatchObject({ id: started.id, status: 'done' });
    const files = unzipSync((await documents.downloadBatch(listed)).bytes);
    expect(strFromU8(files['resumen.csv']!).toUpperCase()).toContain(
      /UUID="([^"]+)"/.exec(CFDI[0]!)![1]!.toUpperCase(),
    );
    await expect(documents.batch('job_no_existe')).rejects.toMatchObject({
      constructor: NotFoundError,
      code: 'batch_not_found',
    });
  });
});

describe('the package', () => {
  test('a sample consumer type-checks against the built package (tsc --noEmit); wrong fields do not', async () => {
    const project = join(files.path, 'consumer');
    const pkg = join(project, 'node_modules', 'voz-client');
    mkdirSync(pkg, { recursive: true });
    cpSync(join(ROOT, 'clients/typescript/package.json'), join(pkg, 'package.json'));
    cpSync(dist, join(pkg, 'dist'), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', '@types'), join(project, 'node_modules', '@types'));
    cpSync(join(ROOT, 'clients/typescript/examples/consumer.ts'), join(project, 'consumer.ts'));
    writeFileSync(join(project, 'package.json'), JSON.stringify({ type: 'module' }));
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          // @types/node's own files are not the subject (our declarations are still checked where the consumer uses them)
          skipLibCheck: true,
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          noEmit: true,
          types: ['node'],
        },
        files: ['consumer.ts'],
      }),
    );
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
    const out = await run(process.execPath, [tsc, '-p', project]).then(
      () => 'ok',
      (e: { stdout: string }) => e.stdout,
    );
    expect(out).toBe('ok');

    // Installed, the bin answers as `npx voz` (package.json bin → dist/cli.js, run by its shebang).
    mkdirSync(join(project, 'node_modules', '.bin'));
    chmodSync(join(pkg, 'dist', 'cli.js'), 0o755);
    symlinkSync('../voz-client/dist/cli.js', join(project, 'node_modules', '.bin', 'voz'));
    const npx = await run('npx', ['--offline', '--no-install', 'voz', 'voces'], {
      cwd: project,
      env: { ...process.env, VOZ_NARRATION_URL: rt.narrationUrl },
    });
    expect(npx.stdout).toContain('es-MX-Mia');
  });

  test('CLI: narrar a PDF → MP3 (ffprobe); narrar a URL with --voz; factura --xml → PDFs (qpdf); render → xlsx; exit codes', async () => {
    const cli = join(dist, 'cli.js');
    const env = {
      ...process.env,
      VOZ_API_KEY: keys.pro,
      VOZ_NARRATION_URL: rt.narrationUrl,
      VOZ_DOCUMENTS_URL: rt.documentsUrl!,
    };
    const voz = (args: string[], extra: Record<string, string> = {}) =>
      run(process.execPath, [cli, ...args], { cwd: files.path, env: { ...env, ...extra } }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({
          code: e.code,
          stdout: e.stdout,
          stderr: e.stderr,
        }),
      );
    const pdf = join(files.path, 'archivo.pdf');
    writeFileSync(pdf, smallPdf);
    const narrated = await voz(['narrar', pdf, '-o', 'audio.mp3']);
    expect(narrated.code).toBe(0);
    expect(narrated.stderr).toMatch(/Narrando/);
    expect(ffprobe(join(files.path, 'audio.mp3'))).toMatchObject({ codec: 'mp3' });
    execFileSync(FFPROBE, ['-v', 'error', join(files.path, 'audio.mp3')]);

    const fromUrl = await voz(['narrar', site.articleUrl, '--voz', 'es-MX-Mia', '-o', 'noticia.mp3']);
    expect(fromUrl).toMatchObject({ code: 0, stderr: expect.stringContaining('es-MX-Mia') });

    const xmls = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
      join(ROOT, 'test/fixtures/cfdi', n),
    );
    const fact = await voz(['factura', '--xml', ...xmls, '-o', 'pdfs/']);
    expect(fact.code).toBe(0);
    const pdfs = readdirSync(join(files.path, 'pdfs')).sort();
    expect(pdfs).toEqual(['egreso-nota-credito.pdf', 'ingreso-basico.pdf']);
    for (const f of pdfs) execFileSync('qpdf', ['--check', join(files.path, 'pdfs', f)]);

    writeFileSync(
      join(files.path, 'datos.json'),
      JSON.stringify({ title: 'Ventas', rows: [{ product: 'A', units: 1, revenue: 2 }] }),
    );
    expect((await voz(['render', 'ventas', 'datos.json', '-f', 'xlsx'])).code).toBe(0);
    expect(readFileSync(join(files.path, 'ventas.xlsx')).subarray(0, 2).toString()).toBe('PK');

    expect((await voz(['narrar'])).code).toBe(2); // usage
    expect((await voz(['narrar', 'no-existe.pdf'])).code).toBe(2); // unreadable input
    expect((await voz(['narrar', pdf], { VOZ_API_KEY: 'key_no_existe_0000000000000000' })).code).toBe(4);
    expect((await voz(['render', 'no-existe', 'datos.json'])).code).toBe(3);
    expect((await voz(['voces'], { VOZ_NARRATION_URL: 'http://127.0.0.1:1' })).code).toBe(6);
  });

  test('CLI: lote --xml → the batch zip; feed agregar / lista / borrar; --ayuda prints clients/cli-usage.txt', async () => {
    const cli = join(dist, 'cli.js');
    const env = { ...process.env, VOZ_NARRATION_URL: rt.narrationUrl, VOZ_DOCUMENTS_URL: rt.documentsUrl! };
    const voz = (args: string[], key: string) =>
      run(process.execPath, [cli, ...args], { cwd: files.path, env: { ...env, VOZ_API_KEY: key } }).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => e,
      );
    const xmls = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
      join(ROOT, 'test/fixtures/cfdi', n),
    );
    const lot = await voz(['lote', '--xml', ...xmls, '-o', 'lote.zip'], keys.scale);
    expect(lot).toMatchObject({ code: 0, stderr: expect.stringContaining('2 PDF, 0 rechazados') });
    const names = Object.keys(unzipSync(readFileSync(join(files.path, 'lote.zip'))));
    expect(names.filter((n) => n.endsWith('.pdf'))).toHaveLength(2);

    // The same feed and voice as the client's feed test: its article's audio is reused, nothing narrated again.
    const added = await voz(['feed', 'agregar', site.feedUrl, '--voz', 'es-MX-Mia'], keys.pro);
    expect(added).toMatchObject({
      code: 0,
      stdout: expect.stringMatching(/^fd_\S+\thttp:\S+\/podcast\.xml\n$/),
    });
    const id = added.stdout.split('\t')[0]!;
    expect((await voz(['feed', 'lista'], keys.pro)).stdout).toContain(`${id}\tactive\t${site.feedUrl}`);
    const deleted = await voz(['feed', 'borrar', id, '--borrar-audio'], keys.pro);
    expect(JSON.parse(deleted.stdout)).toMatchObject({ deleted: true });
    expect((await voz(['feed', 'ver', id], keys.pro)).code).toBe(3);
    expect((await voz(['feed', 'ver'], keys.pro)).code).toBe(2);

    const help = await voz(['--ayuda'], keys.pro);
    expect(help.stdout).toBe(readFileSync(join(ROOT, 'clients/cli-usage.txt'), 'utf8'));
  });
});
