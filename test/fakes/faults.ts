// Injected failures for the in-memory fakes: `faults.fail('putJobText')` makes the next call of that operation
// reject (like a backing service's outage); `times` lets several calls fail. `faults.hold('synthesize')` stops the
// next call of an operation that awaits `pass()` until the test releases it: a request held mid-way, so a race is
// played in a chosen order instead of by timing.
export class Faults {
  private readonly pending = new Map<string, { err: Error; times: number }>();
  private readonly holds = new Map<string, { reached: () => void; released: Promise<void> }>();

  hold(op: string): { reached: Promise<void>; release: () => void } {
    let reached!: () => void;
    let release!: () => void;
    const reachedP = new Promise<void>((r) => (reached = r));
    const released = new Promise<void>((r) => (release = r));
    this.holds.set(op, { reached, released });
    return { reached: reachedP, release };
  }

  /** check(), then wait while the call is held (once: the hold is used up). */
  async pass(op: string): Promise<void> {
    this.check(op);
    const h = this.holds.get(op);
    if (!h) return;
    this.holds.delete(op);
    h.reached();
    await h.released;
  }

  fail(op: string, err: Error = new Error(`${op} unavailable`), times = 1): void {
    this.pending.set(op, { err, times });
  }

  /** Called first by every faultable operation. */
  check(op: string): void {
    const f = this.pending.get(op);
    if (!f) return;
    if (--f.times <= 0) this.pending.delete(op);
    throw f.err;
  }
}
