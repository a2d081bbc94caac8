// An async render's stored request keeps no secret in clear (use-cases/job-secrets.ts): options.password is sealed
// with a per-job key that only the job record holds; the render worker opens it and the PDF is still encrypted with
// the caller's password (qpdf, an independent reader, opens it with that password only). Also: a tampered or
// key-less sealed request is refused, requests without a password and requests stored before sealing still open.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import sample from '../../../templates/factura/sample.json';
import { acceptAsyncRender } from '../../../lambdas/documents/use-cases/jobs';
import { openRequest, sealRequest } from '../../../lambdas/documents/use-cases/job-secrets';
import { runRenderJob } from '../../../lambdas/documents/use-cases/jobs-render';
import { parseRenderRequest } from '../../../lambdas/documents/use-cases/render-request';
import { FakeJobFiles, FakeJobRepository, FakeMessageQueue } from '../../fakes/documents';
import { FakeQuotaStore } from '../../fakes/platform';

jest.setTimeout(60_000);

const PASSWORD = 'contraseña-Ñandú 2026';
const body = {
  template: 'factura',
  format: 'pdf',
  data: sample,
  options: { password: PASSWORD, landscape: false },
};

describe('sealRequest / openRequest', () => {
  test('the stored text has no password, in any encoding; the key opens it back to the request', () => {
    const { stored, secret } = sealRequest(body);
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    for (const needle of [PASSWORD, 'Ñandú', 'contrase', JSON.stringify(PASSWORD).slice(1, -1)])
      expect(stored).not.toContain(needle);
    expect(stored).not.toMatch(/"password"/);
    expect(Buffer.from(stored).toString('base64')).not.toContain(Buffer.from(PASSWORD).toString('base64'));
    expect(openRequest(stored, secret)).toEqual(body);
  });

  test('a fresh key per job: the same request seals differently', () => {
    const a = sealRequest(body);
    const b = sealRequest(body);
    expect(a.secret).not.toBe(b.secret);
    expect(a.stored).not.toBe(b.stored);
  });

  test("sealed again with a job's key (an idempotent retry storing its request again): that key opens it", () => {
    const first = sealRequest(body);
    const again = sealRequest(body, first.secret);
    expect(again.secret).toBe(first.secret);
    expect(again.stored).not.toContain(PASSWORD);
    expect(openRequest(again.stored, first.secret)).toEqual(body);
  });

  test('without the key, with another key, or tampered: refused', () => {
    const { stored, secret } = sealRequest(body);
    expect(() => openRequest(stored, undefined)).toThrow(/no key/);
    expect(() => openRequest(stored, sealRequest(body).secret)).toThrow();
    const env = JSON.parse(stored) as { sealed: string };
    const raw = Buffer.from(env.sealed, 'base64url');
    raw[raw.length - 1] = raw[raw.length - 1]! ^ 1;
    const tampered = JSON.stringify({ ...env, sealed: raw.toString('base64url') });
    expect(() => openRequest(tampered, secret)).toThrow();
  });

  test('no password: nothing sealed, no key; a request stored before sealing opens as it is', () => {
    const plain = { template: 'ventas', format: 'csv', data: { title: 'V', rows: [] } };
    const { stored, secret } = sealRequest(plain);
    expect(secret).toBeUndefined();
    expect(openRequest(stored, undefined)).toEqual(plain);
    expect(openRequest(JSON.stringify(body), undefined)).toEqual(body);
  });
});

test('accept → stored without the password → the worker renders a PDF that opens with the password only', async () => {
  const now = new Date('2026-03-01T12:00:00Z');
  const jobs = new FakeJobRepository(() => now, 60);
  const jobFiles = new FakeJobFiles();
  const quotas = new FakeQuotaStore();
  const renderQueue = new FakeMessageQueue();
  const decision = await quotas.consume('docs#s', [{ period: 'month', limit: 10 }], now);
  const accepted = await acceptAsyncRender(
    { jobs, jobFiles, renderQueue, quotas },
    {
      body,
      request: parseRenderRequest(body),
      key: {
        keyHash: 'h',
        keyPrefix: 'key_x',
        plan: 'scale',
        status: 'active',
        email: 'a@example.com',
        createdAt: now.toISOString(),
        accountId: 'cus_1',
      },
      plan: 'scale',
      decision,
      now,
    },
  );
  const jobId = accepted.body.id as string;
  const stored = jobFiles.objects.get(`jobs/${jobId}.json`)!.toString('utf8');
  expect(stored).not.toContain(PASSWORD);
  expect(stored).not.toContain('Ñandú');
  expect(stored).toContain('"landscape":false'); // the other options are stored as sent
  expect((await jobs.get(jobId))!.requestSecret).toBeDefined();

  // Chromium stands in as a one-page PDF; the protection step after it is the real one.
  const page = await PDFDocument.create();
  const font = await page.embedFont(StandardFonts.Helvetica);
  page.addPage().drawText('Factura', { x: 72, y: 700, size: 12, font });
  const chromiumPdf = Buffer.from(await page.save());
  const out = await runRenderJob(
    {
      jobs,
      jobFiles,
      renderQueue,
      quotas,
      deliveryQueue: new FakeMessageQueue(),
      subscribed: async () => false,
      renderer: async () => ({
        renderPdf: async () => chromiumPdf,
        renderPng: () => Promise.reject(new Error('not used')),
      }),
      recordRender: async () => undefined,
      now: () => now,
      maxAttempts: 3,
    },
    jobId,
    1,
  );
  expect(out).toBe('done');
  const done = (await jobs.get(jobId))!;
  const dir = mkdtempSync(join(tmpdir(), 'job-secrets-'));
  try {
    const file = join(dir, 'out.pdf');
    writeFileSync(file, jobFiles.objects.get(done.result!.key)!);
    const qpdf = (args: string[]) => spawnSync('qpdf', [...args, file], { encoding: 'utf8' }).status;
    expect(qpdf(['--requires-password'])).toBe(0); // a password is required
    expect(qpdf([`--password=${PASSWORD}`, '--check'])).toBe(0);
    expect(qpdf(['--password=otra', '--check'])).toBe(2);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  expect(jobFiles.objects.has(`jobs/${jobId}.json`)).toBe(false); // the sealed request is gone once rendered
});
