// narrate()'s scheduler: engine calls with bounded concurrency, results taken strictly in order.
/**
 * Runs `work` over `items` with at most `concurrency` calls in flight and at most `window` results held
 * ahead of the consumer, who takes results in order with take(0), take(1), ...
 */
export class OrderedSynthesis<I, R> {
  private readonly results = new Map<number, Promise<R>>();
  private readonly window: number;
  private nextToStart = 0;
  private nextToTake = 0;
  private inFlight = 0;
  private stopped = false;

  constructor(
    private readonly items: I[],
    private readonly work: (item: I, index: number) => Promise<R>,
    private readonly concurrency: number,
  ) {
    this.concurrency = Math.max(1, Math.floor(concurrency) || 1);
    // Enough lookahead to keep every slot busy while the consumer works on the current chunk, no more.
    this.window = this.concurrency + 1;
    this.pump();
  }

  take(i: number): Promise<R> {
    if (i !== this.nextToTake)
      throw new Error(`chunks are taken in order: expected ${this.nextToTake}, got ${i}`);
    const result = this.results.get(i);
    if (!result) throw new Error(`chunk ${i} was never started`);
    this.results.delete(i); // the consumer holds it now; nothing else keeps its samples alive
    this.nextToTake++;
    this.pump();
    return result;
  }

  /** Starts nothing more (in-flight calls finish on their own; their results are dropped). */
  stop(): void {
    this.stopped = true;
    this.results.clear();
  }

  private pump(): void {
    while (
      !this.stopped &&
      this.nextToStart < this.items.length &&
      this.inFlight < this.concurrency &&
      this.nextToStart < this.nextToTake + this.window
    ) {
      const i = this.nextToStart++;
      this.inFlight++;
      const item = this.items[i]!;
      const p = (async () => this.work(item, i))(); // a synchronous throw becomes a rejection
      const settled = () => {
        this.inFlight--;
        this.pump();
      };
      p.then(settled, () => {
        this.stopped = true; // a failed chunk fails the narration: start nothing more
        settled();
      });
      this.results.set(i, p);
    }
  }
}
