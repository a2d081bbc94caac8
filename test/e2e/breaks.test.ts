// <break> over HTTP against the local runtime (loopback): the 12 KB break-flood request (600 × 10 s) is refused with
// 422 naming the cap on the free tier, and a request with pauses within the cap is estimated by its dry run within
// 10 % of the duration of the audio it then makes.
import { startRuntime, postJson, type TestRuntime } from '../helpers/runtime';
import { MAX_BREAKS_S } from '../../lambdas/narration/core/breaks';

jest.setTimeout(120_000);

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startRuntime({}, { startWorker: false, documents: false });
});
afterAll(() => rt?.stop());

const ssml = (n: number, sentence: string) =>
  `<speak>${Array.from({ length: n }, (_, i) => `${sentence} ${i + 1}.<break time="10s"/>`).join('')}</speak>`;

test('the break flood is refused (422 naming the cap), not narrated for free', async () => {
  const body = { text: ssml(600, 'Hola'), text_type: 'ssml' };
  expect(JSON.stringify(body).length).toBeGreaterThan(12_000);
  const res = await postJson(rt.url('/convert/text'), body);
  expect(res.status).toBe(422);
  expect(JSON.stringify(await res.json())).toContain(`at most ${MAX_BREAKS_S.free} s of pauses`);
});

test('the dry run estimates a narration with pauses within 10 % of its real duration', async () => {
  const body = { text: ssml(5, 'Esta es una frase de prueba con varias palabras'), text_type: 'ssml' };
  const dry = await postJson(rt.url('/convert/text?dry_run=true'), body);
  expect(dry.status).toBe(200);
  const estimate = ((await dry.json()) as { estimated_duration_s: number }).estimated_duration_s;
  const real = await postJson(rt.url('/convert/text'), body);
  expect(real.status).toBe(200);
  const duration = ((await real.json()) as { duration_s: number }).duration_s;
  expect(duration).toBeGreaterThan(50);
  expect(Math.abs(estimate - duration) / duration).toBeLessThanOrEqual(0.1);
});
