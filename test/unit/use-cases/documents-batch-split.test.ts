// The batch split queues the first window's parts while it still reads, never more CFDI than the account has left
// (quotas.peek when it began), and after the charge sends each chain's next part once: the parts counted while it
// read queued no successor. A split that cannot finish fails its batch on its last attempt, with its charge given
// back (through the batch assembler's handler). A zip's entry over 6,000,000 bytes is refused alone; a zip that
// expands past 1 GiB fails its batch while it is read. Fakes for the stores; the CFDI are the corpus' (readForBatch
// is real).
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';
import type { Refused } from '../../../lambdas/documents/core/cfdi-resumen';
import type { BatchEntry, JobRecord } from '../../../lambdas/documents/ports';
import type { BatchSplitDeps } from '../../../lambdas/documents/use-cases/batch-run-deps';
import { partSizes, splitBatch, tailSizes } from '../../../lambdas/documents/use-cases/batch-split';
import type { BatchStep } from '../../../lambdas/documents/use-cases/batches';
import { batchCorpus, zipOf } from '../../helpers/cfdi-batch';
import { jobRecord } from '../../fakes/documents';
import { FakeQuotaStore } from '../../fakes/platform';
import { monthlyRules } from '../../../lambdas/documents/core/plans';
import { assemblerWorld, MAX_RECEIVE_COUNT } from './batch-assembler-world';
import { batchAssembleDeps } from '../../../lambdas/documents/handlers/batch-assembler';
import { giveUpBatch } from '../../../lambdas/documents/use-cases/batch-end';
import { FakeMessageQueue } from '../../fakes/documents';

// The fakes' job record, as a batch just started.
const QUEUED: JobRecord = jobRecord(
  {
    jobId: 'job_split',
    owner: 'acct:split',
    plan: 'pro',
    template: null,
    format: 'zip',
    batch: { source: 'json', sourceKey: 'batches/job_split/source.json', quotaSubject: 'docs#acct#split' },
  },
  new Date('2026-11-29T00:00:00.000Z'),
);

/**
 * Splits the batch `job` from `source` (its upload's body) with `left` documents left this month; parts counted when
 * the split is recorded: `counted`. Answers the files of each part and the refusals too.
 */
async function runSplit(job: JobRecord, source: Readable, left: number, counted: number[] = []) {
  const sent: number[] = [];
  const sentBeforeCharge: number[] = [];
  let charged = false;
  const failed: string[] = [];
  const parts: string[][] = [];
  const refused: Refused[] = [];
  const charges: number[] = [];
  const deps = {
    jobs: {
      get: async () => job,
      planBatch: async () => new Set(counted),
      partsCounted: async () => new Set(counted),
      fail: async (_: string, reason: string) => failed.push(reason) > 0,
      markEnded: async () => true,
      recordBatchUnits: async () => true,
    },
    batchFiles: {
      openSource: async () => ({ body: source, bytes: 0 }),
      putPart: async (_: string, part: number, entries: BatchEntry[]) =>
        void (parts[part] = entries.map((e) => e.archivo)),
      putRefused: async (_: string, r: Refused[]) => void refused.push(...r),
    },
    batchQueue: {
      send: async (m: BatchStep) => {
        if (m.step !== 'part') throw new Error(`unexpected ${m.step}`);
        sent.push(m.part);
        if (!charged) sentBeforeCharge.push(m.part);
      },
    },
    assembleQueue: { send: async () => undefined },
    quotas: {
      peek: async () => [{ period: 'month', limit: 1000, used: 1000 - left }],
      consume: async (_s: string, _r: unknown, _n: Date, opts: { units: number }) => {
        charges.push(opts.units);
        charged = opts.units <= left;
        return charged
          ? { allowed: true, charged: [{ period: 'month' }] }
          : { allowed: false, binding: { remaining: left, limit: 1000 } };
      },
    },
    events: { subscribed: async () => false },
    now: () => new Date('2026-11-29T00:00:00.000Z'),
  } as unknown as BatchSplitDeps;
  const outcome = await splitBatch(deps, job.jobId);
  return {
    outcome,
    sent: sent.sort((a, b) => a - b),
    sentBeforeCharge: sentBeforeCharge.sort((a, b) => a - b),
    failed,
    sizes: parts.map((p) => p.length),
    parts,
    refused,
    charges,
  };
}

/**
 * Splits `count` CFDI (a JSON batch) with `left` documents left this month; parts counted when the split is recorded:
 * `counted`; each XML grown by a comment of `padding` characters.
 */
async function split(count: number, left: number, counted: number[] = [], padding = 0) {
  const xml = batchCorpus(`split-${count}-${left}`, count, false).files.map((f) =>
    padding ? f.xml.replace(/\?>/, `?><!--${' '.repeat(padding)}-->`) : f.xml,
  );
  return runSplit(QUEUED, Readable.from([Buffer.from(JSON.stringify(xml))]), left, counted);
}

test('parts are queued as they are written while what is left covers them; the rest after the charge, each once', async () => {
  // 45 CFDI: parts of 20, 13, 6, 6 (the tail tapers), and 45 left: all four queued as they are written (pro's
  // window: 10 parts), none again after the charge.
  expect(await split(45, 45)).toMatchObject({
    outcome: 'split',
    sentBeforeCharge: [0, 1, 2, 3],
    sent: [0, 1, 2, 3],
    sizes: [20, 13, 6, 6],
  });
});

test("a batch's last CFDI go into smaller parts, so its workers finish close together; every CFDI in one part", async () => {
  // 1,000 CFDI: 48 full parts written while reading, the 40 held back cut 20, 10, 5, 5 once the count is known.
  const { sizes } = await split(1000, 1000);
  expect(sizes).toEqual([...Array<number>(49).fill(20), 10, 5, 5]);
  // 230: 9 full parts while reading, the last 50 as 20, 15, 8, 7.
  expect((await split(230, 1000)).sizes).toEqual([...Array<number>(10).fill(20), 15, 8, 7]);
  // What the cost model counts is what the split does.
  expect(partSizes(1000)).toEqual(sizes);
  for (const n of [7, 45, 59, 60, 79, 80]) expect((await split(n, 1000)).sizes).toEqual(partSizes(n));
  for (const n of [1, 4, 5, 9, 10, 19, 20, 21, 39, 40, 59, 60, 61, 5000]) {
    const cut = tailSizes(n);
    expect(cut.reduce((a, b) => a + b, 0)).toBe(n);
    expect(Math.max(...cut)).toBeLessThanOrEqual(20);
    // No part under five CFDI unless the whole batch is; the sizes never grow towards the end.
    expect(Math.min(...cut)).toBeGreaterThanOrEqual(Math.min(5, n));
    expect([...cut].sort((a, b) => b - a)).toEqual(cut);
  }
  expect(tailSizes(40)).toEqual([20, 10, 5, 5]);
  expect(tailSizes(4)).toEqual([4]);
});

test('large XML: the split holds back at most 8 MB, so the tail of a batch of large files is cut from less', async () => {
  // 30 CFDI of ~600 KB: 20 of them are 12 MB, past the hold's 8 MB, so part 0 is written at once and the 10 left
  // are the tail (5, 5); small files are cut 15, 8, 7 (the whole batch held).
  expect((await split(30, 1000, [], 600_000)).sizes).toEqual([20, 5, 5]);
  expect((await split(30, 1000)).sizes).toEqual([15, 8, 7]);
});

test('a part counted while the split read: its chain goes on from the split (pro: a window of 10 parts)', async () => {
  // 230 CFDI: 13 parts. Part 0 (queued while reading) counted before the split was recorded: part 10 follows it,
  // sent by the split; parts 1–9 were queued while reading, 11 follows part 1 when part 1 is counted.
  const r = await split(230, 1000, [0]);
  expect(r.sentBeforeCharge).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  expect(r.sent).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
});

test('over what is left: at most that many CFDI queued before the charge, then it fails with nothing charged', async () => {
  const r = await split(45, 30);
  expect(r.outcome).toBe('failed');
  expect(r.failed).toEqual([
    expect.stringMatching(/^The batch has 45 CFDI to print but 30 documents are left/),
  ]);
  // Part 0 (20 CFDI) fits in 30; part 1 (13) would make 33.
  expect(r.sent).toEqual([0]);
});

test('a split run again in the next month (it died between its charge and its plan write) charges the month the batch started in, once', async () => {
  const xml = batchCorpus('split-month-turn', 25, false).files.map((f) => f.xml);
  const quotas = new FakeQuotaStore();
  const started: JobRecord = { ...QUEUED, createdAt: '2026-11-30T23:59:59.000Z' };
  let clock = new Date('2026-11-30T23:59:59.500Z');
  let dies = true;
  const deps = {
    jobs: {
      get: async () => started,
      planBatch: async () => {
        if (dies) throw new Error('the worker died here');
        return new Set<number>();
      },
      partsCounted: async () => new Set<number>(),
      recordBatchUnits: async () => true,
    },
    batchFiles: {
      openSource: async () => ({ body: Readable.from([Buffer.from(JSON.stringify(xml))]), bytes: 0 }),
      putPart: async () => undefined,
      putRefused: async () => undefined,
    },
    batchQueue: { send: async () => undefined },
    assembleQueue: { send: async () => undefined },
    quotas,
    events: { subscribed: async () => false },
    now: () => clock,
  } as unknown as BatchSplitDeps;
  await expect(splitBatch(deps, started.jobId)).rejects.toThrow('the worker died here');
  // SQS redelivers it after the turn of the month.
  clock = new Date('2026-12-01T00:00:02.000Z');
  dies = false;
  expect(await splitBatch(deps, started.jobId)).toBe('split');
  const used = async (at: string) =>
    (await quotas.peek(started.batch!.quotaSubject, monthlyRules('pro'), new Date(at)))[0]!.used;
  expect({
    november: await used('2026-11-15T00:00:00Z'),
    december: await used('2026-12-15T00:00:00Z'),
  }).toEqual({
    november: 25,
    december: 0,
  });
});

describe('a split that cannot finish gives its charge back (the batch assembler, its last attempt)', () => {
  /** A batch of `count` CFDI started a second before the month turns; its deliveries run after it. */
  async function world(seed: string, count: number) {
    const xml = batchCorpus(seed, count, false).files.map((f) => f.xml);
    const started: JobRecord = { ...QUEUED, jobId: `job_${seed}`, createdAt: '2026-11-30T23:59:59.000Z' };
    const w = await assemblerWorld(
      started,
      {
        openSource: async () => ({ body: Readable.from([Buffer.from(JSON.stringify(xml))]), bytes: 0 }),
        putPart: async () => undefined,
        putRefused: async () => undefined,
      },
      () => new Date('2026-12-01T00:00:05.000Z'),
    );
    return { ...w, jobId: started.jobId, split: { jobId: started.jobId, step: 'split' } };
  }

  test('its plan write failing on every attempt: the last one fails the batch, gives back what it charged in the month it started, once, and queues its event', async () => {
    const w = await world('split-gives-up', 25);
    w.batches.planBatch = async () => {
      throw new Error('the plan write failed');
    };
    for (const attempt of [1, 2]) expect(await w.deliver(w.split, attempt)).toBe(false);
    // Retried, not given up: still queued, charged once (by its id), nothing given back.
    expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'queued', units: 25 });
    expect(await w.used('2026-11-15T00:00:00Z')).toBe(25);
    // The last attempt fails too: the message goes on to the DLQ, and the batch fails with its charge given back.
    expect(await w.deliver(w.split, MAX_RECEIVE_COUNT)).toBe(false);
    const failed = await w.batches.get(w.jobId);
    expect(failed).toMatchObject({
      status: 'failed',
      error: expect.stringMatching(/could not be read on our side after 3 attempts/),
      refundUnits: 25,
      event: { type: 'document.failed', queued: true },
    });
    expect(failed?.ending).toBeUndefined();
    expect({
      november: await w.used('2026-11-15T00:00:00Z'),
      december: await w.used('2026-12-15T00:00:00Z'),
    }).toEqual({ november: 0, december: 0 });
    expect(w.events()).toEqual([{ jobId: w.jobId, eventId: failed!.event!.id }]);
    // The DLQ's message redriven: the batch stays failed, nothing given back twice, no second event.
    expect(await w.deliver(w.split, 1)).toBe(true);
    expect(await w.used('2026-11-15T00:00:00Z')).toBe(0);
    expect(w.events()).toHaveLength(1);
  });

  test('a split given up before it charged (its charge failing on every attempt) gives nothing back: a refund by an id never charged is none', async () => {
    const w = await world('split-never-charged', 25);
    // The account’s other work this month: 40 documents, which stay charged (a refund not by its id would take 25).
    await w.quotas.consume(
      QUEUED.batch!.quotaSubject,
      monthlyRules('pro'),
      new Date('2026-11-20T00:00:00Z'),
      {
        units: 40,
      },
    );
    w.quotas.faults.fail('consume', new Error('the quota table is throttling'), MAX_RECEIVE_COUNT);
    for (const attempt of [1, 2, MAX_RECEIVE_COUNT]) expect(await w.deliver(w.split, attempt)).toBe(false);
    expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'failed', units: 25, refundUnits: 25 });
    expect(await w.used('2026-11-15T00:00:00Z')).toBe(40);
  });

  test('given up by another delivery between this run’s record and its charge: the charge this run made after the give-up goes back too', async () => {
    const w = await world('split-given-up-meanwhile', 25);
    const consume = w.quotas.consume.bind(w.quotas);
    // A duplicate delivery of the split, on its last attempt, fails the batch just before this run charges it.
    w.quotas.consume = async (...args) => {
      await giveUpBatch(batchAssembleDeps(w.deps), w.jobId, 'split', MAX_RECEIVE_COUNT);
      return consume(...args);
    };
    expect(await w.deliver(w.split, 1)).toBe(true);
    expect(await w.batches.get(w.jobId)).toMatchObject({ status: 'failed', refundUnits: 25 });
    expect(await w.used('2026-11-15T00:00:00Z')).toBe(0);
    // No part of the failed batch was queued after the charge, nor its assembly.
    expect((w.deps.assembleQueue as FakeMessageQueue).messages).toEqual([]);
  });
});

describe('zip safety: a file too large to be a CFDI, a zip that expands too far', () => {
  const ZIP_QUEUED: JobRecord = {
    ...QUEUED,
    batch: { ...QUEUED.batch!, source: 'zip', sourceKey: 'batches/job_split/source.zip' },
  };
  const MIB = 1024 * 1024;
  /** The upload's body as S3 streams it: chunks of 64 KiB. */
  const chunked = (zip: Buffer) =>
    Readable.from(
      Array.from({ length: Math.ceil(zip.length / 65536) }, (_, i) =>
        zip.subarray(i * 65536, (i + 1) * 65536),
      ),
    );

  test('an entry of 6,000,001 bytes is refused as no CFDI, one of exactly 6,000,000 is read; the rest of the batch goes on', async () => {
    const files = batchCorpus('split-xml-max', 26, false).files;
    /** A CFDI grown by a comment to exactly `bytes` bytes of UTF-8. */
    const grown = (xml: string, bytes: number) =>
      xml.replace(/\?>/, `?><!--${' '.repeat(bytes - Buffer.byteLength(xml) - '<!---->'.length)}-->`);
    // Both are stamped CFDI (distinct UUIDs): the one over the limit is refused for its size alone.
    const atLimit = { name: 'grandes/6000000.xml', xml: grown(files[0]!.xml, 6_000_000) };
    const over = { name: 'grandes/6000001.xml', xml: grown(files[1]!.xml, 6_000_001) };
    expect([atLimit, over].map((f) => Buffer.byteLength(f.xml))).toEqual([6_000_000, 6_000_001]);
    const rest = files.slice(2);
    const zip = zipOf([...rest.slice(0, 12), atLimit, over, ...rest.slice(12)]);
    const r = await runSplit(ZIP_QUEUED, chunked(zip), 1000);
    expect(r.outcome).toBe('split');
    expect(r.refused).toEqual([
      { archivo: over.name, motivo: 'Archivo de más de 6000000 bytes: no es un CFDI' },
    ]);
    // Every other CFDI in a part, once: the 24 small ones and the one of exactly 6,000,000 bytes.
    expect(r.parts.flat().sort()).toEqual([...rest.map((f) => f.name), atLimit.name].sort());
  });

  /** A zip entry's local header (its sizes and CRC in it, no data descriptor): its data follows it as it streams. */
  function localHeader(
    name: string,
    method: 'stored' | 'deflated',
    compressed: number,
    size: number,
    crc: number,
  ) {
    const n = Buffer.from(name, 'utf8');
    const h = Buffer.alloc(30);
    h.writeUInt32LE(0x04034b50, 0); // local file header
    h.writeUInt16LE(20, 4); // version needed: 2.0
    h.writeUInt16LE(0x800, 6); // UTF-8 name
    h.writeUInt16LE(method === 'stored' ? 0 : 8, 8);
    h.writeUInt32LE(crc, 14);
    h.writeUInt32LE(compressed, 18);
    h.writeUInt32LE(size, 22);
    h.writeUInt16LE(n.length, 26);
    return Buffer.concat([h, n]);
  }
  /** A deflated entry: its header and data. */
  function deflated(name: string, data: Uint8Array) {
    const d = deflateRawSync(data);
    return Buffer.concat([localHeader(name, 'deflated', d.length, data.length, crc32(data)), d]);
  }

  test('a zip that expands past 1 GiB fails the batch while it is read, counting inflated bytes: nothing written, nothing charged', async () => {
    // Two CFDI, 32 MiB of zeros deflated to ~32 KB, then stored entries of 8 MiB of zeros (each over the 6,000,000
    // bytes of a file, so none is kept) for 1.25 GiB. The stored entries stand in for more deflated ones: the split
    // counts both as they come out of the unzip, and they stream in a second where inflating 1 GiB takes ~20 s. The
    // expanded bytes pass 1 GiB when less than 1 GiB of the upload has been read: only a count of inflated bytes,
    // checked as it reads, refuses it by then.
    const cfdi = batchCorpus('split-zip-bomb', 2, false).files;
    const CHUNK = 256 * 1024;
    const block = new Uint8Array(CHUNK);
    let blockCrc = 0;
    for (let i = 0; i < (8 * MIB) / CHUNK; i++) blockCrc = crc32(block, blockCrc);
    let read = 0;
    function* zip(): Generator<Buffer | Uint8Array> {
      for (const f of [
        ...cfdi.map((c) => deflated(c.name, Buffer.from(c.xml, 'utf8'))),
        deflated('ceros/comprimido.xml', new Uint8Array(32 * MIB)),
      ])
        yield ((read += f.length), f);
      for (let e = 0; e < 160; e++) {
        const header = localHeader(`ceros/${e}.xml`, 'stored', 8 * MIB, 8 * MIB, blockCrc);
        yield ((read += header.length), header);
        for (let i = 0; i < (8 * MIB) / CHUNK; i++) yield ((read += CHUNK), block);
      }
    }
    const r = await runSplit(ZIP_QUEUED, Readable.from(zip()), 1000);
    expect(r).toMatchObject({
      outcome: 'failed',
      failed: ['The zip expands to more than 1073741824 bytes.'],
    });
    // Refused while reading: less than 1 GiB of the 1.25 GiB upload was read (the stream's read-ahead included).
    expect(read).toBeLessThan(1024 * MIB);
    // The two CFDI read before it were neither written nor charged (a failed split records no refusals either).
    expect({ parts: r.parts, sent: r.sent, charges: r.charges, refused: r.refused }).toEqual({
      parts: [],
      sent: [],
      charges: [],
      refused: [],
    });
  });
});
