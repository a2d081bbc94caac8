// Counter increments made while a write of the same counter is in flight share the next write: N concurrent
// requests cost about two DynamoDB writes instead of N. Exact: every increment belongs to exactly one write, and each
// caller's promise settles with the write that carried its increment (nothing is deferred past a response, so a
// Lambda container frozen after answering loses nothing). One request at a time (Lambda) writes exactly as before.
export type CounterWrite = (deltas: Record<string, number>) => Promise<unknown>;

/** `add(deltas)` resolves true once the write carrying them succeeded, false if that write failed. */
export function coalescedCounter(write: CounterWrite): (deltas: Record<string, number>) => Promise<boolean> {
  let open: { deltas: Record<string, number>; result: Promise<boolean> } | undefined;
  let tail: Promise<unknown> = Promise.resolve();
  return (deltas) => {
    let batch = open;
    if (!batch) {
      const next = { deltas: {} as Record<string, number>, result: Promise.resolve(false) };
      // Starts once the previous write settled (at once when none is in flight): increments made until then join.
      next.result = tail.then(async () => {
        if (open === next) open = undefined;
        const nonZero = Object.entries(next.deltas).filter(([, v]) => v !== 0);
        if (!nonZero.length) return true; // increments and their take-backs cancelled out
        return write(Object.fromEntries(nonZero)).then(
          () => true,
          () => false,
        );
      });
      tail = next.result;
      open = batch = next;
    }
    for (const [k, v] of Object.entries(deltas)) batch.deltas[k] = (batch.deltas[k] ?? 0) + v;
    return batch.result;
  };
}
