// The stand of test/e2e/clients-typescript.test.ts: the local runtime, the webhook receiver, the article site, both
// clients and the built package. The test file calls standUp() once; the bindings below are live.
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { DocumentsClient, NarrationClient } from '../../../clients/typescript/src';
import { stopPdfWorkers } from '../../../lambdas/narration/pdf/index';
import { generateKey } from '../../../lambdas/shared/auth/keys';
import { putApiKey } from '../../helpers/api-keys';
import { tempDir } from '../../helpers/env';
import { startRuntime, type TestRuntime } from '../../helpers/runtime';
import { startWebhookReceiver, webhookTestEnv, type WebhookReceiver } from '../../helpers/webhook-receiver';
import { textPdf } from '../../helpers/text-pdf';
import { startArticleSite, type ArticleSite } from '../../helpers/clients-site';

export const run = promisify(execFile);
export const MiB = 1024 * 1024;
export const ROOT = join(__dirname, '..', '..', '..');
export const files = tempDir('clients-ts-');
export const CFDI = ['ingreso-basico.xml', 'egreso-nota-credito.xml'].map((n) =>
  readFileSync(join(__dirname, '..', '..', 'fixtures', 'cfdi', n), 'utf8'),
);
export const keys = { pro: generateKey(), scale: generateKey() };
export let rt: TestRuntime;
export let receiver: WebhookReceiver;
export let site: ArticleSite;
export let narration: NarrationClient;
export let documents: DocumentsClient;
export let smallPdf: Buffer;
export let dist = '';

/** A fetch that records each request's URL, method and Idempotency-Key. */
export function recordingFetch(
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
export const failure = <E>(p: Promise<unknown>): Promise<E> =>
  p.then(
    () => {
      throw new Error('expected the call to fail');
    },
    (e: unknown) => e as E,
  );

export const waitFor = async (check: () => boolean, timeoutMs = 30_000) => {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 50));
  }
};

export function standUp(): void {
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
    smallPdf = textPdf([
      'Informe de ventas del primer trimestre.',
      'Las ventas crecieron un diez por ciento.',
    ]);
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
}
