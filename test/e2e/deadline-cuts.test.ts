// Work is bounded by what is charged, over HTTP against the local runtime with a short route deadline (5 s instead
// of 29 s, so it runs in seconds; short enough to cut the requests below, long enough for a refusal on a loaded
// machine): a free caller repeating a request that is cut at the deadline (answered 503 and not charged) gets
// 429 once FREE_CUT_PER_HOUR cuts are counted, on both services, before any more work; and each cut request's work
// stops (narration: no engine call after the 503, the narration ends before its last chunk; documents: a merge stops
// before its next part), proved by the runtime's own log lines of the abandoned work. Usage stays at what was
// delivered: nothing. The refusals start no work: only the cut requests log abandoned work.
import { DynamoQuotaStore } from '../../lambdas/shared/aws/quota-store';
import { dynamo } from '../../lambdas/shared/aws/clients';
import { ipSubject } from '../../lambdas/shared/auth/resolve-caller';
import { monthlyRules } from '../../lambdas/documents/core/plans';
import ventas from '../../templates/ventas/sample.json';
import { startRuntime, postJson, type TestRuntime } from '../helpers/runtime';
import { until } from '../helpers/until';
import { logger } from '../../lambdas/shared/logger';

jest.setTimeout(600_000);

const CUTS = 3;
let rt: TestRuntime;
const warned: Record<string, unknown>[] = [];
let spy: jest.SpyInstance | undefined;
beforeAll(async () => {
  // The runtime runs in this process: its warnings (abandoned work) are kept, and still logged.
  const warn = logger.warn.bind(logger);
  spy = jest.spyOn(logger, 'warn').mockImplementation(((message: string, ...extra: unknown[]) => {
    warned.push(Object.assign({ message }, ...(extra.filter((e) => typeof e === 'object') as object[])));
    return (warn as (...a: unknown[]) => void)(message, ...extra);
  }) as never);
  rt = await startRuntime(
    {
      FREE_CUT_PER_HOUR: String(CUTS),
      FREE_PER_HOUR: '100',
      FREE_PER_DAY: '100',
      SYNC_MAX_CHARS: '60000', // narrated inside the request: the deadline cuts it
    },
    { trustProxy: true, startWorker: false, deadlineS: 5 },
  );
});
afterAll(async () => {
  await rt?.stop();
  spy?.mockRestore();
});

/** The runtime's warnings with this message. */
const lines = (message: string) => warned.filter((l) => l.message === message);

/** Sends `send` 10 times in a row; after each 503, waits for the runtime to log that request's work as abandoned. */
async function tenTimes(send: () => Promise<Response>, abandoned: string) {
  const answers: Answer[] = [];
  for (let i = 0; i < 10; i++) {
    const hour = new Date().toISOString().slice(0, 13); // the cut budget's window (a fixed UTC hour)
    const res = await send();
    const detail = JSON.stringify(await res.json());
    if (res.status === 503) {
      const cuts = answers.filter((a) => a.status === 503).length + 1;
      // Bounded by the work in flight at the cut (one engine call, one Chromium render), on a loaded machine.
      await until(
        `the work of cut request ${cuts} to stop`,
        async () => (lines(abandoned).length >= cuts ? true : undefined),
        150_000,
      );
    }
    answers.push({ status: res.status, detail, hour });
  }
  return answers;
}

interface Answer {
  status: number;
  detail: string;
  hour: string;
}

/** In each UTC hour (a run may cross one: the budget starts again), CUTS × 503 and then only 429s. */
function expectBounded(answers: Answer[]) {
  const hours = [...new Set(answers.map((a) => a.hour))];
  for (const hour of hours) {
    const statuses = answers.filter((a) => a.hour === hour).map((a) => a.status);
    const cuts = Math.min(CUTS, statuses.length);
    expect({ hour, statuses }).toEqual({
      hour,
      statuses: [...Array(cuts).fill(503), ...Array(statuses.length - cuts).fill(429)],
    });
  }
  expect(answers.filter((a) => a.status === 429).length).toBeGreaterThanOrEqual(10 - CUTS * hours.length);
  expect(answers.find((a) => a.status === 429)!.detail).toContain(
    `${CUTS}-per-hour allowance of requests cut at their deadline`,
  );
}

test('narration: a text cut at the deadline, 10 times from one address: 3 × 503 (each narration stopped early), then 429; nothing charged', async () => {
  const ip = '198.51.100.71';
  const text = Array.from(
    { length: 400 },
    (_, i) => `La frase número ${i + 1} de un texto largo que se lee en voz alta sin prisa.`,
  ).join(' '); // ~53,000 characters: an hour of audio, far more than 5 s of work
  const answers = await tenTimes(
    () => postJson(rt.url('/convert/text'), { text, output_format: 'mp3' }, { 'x-forwarded-for': ip }),
    'conversion abandoned after the early-timeout answer; charge given back',
  );
  expectBounded(answers);
  // Each cut narration stopped before its last chunk: no engine call began after its request was answered.
  const stopped = lines('conversion abandoned after the early-timeout answer; charge given back');
  expect(stopped).toHaveLength(answers.filter((a) => a.status === 503).length);
  // (A request cut before its narration began logs that instead: no engine call at all.)
  const progress = stopped.map((s) =>
    s.narration === 'not started' || (s.chunksStarted as number) < (s.chunks as number) ? 'stopped early' : s,
  );
  expect(progress).toEqual(Array(stopped.length).fill('stopped early'));
  const quotas = new DynamoQuotaStore(dynamo(), process.env.QUOTAS_TABLE!);
  const [hour] = await quotas.peek(ipSubject(ip), [{ period: 'hour', limit: 100 }]);
  expect(hour!.used).toBe(0);
});

test('documents: a 10-part merge cut at the deadline, 10 times from one address: 3 × 503 (each stopped before its last part), then 429; nothing charged', async () => {
  const ip = '198.51.100.72';
  const rows = Array.from({ length: 1500 }, (_, i) => ({
    ...ventas.rows[i % ventas.rows.length]!,
    product: `Producto ${i + 1}`,
  }));
  const part = { template: 'ventas', data: { ...ventas, rows } };
  const body = { format: 'pdf', documents: Array.from({ length: 10 }, () => part) }; // ~1.5 MB of rows
  const answers = await tenTimes(
    () => postJson(`${rt.documentsUrl!}/v1/render`, body, { 'x-forwarded-for': ip }),
    'render abandoned after the early-timeout answer; charge given back',
  );
  expectBounded(answers);
  const stopped = lines('render abandoned after the early-timeout answer; charge given back');
  expect(stopped).toHaveLength(answers.filter((a) => a.status === 503).length);
  for (const s of stopped) expect(s).toMatchObject({ documents: 10, rendered: expect.any(Number) });
  for (const s of stopped) expect(s.rendered as number).toBeLessThan(10);
  const quotas = new DynamoQuotaStore(dynamo(), process.env.QUOTAS_TABLE!);
  const [month] = await quotas.peek(`docs#${ipSubject(ip)}`, monthlyRules('free'));
  expect(month!.used).toBe(0);
});
