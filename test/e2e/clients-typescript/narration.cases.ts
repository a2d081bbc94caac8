// Narration cases of test/e2e/clients-typescript.test.ts: every operation NarrationClient wraps.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  AuthenticationError,
  InvalidRequestError,
  NarrationClient,
  NotFoundError,
  PayloadTooLargeError,
  VozError,
  constructEvent,
  verifySignature,
  type UploadSlot,
} from '../../../clients/typescript/src';
import { ffprobe } from '../../helpers/runtime';
import { tampered } from '../../helpers/webhook-receiver';
import { textPdf } from '../../helpers/text-pdf';
import { ARTICLE_TITLE } from '../../helpers/clients-site';
import {
  MiB,
  files,
  keys,
  rt,
  receiver,
  site,
  narration,
  smallPdf,
  recordingFetch,
  failure,
  waitFor,
} from './stand';

export function narrationCases(): void {
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
      const anon = new NarrationClient({
        apiKey: 'key_no_existe_0000000000000000',
        baseUrl: rt.narrationUrl,
      });
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
      expect(got.entries).toEqual([
        expect.objectContaining({ url: site.feedArticleUrl, status: 'narrated' }),
      ]);
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
}
