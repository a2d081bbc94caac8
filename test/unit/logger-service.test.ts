// lambdas/shared/logger.ts: a line names the service of the invocation that wrote it. In Lambda that is the
// function's POWERTOOLS_SERVICE_NAME; the local runtime serves both services in one process and runs each
// invocation inside asService(), so interleaved invocations of the two services keep their own names.
import { asService, logger } from '../../lambdas/shared/logger';

async function linesOf(fn: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
  let raw = '';
  const grab = (chunk: unknown) => {
    raw += typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8');
    return true;
  };
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(grab as never);
  try {
    await fn();
  } finally {
    out.mockRestore();
  }
  return raw
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

test('interleaved invocations of both services each log their own service name', async () => {
  const tick = () => new Promise((r) => setImmediate(r));
  const lines = await linesOf(() =>
    Promise.all([
      asService('documents', async () => {
        logger.info('d1');
        await tick();
        logger.info('d2');
      }),
      asService('narration', async () => {
        logger.info('n1');
        await tick();
        logger.info('n2');
      }),
    ]),
  );
  const service = Object.fromEntries(lines.map((l) => [l.message, l.service]));
  expect(service).toEqual({ d1: 'documents', d2: 'documents', n1: 'narration', n2: 'narration' });
  // The rest of Powertools' line is kept.
  expect(lines[0]).toMatchObject({ level: 'INFO', sampling_rate: 0 });
  expect(typeof lines[0]!.timestamp).toBe('string');
});

test('outside an invocation the configured name stands (POWERTOOLS_SERVICE_NAME, else not a service name)', async () => {
  const [line] = await linesOf(async () => logger.info('plain'));
  expect(line!.service).toBe(process.env.POWERTOOLS_SERVICE_NAME ?? 'vozdocs');
});
