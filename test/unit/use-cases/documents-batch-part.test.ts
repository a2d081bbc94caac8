// A batch part (use-cases/batch-part.ts) with fakes for the stores and the renderer: it reads its CFDI while its
// start is recorded, reads the next CFDI while Chromium prints the current one, and counts the PDFs it stored in the
// service's stats beside its outcomes. Each test pins what those overlaps must not change: a part of a batch that
// is gone is skipped (its unread CFDI are no fault), a CFDI that cannot be printed is refused in its turn, and a
// part whose chunk could not be written fails (SQS retries it) with only its stored PDFs counted and no outcome
// written.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { entries, runPart as run } from '../../helpers/batch-part-run';

test('a part whose batch is gone is skipped, though its CFDI could not be read (read while its start is recorded)', async () => {
  const { answer, rendered, outcomes, counts } = await run(new Error('NoSuchKey: the batch was deleted'), {
    started: false,
  });
  expect(answer).toBe('skipped');
  expect({ rendered, outcomes, counts }).toEqual({ rendered: [], outcomes: [], counts: [] });
});

test('a CFDI that cannot be printed, read while the one before it prints, is refused in its turn; the rest print', async () => {
  const part = entries('part-refused', 4);
  // Cut in half (as a file damaged after the split read it): the renderer's own reading refuses it.
  const broken = { ...part[1]!, xml: part[1]!.xml.slice(0, part[1]!.xml.length / 2) };
  const { answer, outcomes, counts, stats, chunks } = await run([part[0]!, broken, part[2]!, part[3]!]);
  expect(answer).toBe('done');
  const uuids = part.map((e) => e.row.uuid);
  expect(outcomes).toHaveLength(1);
  expect(outcomes[0]!.map((o) => [o.uuid, o.ok])).toEqual([
    [uuids[0], true],
    [uuids[1], false],
    [uuids[2], true],
    [uuids[3], true],
  ]);
  expect(outcomes[0]![1]!.motivo).toMatch(/^No se pudo imprimir: Not well-formed XML/);
  // The part's last PDF alone in its chunk: the one write left after the last render is small.
  expect(chunks).toEqual([[uuids[0], uuids[2]], [uuids[3]]]);
  expect({ counts, stats }).toEqual({ counts: [[3, 1]], stats: [3] });
});

test('a chunk that cannot be written fails the part before its last attempt: only the stored PDFs are counted', async () => {
  // 22 CFDI (more than a part holds) for three chunks: 20, then the 21st, then the last one alone.
  const part = entries('part-chunk-fails', 22);
  const { answer, chunks, outcomes, stats, counts } = await run(part, { failChunk: 1, attempt: 1 });
  expect(answer).toEqual(new Error('S3 is down'));
  const uuids = part.map((e) => e.row.uuid);
  // Chunk 1 (the 21st PDF) failed; the last PDF, in chunk 2, was written. The outcome, written beside the last
  // chunk, names chunk 1: a run after this one finds it missing and does not trust that outcome (next test).
  expect(chunks).toEqual([uuids.slice(0, 20), [uuids[21]]]);
  expect(outcomes.map((o) => o.map((x) => x.chunk))).toEqual([[...Array<number>(20).fill(0), 1, 2]]);
  expect({ stats, counts }).toEqual({ stats: [21], counts: [] });
});

test('a part run again counts from its stored outcome only if every PDF it names is stored: the missing ones print again', async () => {
  const part = entries('part-run-again', 22);
  const uuids = part.map((e) => e.row.uuid);
  const first = await run(part, { failChunk: 1, attempt: 1 });
  const again = await run(part, { attempt: 2, before: { outcome: first.outcomes[0], stored: first.stored } });
  expect(again.answer).toBe('done');
  expect(again.rendered).toEqual([uuids[20]]);
  expect(again.counts).toEqual([[22, 0]]);
  // Its outcome names each PDF where S3 holds it: the 21st in the new chunk, the rest where the first run put them.
  const where = new Map([...first.stored, ...again.stored].map((p) => [p.uuid, p.chunk]));
  expect(again.outcomes.at(-1)!.map((o) => [o.ok, o.chunk])).toEqual(uuids.map((u) => [true, where.get(u)]));
  expect(where.get(uuids[20]!)).toBe(3);
  // Control: an outcome whose PDFs are all stored is counted as it is, nothing printed again.
  const whole = await run(part, {
    attempt: 2,
    before: { outcome: again.outcomes.at(-1), stored: [...first.stored, ...again.stored] },
  });
  expect({ rendered: whole.rendered, counts: whole.counts, outcomes: whole.outcomes }).toEqual({
    rendered: [],
    counts: [[22, 0]],
    outcomes: [],
  });
});

test('a chunk lost on the last attempt: its PDF fails (not charged), written over the outcome that named it stored', async () => {
  const part = entries('part-last-attempt', 22);
  const { answer, outcomes, counts } = await run(part, { failChunk: 1, failLate: true, attempt: 3 });
  expect(answer).toBe('done');
  expect(outcomes).toHaveLength(2);
  expect(outcomes[0]!.filter((o) => !o.ok)).toEqual([]);
  expect(outcomes[1]!.filter((o) => !o.ok).map((o) => [o.uuid, o.motivo])).toEqual([
    [part[20]!.row.uuid, expect.stringMatching(/^Falló la impresión de nuestro lado tras 3 intentos/)],
  ]);
  expect(counts).toEqual([[21, 1]]);
});

test('a part near its timeout renders no more: before the last attempt it writes what it rendered and fails, the next run renders the rest', async () => {
  const part = entries('part-out-of-time', 14);
  const uuids = part.map((e) => e.row.uuid);
  const first = await run(part, { attempt: 1, timeFor: 4 });
  expect(first.answer).toEqual(
    expect.objectContaining({ message: expect.stringMatching(/ran out of time/) }),
  );
  expect(first.chunks).toEqual([uuids.slice(0, 4)]);
  expect({ outcomes: first.outcomes, counts: first.counts }).toEqual({ outcomes: [], counts: [] });
  const again = await run(part, { attempt: 2, before: { stored: first.stored } });
  expect(again.answer).toBe('done');
  expect(again.rendered).toEqual(uuids.slice(4));
  expect(again.counts).toEqual([[14, 0]]);
});

test('a part near its timeout on its last attempt reports the CFDI left as failed (not charged) and is counted', async () => {
  const part = entries('part-out-of-time-last', 9);
  const { answer, rendered, outcomes, counts } = await run(part, { attempt: 3, timeFor: 6 });
  expect(answer).toBe('done');
  expect(rendered).toHaveLength(6);
  expect(outcomes.at(-1)!.map((o) => o.ok)).toEqual([
    true,
    true,
    true,
    true,
    true,
    true,
    false,
    false,
    false,
  ]);
  expect(outcomes.at(-1)![8]!.motivo).toMatch(
    /^Falló la impresión de nuestro lado tras 3 intentos \(not charged/,
  );
  expect(counts).toEqual([[6, 3]]);
});

test('a PDF whose post-processing fails is that CFDI’s fault on our side: the part retries it, then reports it alone', async () => {
  const part = entries('part-torn-print', 5);
  const uuids = part.map((e) => e.row.uuid);
  // Before the last attempt: the part fails; the PDFs printed before it are written, nothing after it counts.
  const first = await run(part, { attempt: 1, tornPrint: 2 });
  expect(first.answer).toBeInstanceOf(Error);
  expect(first.chunks).toEqual([uuids.slice(0, 2)]);
  expect({ outcomes: first.outcomes, counts: first.counts }).toEqual({ outcomes: [], counts: [] });
  // On the last attempt: that CFDI fails (not charged), the ones before and after it are stored.
  const last = await run(part, { attempt: 3, tornPrint: 2 });
  expect(last.answer).toBe('done');
  expect(last.outcomes.at(-1)!.map((o) => [o.uuid, o.ok])).toEqual(uuids.map((u, i) => [u, i !== 2]));
  expect(last.outcomes.at(-1)![2]!.motivo).toMatch(/^Falló la impresión de nuestro lado tras 3 intentos/);
  expect(last.chunks.flat()).toEqual([uuids[0], uuids[1], uuids[3], uuids[4]]);
  expect(last.counts).toEqual([[4, 1]]);
});

test('a chunk that cannot be written while the next CFDI still print fails the part, and does not end the process', () => {
  // In a Node process of its own (tsx), as the local runtime and Lambda's run it: a rejection left without a handler
  // while the part goes on would end it (it ended `npm start` mid-batch).
  const root = join(__dirname, '..', '..', '..');
  const out = spawnSync(join(root, 'node_modules', '.bin', 'tsx'), ['test/helpers/batch-part-run.ts'], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  expect(out.stderr).not.toMatch(/Unhandled|S3 is down/);
  expect(out.status).toBe(0);
  const result = JSON.parse(out.stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
  // The failed write did not stop the rendering (SQS redelivers the part; the chunks stored are kept and counted).
  expect(result).toEqual({
    answer: 'Error: S3 is down',
    rendered: 23,
    chunks: [[20, 21], [22]],
    outcomes: 1,
    stats: [3],
    counts: [],
  });
});
