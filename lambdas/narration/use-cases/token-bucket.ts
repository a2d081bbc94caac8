// Calls to a rate-limited engine (Polly: 8 SynthesizeSpeech transactions per second per account for neural voices)
// paced by a token bucket, with adaptive backoff: a call refused for throttling halves the rate (down to 1/s) and
// is retried after a pause; each success earns the rate back gradually (additive increase). The AWS SDK's adaptive
// retry mode does the same per client; this bucket keeps the many chunks of one narration from causing it at all.
// The bucket holds one token: starts are evenly spaced, never a burst, so no one-second window (however it is
// aligned) sees more than the limit; and they are spaced 5 % wider than the limit, so requests that travel a few
// milliseconds apart do not arrive closer than the limit allows.

/** How an engine says "slow down" (the SDK's ThrottlingException, HTTP 429, Polly's own limits). */
export function isThrottling(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } } | undefined;
  return (
    !!e &&
    (e.name === 'ThrottlingException' ||
      e.name === 'TooManyRequestsException' ||
      e.$metadata?.httpStatusCode === 429)
  );
}

/** Fraction of the limit the bucket paces at (room for network jitter between send and arrival). */
export const PACING_MARGIN = 0.9;

export class TokenBucket {
  private rate: number;
  private tokens = 1;
  private last: number;
  private queue = Promise.resolve();
  private readonly maxPerSecond: number;

  constructor(
    maxPerSecond: number,
    private readonly opts: {
      maxRetries?: number;
      sleep?: (ms: number) => Promise<void>;
      now?: () => number;
    } = {},
  ) {
    this.maxPerSecond = maxPerSecond * PACING_MARGIN;
    this.rate = this.maxPerSecond;
    this.last = this.now();
  }

  /** Current permitted rate (calls per second). */
  get currentRate(): number {
    return this.rate;
  }

  /** Runs `call` once a token is available; retries it on throttling with the rate lowered. */
  async run<T>(call: () => Promise<T>): Promise<T> {
    const maxRetries = this.opts.maxRetries ?? 5;
    for (let attempt = 0; ; attempt++) {
      await this.acquire();
      try {
        const out = await call();
        this.rate = Math.min(this.maxPerSecond, this.rate + 0.25);
        return out;
      } catch (err) {
        if (!isThrottling(err) || attempt >= maxRetries) throw err;
        this.rate = Math.max(1, this.rate / 2);
        await this.sleep(Math.min(4000, 250 * 2 ** attempt) * (0.5 + Math.random() / 2));
      }
    }
  }

  /** Takes one token, in arrival order. */
  private acquire(): Promise<void> {
    const turn = this.queue.then(async () => {
      for (;;) {
        const now = this.now();
        this.tokens = Math.min(1, this.tokens + ((now - this.last) / 1000) * this.rate);
        this.last = now;
        if (this.tokens >= 1) {
          this.tokens -= 1;
          return;
        }
        await this.sleep(Math.ceil(((1 - this.tokens) / this.rate) * 1000));
      }
    });
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  private now(): number {
    return this.opts.now ? this.opts.now() : Date.now();
  }

  private sleep(ms: number): Promise<void> {
    return this.opts.sleep ? this.opts.sleep(ms) : new Promise((r) => setTimeout(r, ms));
  }
}
