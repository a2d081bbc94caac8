// Injected failures for the in-memory fakes: `faults.fail('putJobText')` makes the next call of that operation
// reject (like a backing service's outage); `times` lets several calls fail.
export class Faults {
  private readonly pending = new Map<string, { err: Error; times: number }>();

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
