// A month of CFDI through the batch path (issue #26), two ways, in one run:
//
// 1. A simulated cloud run of 1,000 distinct stamped CFDI at concurrency 50. Every step is the real code
//    (use-cases/batch-run.ts: split, 52 parts of up to 20 rendered by the real renderer, assembly of the real zip)
//    against the local emulators, one step at a time; only the parallelism of Lambda is simulated, on a virtual clock:
//    - each step's duration is its measured wall time here, with the cloud's latencies added for real (a sleep
//      before every S3, DynamoDB and SQS call, so the assembly's read-ahead overlaps them as it would in AWS);
//    - a message is delivered SQS_DELIVERY_MS after it is sent, and never before the end of every step run so far
//      (the state it reads was written by them);
//    - the event source's scaling as AWS documents it: 5 concurrent invocations at first, then up to 300 more per
//      minute (services-sqs-scaling.html), capped at the batch queue's maxConcurrency (50);
//    - a step taken by a new container first pays its cold start: a part's (the batch worker's image) is measured
//      below in a fresh process with a fresh temp dir (module init + Chromium unpacked and launched + the first CFDI
//      rendered), plus IMAGE_INIT_MS for Lambda's container-image sandbox (an assumption: AWS publishes no figure);
//      the split and the assembly run on the batch assembler, a zip bundle without Chromium (ZIP_COLD_MS).
//    Target: 1,000 CFDI from POST /v1/batches to the zip in ≤ 60 s.
// 2. Locally, through `npm start`'s runtime (fauxqs, the batch worker's two pollers, one Chromium): a batch's
//    throughput from POST /v1/batches to done against the renderer's raw throughput at the same concurrency (the
//    same CFDI through renderDocument() on a warm renderer, 2 at a time: the rendering alone, without queue, S3 or
//    zip), measured before and after each batch (the mean is its baseline; after one batch of 100 not measured, as the
//    raw runs follow a render not measured; BATCH_RUN_ROUNDS batches, default 3, the
//    median ratio counts: on a shared machine the load drifts within minutes). Target ≥ 0.9×. Each raw run renders
//    CFDI of its own (new UUIDs, as the batch's), so no cache favours either side. Where the difference goes: the CPU
//    seconds per CFDI of this process (handlers, emulators, SDK) and of its Chromium, and the AWS calls per CFDI.
// Loopback only (tripwire). Usage: npm run bench -- batch-run   (BATCH_RUN_CFDI, default 1,000, for the simulated
// run; BATCH_RUN_LOCAL_CFDI, default 1,000, for the local one; BATCH_RUN_EMULATORS=process runs the emulators in a
// child process, off the handlers' event loop, as the cloud's services are; BATCH_RUN_PROFILE=1 also takes a CPU
// profile of this process during the first local batch and the raw run after it, and prints each one's CPU per CFDI
// by owner: the emulators, the AWS SDK, the batch's own code, GC; a value ending in .cpuprofile also keeps the
// profiles there (the raw run's as .raw.cpuprofile), for DevTools; the profile's sampling slows the run, so its
// throughput line is not the one to quote)
import { spawnSync } from 'node:child_process';
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BatchStep } from '../lambdas/documents/use-cases/batches';
import { batchCorpus, uploadAndStart, waitForBatch, zipOf } from '../test/helpers/cfdi-batch';
import { putApiKey } from '../test/helpers/api-keys';
import { installLoopbackTripwire } from '../test/helpers/loopback-only';
import { generateKey } from '../lambdas/shared/auth/keys';
import { startLocal } from '../lib/local/runtime';
import { readForBatch } from '../lambdas/documents/core/cfdi-resumen';
import { median } from './measure';
import { byOwner, perCfdi } from './batch-run-cpu';

const CFDI = Number(process.env.BATCH_RUN_CFDI ?? 1000);
/**
 * The local comparison's batch (and the raw renderer's runs): a month, 1,000 CFDI as the simulated run's (~25 s a
 * batch on two cores). A batch's fixed start (upload, POST, the split's first part) and end (the last part alone,
 * the zip's last upload part) are ~0.5–0.9 s whatever its size: a throughput over 200 CFDI (BATCH_RUN_LOCAL_CFDI=200)
 * counts them five times as much.
 */
const LOCAL_CFDI = Number(process.env.BATCH_RUN_LOCAL_CFDI ?? 1000);
const CONCURRENCY = 50;
// Declared cloud latencies (same region, small objects), added to every call of the steps.
const S3_MS = 25;
const DYNAMO_MS = 8;
const SQS_SEND_MS = 15;
const SQS_DELIVERY_MS = 100;
const IMAGE_INIT_MS = 1000;
const DECLARED_COLD_MS = 1000 + 4000 + IMAGE_INIT_MS;
/** The batch assembler's (split and assembly: a zip bundle, no Chromium): the bundle's init, as bench/cold-start measures it. */
const ZIP_COLD_MS = 1000;
/** The assemble queue's maxConcurrency (lambdas/documents/routes.ts). */
const ASSEMBLER_CONCURRENCY = 20;
const LOCAL_CONCURRENCY = 2;
/** Batches in the local comparison, each between two raw runs. */
const LOCAL_ROUNDS = Number(process.env.BATCH_RUN_ROUNDS ?? 3);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Every method of `port` waits `ms` first (the network round trip of the real service). */
function withLatency<T extends object>(port: T, ms: number): T {
  return new Proxy(port, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (typeof value !== 'function') return value;
      return async (...args: unknown[]) => {
        await sleep(ms);
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** One real step of the batch: its kind, wall time (latencies included) and the step that queued it (-1: the API). */
interface Run {
  kind: string;
  ms: number;
  from: number;
}

/**
 * Lambda's parallelism on a virtual clock over the measured steps: a message is delivered SQS_DELIVERY_MS after
 * the later of its sender's end and the end of every step run before it; a warm container of its function free by
 * then takes it, else a new one (cold start first) if the event source's scaling allows one more, else the first to
 * come free. Two functions: the batch worker's image (parts, `coldMs`) and the batch assembler's zip bundle (the
 * split and the assembly, ZIP_COLD_MS), each with its own containers and its queue's concurrency.
 */
function simulate(apiMs: number, steps: Run[], coldMs: number): { makespan: number; colds: number } {
  const pools = { image: [] as { freeAt: number }[], zip: [] as { freeAt: number }[] };
  const ends: number[] = [];
  // Steps become pending when the step that queued them has run (on the virtual clock).
  const pending = steps.flatMap((r, i) => (r.from < 0 ? [{ i, at: apiMs + SQS_DELIVERY_MS }] : []));
  const firstAt = apiMs + SQS_DELIVERY_MS;
  let colds = 0;
  let lastEnd = apiMs;
  while (pending.length) {
    pending.sort((a, b) => (a.at === b.at ? a.i - b.i : a.at - b.at));
    const { i, at } = pending.shift()!;
    const zip = steps[i]!.kind !== 'part';
    const containers = zip ? pools.zip : pools.image;
    const scaled = 5 + Math.floor(((at - firstAt) / 60_000) * 300);
    const allowed = Math.min(zip ? ASSEMBLER_CONCURRENCY : CONCURRENCY, scaled);
    let container = containers.filter((c) => c.freeAt <= at).sort((a, b) => b.freeAt - a.freeAt)[0];
    let start = at;
    if (!container && containers.length < allowed) {
      container = { freeAt: 0 };
      containers.push(container);
      start = at + (zip ? ZIP_COLD_MS : coldMs);
      if (!zip) colds++;
    } else if (!container) {
      container = containers.reduce((a, b) => (a.freeAt <= b.freeAt ? a : b));
      start = Math.max(at, container.freeAt);
    }
    container.freeAt = start + steps[i]!.ms;
    ends[i] = container.freeAt;
    // What step i sent is read by its receivers after every step run before it (in the real run) has ended.
    for (let k = 0; k <= i; k++) if (ends[k] !== undefined) lastEnd = Math.max(lastEnd, ends[k]!);
    steps.forEach((r, j) => r.from === i && pending.push({ i: j, at: lastEnd + SQS_DELIVERY_MS }));
  }
  return { makespan: Math.max(...ends), colds };
}

/** The render request a batch makes for one CFDI (its template chosen by the batch's reader). */
function rawRequest(xml: string) {
  const read = readForBatch(xml, 'x.xml');
  if (!read.ok) throw new Error(read.motivo);
  return { template: read.template, cfdi_xml: xml, format: 'pdf' };
}

/** A cold container's start, in a fresh process with a fresh temp dir (Chromium unpacked there). */
function coldStart(env: NodeJS.ProcessEnv, xml: string): { initMs: number; firstRenderMs: number } {
  const tmp = mkdtempSync(join(tmpdir(), 'bench-cold-'));
  try {
    const child = `
      const t0 = performance.now();
      const worker = require(${JSON.stringify(join(__dirname, '..', 'lambdas/documents/handlers/batch-worker.ts'))});
      const { parseRenderRequest, renderDocument } = require(${JSON.stringify(join(__dirname, '..', 'lambdas/documents/use-cases/render-request.ts'))});
      const { awsDeps } = require(${JSON.stringify(join(__dirname, '..', 'lambdas/documents/deps.ts'))});
      const t1 = performance.now();
      (async () => {
        if (typeof worker.handler !== 'function') throw new Error('no handler');
        const request = parseRenderRequest({ template: process.env.BENCH_TEMPLATE, cfdi_xml: process.env.BENCH_XML, format: 'pdf' });
        await renderDocument(request, await awsDeps().renderer(), {});
        console.log(JSON.stringify({ initMs: t1 - t0, firstRenderMs: performance.now() - t1 }));
        process.exit(0);
      })().catch((e) => { console.error(e); process.exit(1); });`;
    const out = spawnSync(process.execPath, ['--no-node-snapshot', '--import', 'tsx', '-e', child], {
      // One invocation at a time, as a Lambda container (the local runtime's concurrent-invocation mode off).
      env: {
        ...env,
        TMPDIR: tmp,
        BENCH_XML: xml,
        BENCH_TEMPLATE: rawRequest(xml).template,
        CHROMIUM_LAUNCHER: '',
        AWS_LAMBDA_MAX_CONCURRENCY: undefined,
      },
      encoding: 'utf8',
      timeout: 120_000,
    });
    if (out.status !== 0) throw new Error(`cold start: ${out.stderr}`);
    return JSON.parse(out.stdout.trim().split('\n').pop()!) as { initMs: number; firstRenderMs: number };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

(async () => {
  const tripwire = installLoopbackTripwire();
  console.log(`# Node ${process.version}, load average ${load()} at the start; ${CFDI} CFDI`);
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-batch-run-'));
  // BATCH_RUN_EMULATORS=process: the emulators in a child process (their CPU off the handlers' event loop).
  const emulatorsProcess = process.env.BATCH_RUN_EMULATORS === 'process';
  const rt = await startLocal({ dataDir, persist: false, startWorker: true, emulatorsProcess });
  const emulatorsPid = rt.emulators.pid;
  try {
    const { awsDeps } = await import('../lambdas/documents/deps');
    const { batchRunDeps } = await import('../lambdas/documents/handlers/batch-worker');
    const { runBatchStep } = await import('../lambdas/documents/use-cases/batch-run');
    const { batchSplitDeps } = await import('../lambdas/documents/handlers/batch-assembler');
    const { partSizes, splitBatch } = await import('../lambdas/documents/use-cases/batch-split');
    const { assembleBatch } = await import('../lambdas/documents/use-cases/batch-assemble');
    const { startBatch: startBatchUseCase } = await import('../lambdas/documents/use-cases/batches');
    const { parseRenderRequest, renderDocument } =
      await import('../lambdas/documents/use-cases/render-request');
    const corpus = batchCorpus(`bench-${Date.now()}`, CFDI, false);
    const xmls = corpus.files.map((f) => f.xml);

    // ---- 1. The simulated cloud run ----
    const cold = coldStart(process.env, xmls[0]!);
    const measuredColdMs = cold.initMs + cold.firstRenderMs + IMAGE_INIT_MS;
    const docs = awsDeps();
    const base = batchRunDeps(docs);
    const sent: BatchStep[] = [];
    const queue = {
      send: async (m: Record<string, unknown>) => {
        await sleep(SQS_SEND_MS);
        sent.push(m as unknown as BatchStep);
      },
      retryAfter: async () => undefined,
    };
    // The assemble queue's messages (the split, the assembly), as steps of their own.
    const assembleQueue = {
      send: (m: Record<string, unknown>) => queue.send({ jobId: m.jobId, step: m.step ?? 'assemble' }),
      retryAfter: async () => undefined,
    };
    const split = batchSplitDeps(docs);
    const deps = {
      ...base,
      events: split.events,
      jobFiles: split.jobFiles,
      now: split.now,
      batchFiles: withLatency(base.batchFiles, S3_MS),
      jobs: withLatency(base.jobs, DYNAMO_MS),
      quotas: withLatency(split.quotas, DYNAMO_MS),
      batchQueue: queue,
      assembleQueue,
    };
    // The warm renderer a container has after its cold start (the cold start itself is counted apart).
    await renderDocument(parseRenderRequest(rawRequest(xmls[0]!)), await docs.renderer(), {});

    // The real steps, one at a time in the order they were queued; each one's wall time and what it sent.
    let t = performance.now();
    const started = await startBatchUseCase(deps, {
      owner: 'acct:bench',
      plan: 'scale',
      quotaSubject: 'docs#bench',
      body: { xml: xmls },
    });
    const apiMs = performance.now() - t;
    const jobId = started.body.id as string;
    const steps: Run[] = [];
    const todo = sent.splice(0).map((step) => ({ step, from: -1 }));
    while (todo.length) {
      const { step, from } = todo.shift()!;
      // The assembly runs last here, after every part (it then waits for none): the simulation counts its whole
      // work after the last part, where the cloud overlaps most of it with the rendering.
      if (step.step === 'assemble' && todo.some((next) => next.step.step !== 'assemble')) {
        todo.push({ step, from });
        continue;
      }
      t = performance.now();
      if (step.step === 'assemble') await assembleBatch(deps, step.jobId);
      else if (step.step === 'split') await splitBatch(deps, step.jobId);
      else await runBatchStep(deps, step, 1);
      steps.push({ kind: step.step, ms: performance.now() - t, from });
      todo.push(...sent.splice(0).map((next) => ({ step: next, from: steps.length - 1 })));
    }
    const job = await docs.batches.get(jobId);
    if (job?.status !== 'done' || job.batchDone !== CFDI)
      throw new Error(`simulated batch ended ${job?.status} with ${job?.batchDone} of ${CFDI}`);
    const target = 60_000 * (CFDI / 1000);
    const byKind = (kind: string) => steps.filter((r) => r.kind === kind).map((r) => r.ms);
    for (const [label, coldMs] of [
      ['declared', DECLARED_COLD_MS],
      ['measured here', measuredColdMs],
    ] as const) {
      const sim = simulate(apiMs, steps, coldMs);
      console.log(
        `batch-run simulated cloud, ${CFDI} CFDI at concurrency ${CONCURRENCY}, ${label} cold start: ` +
          `${sim.makespan.toFixed(0)} ms vs baseline target ${target} ms → ratio ${(sim.makespan / target).toFixed(2)}×`,
      );
      console.log(
        `# ${sim.colds} cold image containers at ${s(coldMs)} each (the split's and the assembly's zip function: ` +
          `${s(ZIP_COLD_MS)})`,
      );
    }
    console.log(
      `# cold start declared ${s(DECLARED_COLD_MS)} (module init ~1 s as bench/cold-start measures the bundle, Chromium ` +
        `unpacked + launched + first render ~4 s as docs/operations/cost.md assumes, image sandbox ${s(IMAGE_INIT_MS)}); ` +
        `measured in a fresh process: init ${s(cold.initMs)} (tsx transpiling the sources) + Chromium and the first ` +
        `CFDI ${s(cold.firstRenderMs)} + ${s(IMAGE_INIT_MS)} sandbox`,
    );
    console.log(
      `# steps measured: POST ${s(apiMs)}, split ${s(byKind('split')[0]!)}, parts median ${s(median(byKind('part')))} ` +
        `(max ${s(Math.max(...byKind('part')))}) ` +
        `(${byKind('part').length} of up to 20 CFDI), assembly ${s(byKind('assemble')[0]!)} (zip of ` +
        `${((job.result?.bytes ?? 0) / 2 ** 20).toFixed(1)} MB); latencies S3 ${S3_MS}, DynamoDB ${DYNAMO_MS}, SQS send ` +
        `${SQS_SEND_MS} / delivery ${SQS_DELIVERY_MS} ms; load ${load()}`,
    );

    // ---- 2. Locally: batch throughput vs the renderer's raw throughput at the same concurrency ----
    const renderer = await docs.renderer();
    const raw = async (seed: string) => {
      const requests = batchCorpus(seed, LOCAL_CFDI, false).files.map((f) => rawRequest(f.xml));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: LOCAL_CONCURRENCY }, async () => {
          for (let i = next++; i < requests.length; i = next++) {
            await renderDocument(parseRenderRequest(requests[i]), renderer, {});
          }
        }),
      );
      return (requests.length * 1000) / (performance.now() - t0);
    };
    // AWS calls of the batch's handlers (the pollers' own SQS client apart), by command.
    const { dynamo, s3Client, sqsClient } = await import('../lambdas/shared/aws/clients');
    const calls = new Map<string, number>();
    let counting = false;
    for (const client of [dynamo(), s3Client(), sqsClient()] as {
      middlewareStack: { add: (m: unknown, o: { step: 'initialize' }) => void };
    }[])
      client.middlewareStack.add(
        (next: (a: unknown) => unknown, ctx: { commandName: string }) => (args: unknown) => {
          if (counting) calls.set(ctx.commandName, (calls.get(ctx.commandName) ?? 0) + 1);
          return next(args);
        },
        { step: 'initialize' },
      );
    /**
     * A Scale key of its own for each batch: one account's month holds 10,000 documents, which 15 rounds of 1,000
     * (BATCH_RUN_ROUNDS=15) pass; the batch would be refused whole, as the API refuses an over-quota month.
     */
    const scaleKey = async (round: number | 'warm-up') => {
      const key = generateKey();
      const rtDocs = { ...rt, url: (p: string) => `${rt.documentsUrl}${p}` };
      await putApiKey(rtDocs, key, 'scale', `cus_bench_batch_${round}`);
      return key;
    };
    // The worker logs the UUIDs of each chunk of PDFs it stores: more UUIDs than CFDI would mean PDFs made twice.
    let made = 0;
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((chunk: string | Uint8Array, ...rest: unknown[]) => {
      for (const line of String(chunk).split('\n'))
        if (line.includes('"message":"batch PDFs stored"'))
          made += (JSON.parse(line) as { uuids: string[] }).uuids.length;
      return (write as (...a: unknown[]) => boolean)(chunk, ...rest);
    }) as typeof process.stdout.write;
    /** A V8 CPU profile of this process from now until the function returned is called. */
    const startProfile = async () => {
      const inspector = new Session();
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.start');
      return async () => {
        const { profile } = await inspector.post('Profiler.stop');
        inspector.disconnect();
        return profile;
      };
    };
    let rawProfiled: Awaited<ReturnType<Awaited<ReturnType<typeof startProfile>>>> | undefined;
    /** One batch: the same CFDI with other UUIDs, as a zip through the presigned upload (how a month comes in). */
    const oneBatch = async (round: number | 'warm-up', profiled: boolean, cfdi = LOCAL_CFDI) => {
      const zip = zipOf(batchCorpus(`bench-local-${round}-${Date.now()}`, cfdi, false).files);
      const scale = await scaleKey(round);
      const stopProfile = profiled ? await startProfile() : undefined;
      counting = true;
      const wallStart = Date.now();
      const batch = await perCfdi(
        cfdi,
        async () => {
          const { id } = await uploadAndStart(rt.documentsUrl!, scale, zip);
          // Polled as the API's Retry-After (2 s) asks and our SDKs do: the time is read from completed_at.
          return waitForBatch(rt.documentsUrl!, scale, id, 1_800_000, 2000);
        },
        emulatorsPid,
      );
      // Until the job's completed_at, not until the poll that saw it (up to 2 s later: a client's cadence,
      // not the batch's time, which raw has none of).
      const completedAt = Date.parse(batch.result.at(-1)!.completed_at as string);
      const rate = (cfdi * 1000) / (completedAt - wallStart);
      const polledRate = (cfdi * 1000) / (Date.now() - wallStart);
      counting = false;
      const profile = await stopProfile?.();
      const last = batch.result.at(-1)!;
      if (last.status !== 'done' || last.done !== cfdi)
        throw new Error(`local batch: ${JSON.stringify(last)}`);
      return { ...batch, rate, polledRate, profile };
    };
    // Raw, batch, raw, batch, raw...: each batch against the mean of the raw runs either side of it; the ratio is
    // the median over the rounds (the lower of the two middle ones for an even count).
    // One batch first, not measured: the rounds measure a service that has run a batch since it started (its
    // handlers' code compiled, the emulators' folders made), as the raw runs use a renderer that has rendered.
    await oneBatch('warm-up', false, 100);
    made = 0;
    calls.clear();
    const raws = [await perCfdi(LOCAL_CFDI, () => raw(`bench-raw-0-${Date.now()}`))];
    const batches: Awaited<ReturnType<typeof oneBatch>>[] = [];
    for (let round = 0; round < LOCAL_ROUNDS; round++) {
      batches.push(await oneBatch(round, round === 0 && !!process.env.BATCH_RUN_PROFILE));
      // The raw run after the profiled batch is profiled too: the difference by owner is what the batch adds.
      const rawProfile = round === 0 && process.env.BATCH_RUN_PROFILE ? await startProfile() : undefined;
      raws.push(await perCfdi(LOCAL_CFDI, () => raw(`bench-raw-${round + 1}-${Date.now()}`)));
      if (rawProfile) rawProfiled = await rawProfile();
      // Each round as it ends (on stderr: stdout is counted above), so a run cut short keeps its rounds.
      const [before, after, b] = [raws[round]!.result, raws[round + 1]!.result, batches[round]!.rate];
      process.stderr.write(
        `# round ${round}: raw ${before.toFixed(2)} / batch ${b.toFixed(2)} / raw ${after.toFixed(2)} CFDI/s → ` +
          `${(b / ((before + after) / 2)).toFixed(2)}×; load ${load()}\n`,
      );
    }
    process.stdout.write = write;
    const ratios = batches.map((b, i) => b.rate / ((raws[i]!.result + raws[i + 1]!.result) / 2));
    const mid = ratios.indexOf([...ratios].sort((a, b) => a - b)[Math.floor((ratios.length - 1) / 2)]!);
    const rawRate = (raws[mid]!.result + raws[mid + 1]!.result) / 2;
    console.log(
      `batch-run local throughput, ${LOCAL_CFDI} CFDI at concurrency ${LOCAL_CONCURRENCY}` +
        `${emulatorsProcess ? ', emulators in their own process' : ''} (median of ${LOCAL_ROUNDS} rounds): ` +
        `${batches[mid]!.rate.toFixed(2)} CFDI/s vs baseline raw renderer ${rawRate.toFixed(2)} CFDI/s → ratio ` +
        `${ratios[mid]!.toFixed(2)}× (the ratio: the batch's CFDI per second from POST /v1/batches to its ` +
        'completed_at, over the raw renderer’s CFDI per second for as many CFDI at the same concurrency, the mean ' +
        `of its runs just before and after; target ≥ 0.9×; rounds ${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
    console.log(
      `# rounds (raw before / batch / raw after, CFDI/s → ratio): ` +
        batches
          .map(
            (b, i) =>
              `${raws[i]!.result.toFixed(2)} / ${b.rate.toFixed(2)} / ${raws[i + 1]!.result.toFixed(2)} → ` +
              `${ratios[i]!.toFixed(2)}×`,
          )
          .join('; ') +
        `; a batch from POST to its completed_at: upload, split, ${partSizes(LOCAL_CFDI).length} parts, zip (to the ` +
        `poll that saw it done, every 2 s as the API asks: ${batches.map((b) => b.polledRate.toFixed(2)).join(' / ')} CFDI/s); ` +
        `${made} PDFs made for ${LOCAL_CFDI * LOCAL_ROUNDS} CFDI; load ${load()}`,
    );
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    console.log(
      `# CPU per CFDI (means): raw renderer ${ms(mean(raws.map((r) => r.node)))} this process + ` +
        `${ms(mean(raws.map((r) => r.chromium)))} Chromium; batch ${ms(mean(batches.map((b) => b.node)))} this ` +
        'process (handlers, ' +
        (emulatorsProcess
          ? `SDK, front, poll) + ${ms(mean(batches.map((b) => b.emulators)))} the emulators' process`
          : 'emulators, SDK, front, poll)') +
        ` + ${ms(mean(batches.map((b) => b.chromium)))} Chromium. AWS calls per CFDI: ` +
        [...calls]
          .sort((a, b) => b[1] - a[1])
          .map(
            ([name, n]) => `${name.replace(/Command$/, '')} ${(n / (LOCAL_CFDI * LOCAL_ROUNDS)).toFixed(2)}`,
          )
          .join(', '),
    );
    for (const [what, profile] of [
      ['the batch', batches[0]?.profile],
      ['the raw run after it', rawProfiled],
    ] as const) {
      if (!profile) continue;
      const file = process.env.BATCH_RUN_PROFILE!;
      if (file.endsWith('.cpuprofile'))
        writeFileSync(
          what === 'the batch' ? file : file.replace(/\.cpuprofile$/, '.raw.cpuprofile'),
          JSON.stringify(profile),
        );
      const owners = byOwner(profile as unknown as Parameters<typeof byOwner>[0], LOCAL_CFDI);
      const total = owners.reduce((a, [, v]) => a + v, 0);
      console.log(
        `# profile of this process during ${what} (its sampling slows the run): ${ms(total)} per CFDI on the ` +
          `main thread: ${owners.map(([k, v]) => `${k} ${ms(v)}`).join(', ')}`,
      );
    }
    if (tripwire.attempts.length) throw new Error(`non-loopback: ${tripwire.attempts.join(', ')}`);
  } finally {
    tripwire.uninstall();
    await rt.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  process.exit(0);
})().catch((err) => {
  console.error(err);
  process.exit(1);
});
