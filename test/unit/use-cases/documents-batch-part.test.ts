// A batch part (use-cases/batch-part.ts) with fakes for the stores and the renderer: it reads its CFDI while its
// start is recorded, reads the next CFDI while Chromium prints the current one, and counts the PDFs it stored in the
// service's stats beside its outcomes. Each test pins what those overlaps must not change: a part of a batch that is
// gone is skipped (its unread CFDI are no fault), a CFDI that cannot be printed is refused in its turn, and a part
// whose chunk could not be written fails (SQS retries it) with only its stored PDFs counted and no outcome written.
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
  expect(chunks).toEqual([[uuids[0], uuids[2], uuids[3]]]);
  expect({ counts, stats }).toEqual({ counts: [[3, 1]], stats: [3] });
});

test('a chunk that cannot be written fails the part before its last attempt: only the stored PDFs are counted, no outcome is written', async () => {
  const part = entries('part-chunk-fails', 12);
  const { answer, chunks, outcomes, stats, counts } = await run(part, { failChunk: 1, attempt: 1 });
  expect(answer).toEqual(new Error('S3 is down'));
  expect(chunks).toEqual([part.slice(0, 10).map((e) => e.row.uuid)]);
  expect({ outcomes, stats, counts }).toEqual({ outcomes: [], stats: [10], counts: [] });
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
    chunks: [
      [10, 11, 12, 13, 14, 15, 16, 17, 18, 19],
      [20, 21, 22],
    ],
    outcomes: 0,
    stats: [13],
    counts: [],
  });
});
