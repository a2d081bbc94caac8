// The cost model's arithmetic (scripts/cost/, run by scripts/cost-model.ts): lines add up, each price is applied to
// its own quantity, queued and inline conversions count what their paths do, and the claim holds at the
// cited prices.
import { ASSUMPTIONS } from '../../scripts/cost/assumptions';
import { renderMarkdown } from '../../scripts/cost/markdown';
import { PRICES } from '../../scripts/cost/prices';
import {
  documentsCost,
  expansionOf,
  narrationCost,
  narrationSeconds,
  uploadRequests,
  type Breakdown,
} from '../../scripts/cost/scenarios';

const line = (b: Breakdown, start: string) => b.lines.find((l) => l.item.startsWith(start));
const sum = (b: Breakdown) => b.lines.reduce((s, l) => s + l.usd, 0);

describe('narration', () => {
  const neural = { charsPerConversion: 1500, engine: 'neural' as const, expansion: 1 };

  test('Polly is billed per character after expansion, at the engine price', () => {
    const a = narrationCost(neural);
    const b = narrationCost({ ...neural, expansion: 1.5 });
    const std = narrationCost({ ...neural, engine: 'standard' });
    expect(line(a, 'Polly')!.usd).toBeCloseTo(1_000_000 * PRICES.pollyNeural.usd, 9);
    expect(line(b, 'Polly')!.usd).toBeCloseTo(1.5 * line(a, 'Polly')!.usd, 9);
    expect(line(std, 'Polly')!.usd).toBeCloseTo(1_000_000 * PRICES.pollyStandard.usd, 9);
    expect(a.speechUsd).toBe(line(a, 'Polly')!.usd);
  });

  test('totals are the sum of the lines, and infrastructure is everything but Polly', () => {
    for (const b of [narrationCost(neural), narrationCost({ ...neural, charsPerConversion: 20_000 })]) {
      expect(b.totalUsd).toBeCloseTo(sum(b), 12);
      expect(b.infraUsd).toBeCloseTo(b.totalUsd - b.speechUsd, 12);
      for (const l of b.lines) expect(l.usd).toBeGreaterThanOrEqual(0);
    }
  });

  test('each line is its quantity times its unit price', () => {
    const b = narrationCost({ ...neural, charsPerConversion: 20_000 });
    const sqs = line(b, 'SQS')!;
    // 1M characters in 20,000-character jobs: 50 jobs × (send + receive + delete).
    expect(sqs.quantity).toBe(50 * 3);
    expect(sqs.usd).toBeCloseTo(150 * PRICES.sqsRequest.usd, 12);
    const api = line(b, 'API Gateway')!;
    expect(api.quantity).toBe(50 * (1 + ASSUMPTIONS.pollsPerLongJob));
    expect(api.usd).toBeCloseTo(api.quantity * PRICES.apiHttpRequest.usd, 12);
  });

  test('inline conversions run in ConvertText, their queue is the backstop; queued ones run in the worker', () => {
    const inline = narrationCost(neural);
    const queued = narrationCost({ ...neural, charsPerConversion: ASSUMPTIONS.chunkChars + 1 });
    const conversions = 1_000_000 / neural.charsPerConversion;
    // One message each (send + receive + delete): the backstop, read by a short worker invocation.
    expect(line(inline, 'SQS')!.quantity).toBe(conversions * 3);
    expect(line(inline, 'Lambda Worker reading the backstop')!.quantity).toBeCloseTo(
      conversions * ASSUMPTIONS.getAudioS * (ASSUMPTIONS.workerMemMb / 1024),
      9,
    );
    expect(line(queued, 'Lambda Worker reading the backstop')).toBeUndefined();
    expect(line(inline, 'Lambda ConvertText (')).toBeDefined();
    expect(line(queued, 'SQS')).toBeDefined();
    expect(line(queued, 'Lambda Worker (')).toBeDefined();
  });

  test('Lambda time follows the assumptions: synthesis + encoding at the memory size CPU share + overhead', () => {
    const a = { ...ASSUMPTIONS, charsPerSecond: 10, pollyXRealtime: 5, encoderXRealtime: 50, overheadS: 1 };
    // 1,000 characters = 100 s of audio: 20 s of Polly, 2 s of encoding on a full core, 4 s on half a core.
    expect(narrationSeconds(1000, a.fullVcpuMb, a)).toBeCloseTo(20 + 2 + 1, 9);
    expect(narrationSeconds(1000, a.fullVcpuMb / 2, a)).toBeCloseTo(20 + 4 + 1, 9);
    expect(narrationSeconds(1000, a.fullVcpuMb * 4, a)).toBeCloseTo(23, 9); // one thread: no gain past one vCPU
    // 1,000 conversions of 1,000 characters, each billed memory × its seconds.
    const b = narrationCost({ ...neural, charsPerConversion: 1000 }, PRICES, a);
    const seconds = narrationSeconds(1000, a.syncMemMb, a);
    expect(line(b, 'Lambda ConvertText (')!.quantity).toBeCloseTo(1000 * seconds * (a.syncMemMb / 1024), 6);
  });

  test("the infrastructure is a small fraction of Polly's with neural voices (issue #7)", () => {
    for (const chars of [500, 1500, 3000, 20_000, 100_000]) {
      const b = narrationCost({ ...neural, charsPerConversion: chars });
      expect(b.infraUsd / b.speechUsd).toBeLessThan(0.1);
    }
  });
});

test('uploads: one PUT up to the part size, else create + parts + complete', () => {
  const part = ASSUMPTIONS.multipartPartBytes;
  expect(uploadRequests(1)).toBe(1);
  expect(uploadRequests(part)).toBe(1);
  expect(uploadRequests(part + 1)).toBe(2 + 2);
  expect(uploadRequests(2.4 * part)).toBe(3 + 2);
});

test('documents: the render Lambda is billed at x86 prices for the averaged warm/cold duration', () => {
  const a = { ...ASSUMPTIONS, renderWarmMs: 100, coldShare: 0.1, coldRenderMs: 1100, renderMemMb: 2048 };
  const b = documentsCost(PRICES, a);
  const render = line(b, 'Lambda Render')!;
  // Average 0.9 × 100 + 0.1 × 1100 = 200 ms; 1,000 renders × 0.2 s × 2 GB = 400 GB-s.
  expect(render.quantity).toBeCloseTo(400, 9);
  expect(render.usd).toBeCloseTo(400 * PRICES.lambdaX86GbS.usd, 12);
  expect(b.totalUsd).toBeCloseTo(sum(b), 12);
  expect(b.speechUsd).toBe(0);
});

test('reading rules lengthen number-dense text and leave plain words alone', () => {
  expect(expansionOf('La casa azul está al final de la calle.')).toBe(1);
  expect(expansionOf('Pagó $1,234.56 el 03/04/2024.')).toBeGreaterThan(1.5);
});

test('the generated document names every price with its source', () => {
  const md = renderMarkdown();
  for (const p of Object.values(PRICES)) expect(md).toContain(p.source);
  expect(md).toMatch(/Infrastructure ÷ Polly/);
});
