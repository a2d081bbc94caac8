// Documents cases of test/e2e/clients-typescript.test.ts: every operation DocumentsClient wraps.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { strFromU8, unzipSync, zipSync } from 'fflate';
import {
  FORMATS,
  InvalidRequestError,
  NotFoundError,
  constructEvent,
  verifySignature,
} from '../../../clients/typescript/src';
import { tampered } from '../../helpers/webhook-receiver';
import { files, CFDI, receiver, documents, waitFor } from './stand';

export function documentsCases(): void {
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
      await expect(
        documents.render({ template: 'no-existe', format: 'pdf', data: {} }),
      ).rejects.toMatchObject({
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
        {
          zip: zipSync(Object.fromEntries(CFDI.map((x, i) => [`mes/${i}.xml`, new TextEncoder().encode(x)]))),
        },
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
}
