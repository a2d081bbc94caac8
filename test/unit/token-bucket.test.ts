// The pacing of Polly calls (lambdas/narration/use-cases/token-bucket.ts) on a virtual clock: evenly spaced starts
// under the limit in every one-second window, halving on throttling and earning the rate back, other errors thrown.
import { PACING_MARGIN, TokenBucket } from '../../lambdas/narration/use-cases/token-bucket';

/** A virtual clock: sleeping moves it forward instead of waiting. */
function clock() {
  let t = 1_000_000;
  return {
    now: () => t,
    sleep: async (ms: number) => {
      t += ms;
      await Promise.resolve();
    },
  };
}

function mostInAnySecond(starts: number[]): number {
  let most = 0;
  for (let i = 0; i < starts.length; i++) {
    const inWindow = starts.filter((s) => s >= starts[i]! && s < starts[i]! + 1000).length;
    most = Math.max(most, inWindow);
  }
  return most;
}

describe('TokenBucket', () => {
  it('spaces starts evenly, under the limit in every one-second window, even after an idle pause', async () => {
    const c = clock();
    const bucket = new TokenBucket(4, c);
    const starts: number[] = [];
    const call = async () => void starts.push(c.now());
    await Promise.all(Array.from({ length: 20 }, () => bucket.run(call)));
    await c.sleep(5000); // idle: a bucket with capacity would now allow a burst
    await Promise.all(Array.from({ length: 20 }, () => bucket.run(call)));

    expect(starts).toHaveLength(40);
    expect(mostInAnySecond(starts)).toBeLessThanOrEqual(4);
    const gaps = starts.slice(1).map((s, i) => s - starts[i]!);
    const spacing = 1000 / (4 * PACING_MARGIN);
    for (const g of gaps) expect(g).toBeGreaterThanOrEqual(Math.floor(spacing));
    // …and not slower than needed: 20 starts take 19 spacings (+1 ms of rounding each).
    expect(starts[19]! - starts[0]!).toBeLessThanOrEqual(19 * (spacing + 1));
  });

  it('halves the rate on throttling, retries, and earns it back on success', async () => {
    const c = clock();
    const bucket = new TokenBucket(4, c);
    let n = 0;
    const out = await bucket.run(async () => {
      if (n++ < 2) throw Object.assign(new Error('Rate exceeded'), { name: 'ThrottlingException' });
      return 'ok';
    });
    expect(out).toBe('ok');
    expect(n).toBe(3);
    expect(bucket.currentRate).toBeCloseTo(Math.max(1, (4 * PACING_MARGIN) / 4) + 0.25, 6); // halved twice, floor 1/s
    for (let i = 0; i < 20; i++) await bucket.run(async () => undefined);
    expect(bucket.currentRate).toBeCloseTo(4 * PACING_MARGIN, 6);
  });

  it('throws other errors at once, and gives up after maxRetries throttles', async () => {
    const c = clock();
    const bucket = new TokenBucket(4, { ...c, maxRetries: 2 });
    let calls = 0;
    await expect(
      bucket.run(async () => {
        calls++;
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(calls).toBe(1);
    calls = 0;
    await expect(
      bucket.run(async () => {
        calls++;
        throw Object.assign(new Error('slow down'), { $metadata: { httpStatusCode: 429 } });
      }),
    ).rejects.toThrow('slow down');
    expect(calls).toBe(3);
  });
});
