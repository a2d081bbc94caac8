// lambdas/shared/growth/coalesce.ts: increments made while a write is in flight share the next write, and the
// counter stays exact: every increment is written exactly once, each caller learns the fate of its own write.
// Writes are held open by the test (deferred promises), so nothing depends on timing.
import { coalescedCounter } from '../../lambdas/shared/growth/coalesce';

function heldWrites() {
  const writes: { deltas: Record<string, number>; settle: (ok: boolean) => void }[] = [];
  const totals: Record<string, number> = {};
  const write = (deltas: Record<string, number>) =>
    new Promise<void>((resolve, reject) => {
      writes.push({
        deltas,
        settle: (ok) => {
          if (!ok) return reject(new Error('throttled'));
          for (const [k, v] of Object.entries(deltas)) totals[k] = (totals[k] ?? 0) + v;
          resolve();
        },
      });
    });
  return { writes, totals, write };
}

const flush = () => new Promise((r) => setImmediate(r));

test('one caller at a time: one write each, with its own deltas', async () => {
  const { writes, totals, write } = heldWrites();
  const add = coalescedCounter(write);
  for (let i = 0; i < 3; i++) {
    const done = add({ documents: 1, format_pdf: 1 });
    await flush();
    expect(writes).toHaveLength(i + 1);
    writes[i]!.settle(true);
    expect(await done).toBe(true);
  }
  expect(totals).toEqual({ documents: 3, format_pdf: 3 });
});

test('increments made during a write share the next one; the totals are exact', async () => {
  const { writes, totals, write } = heldWrites();
  const add = coalescedCounter(write);
  const first = add({ documents: 1, format_html: 1 });
  await flush();
  expect(writes).toHaveLength(1); // in flight
  const during = [
    add({ documents: 1, format_pdf: 1 }),
    add({ documents: 1, format_html: 1 }),
    add({ documents: -1, format_html: -1 }), // a take-back joins too
    add({ documents: 1, format_csv: 1 }),
  ];
  await flush();
  expect(writes).toHaveLength(1); // they wait for the write in flight
  writes[0]!.settle(true);
  expect(await first).toBe(true);
  await flush();
  expect(writes).toHaveLength(2);
  expect(writes[1]!.deltas).toEqual({ documents: 2, format_pdf: 1, format_csv: 1 }); // format_html: +1 −1
  writes[1]!.settle(true);
  expect(await Promise.all(during)).toEqual([true, true, true, true]);
  expect(totals).toEqual({ documents: 3, format_html: 1, format_pdf: 1, format_csv: 1 });
});

test('a failed write is reported to exactly its callers; later increments are still written', async () => {
  const { writes, totals, write } = heldWrites();
  const add = coalescedCounter(write);
  const a = add({ documents: 1 });
  await flush();
  const b = add({ documents: 1 });
  const c = add({ documents: 1 });
  writes[0]!.settle(false);
  expect(await a).toBe(false);
  await flush();
  writes[1]!.settle(true);
  expect(await Promise.all([b, c])).toEqual([true, true]);
  const d = add({ documents: 1 });
  await flush();
  writes[2]!.settle(true);
  expect(await d).toBe(true);
  expect(totals).toEqual({ documents: 3 });
});

test('increments that cancel out write nothing', async () => {
  const { writes, write } = heldWrites();
  const add = coalescedCounter(write);
  const both = [add({ documents: 1 }), add({ documents: -1 })];
  expect(await Promise.all(both)).toEqual([true, true]);
  expect(writes).toHaveLength(0);
});
