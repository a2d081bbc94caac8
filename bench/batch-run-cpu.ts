// CPU accounting for bench/batch-run.bench.ts: CPU seconds of this process, its Chromium and the emulators' process
// read from /proc, and a V8 CPU profile's time per CFDI by owner (the package each function comes from).
import { readdirSync, readFileSync } from 'node:fs';

/**
 * CPU seconds so far of this process (every thread: handlers, emulators, SDK clients) and of its descendants
 * (Chromium: the live processes of the groups this process started, plus those it has reaped).
 */
function cpuSeconds(emulatorsPid?: number): { node: number; chromium: number; emulators: number } {
  const procs = new Map<number, { ppid: number; pgid: number; cpu: number; reaped: number }>();
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const f = stat
        .slice(stat.lastIndexOf(')') + 2)
        .split(' ')
        .map(Number);
      procs.set(Number(pid), { ppid: f[1]!, pgid: f[2]!, cpu: f[11]! + f[12]!, reaped: f[13]! + f[14]! });
    } catch {
      // ended while listed
    }
  }
  const me = procs.get(process.pid)!;
  const mine = (pid: number) => {
    for (let p = procs.get(pid)?.ppid; p && p > 1; p = procs.get(p)?.ppid) if (p === process.pid) return true;
    return false;
  };
  const groups = new Set([...procs.keys()].filter(mine).map((pid) => procs.get(pid)!.pgid));
  groups.delete(me.pgid);
  let children = me.reaped;
  for (const [pid, p] of procs)
    if (pid !== process.pid && pid !== emulatorsPid && (mine(pid) || groups.has(p.pgid))) children += p.cpu;
  const tick = 100; // USER_HZ
  const emulators = emulatorsPid ? (procs.get(emulatorsPid)?.cpu ?? 0) : 0;
  return { node: me.cpu / tick, chromium: children / tick, emulators: emulators / tick };
}

/** CPU ms per CFDI of `run`: this process, Chromium and the emulators' process (when they run in one) apart. */
export async function perCfdi<T>(
  count: number,
  run: () => Promise<T>,
  emulatorsPid?: number,
): Promise<{ result: T; node: number; chromium: number; emulators: number }> {
  const before = cpuSeconds(emulatorsPid);
  const result = await run();
  const after = cpuSeconds(emulatorsPid);
  const per = (key: keyof typeof before) => ((after[key] - before[key]) * 1000) / count;
  return { result, node: per('node'), chromium: per('chromium'), emulators: per('emulators') };
}

/** Who a profiled function belongs to: the package it comes from (node_modules/<pkg>), else ours or Node's own. */
const OWNERS: [RegExp, string][] = [
  [
    /node_modules\/(s3rver|koa[^/]*|@koa\/[^/]+|busboy|fs-extra|graceful-fs|he|lodash|winston|statuses|mime[^/]*)\//,
    'S3 emulator (s3rver)',
  ],
  [
    /node_modules\/(dynalite|level[^/]*|memdown|abstract-leveldown|encoding-down|deferred-leveldown|lazy|big\.js|once|async|buffer-crc32|memory-level|abstract-level|module-error|lock)\//,
    'DynamoDB emulator (dynalite)',
  ],
  [
    /node_modules\/(fauxqs|fastify|@fastify\/[^/]+|avvio|find-my-way|light-my-request|pino[^/]*|toad-cache|valibot)\//,
    'SQS emulator (fauxqs)',
  ],
  [/node_modules\/(@aws-sdk|@smithy|@aws-crypto|fast-xml-parser|sqs-consumer)\//, 'AWS SDK and the poller'],
  [/node_modules\/(fflate|exceljs|csv-stringify|archiver|jszip|unzipper|saxes|sax)\//, 'zip and workbook'],
  [/node_modules\/(puppeteer-core|chromium-bidi|devtools-protocol|ws|debug)\//, 'the renderer (puppeteer)'],
  [/node_modules\/(pdf-lib|@pdf-lib\/[^/]+|pako)\//, 'PDF post-processing (pdf-lib)'],
  [/node_modules\/(nunjucks|@xmldom\/xmldom|xpath|zod)\//, 'templates and XML reading'],
  [/node_modules\/(tsx|esbuild|source-map[^/]*|jest[^/]*)\//, 'tsx'],
  [/\/(lib\/local|bench|test\/helpers)\//, 'the local front, poller glue and this bench'],
  [/\/(lambdas|templates)\//, 'our handlers and renderer'],
];

export interface ProfileNode {
  id: number;
  callFrame: { url: string; functionName: string };
  hitCount?: number;
  children?: number[];
}

/**
 * CPU ms per CFDI by owner from a V8 CPU profile: each function's own time goes to the nearest frame on its stack
 * that has an owner (Node's internals count for whoever called them); GC and the rest of V8 apart; idle left out.
 */
export function byOwner(
  profile: { nodes: ProfileNode[]; startTime: number; endTime: number; samples?: number[] },
  count: number,
) {
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const owner = (id: number): string => {
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const { url, functionName } = nodes.get(at)!.callFrame;
      if (functionName === '(garbage collector)') return 'GC';
      if (functionName === '(idle)') return 'idle';
      if (functionName === '(program)') return 'V8 and Node outside JS';
      const hit = OWNERS.find(([re]) => re.test(url));
      if (hit) return hit[1];
    }
    return 'Node internals (no owner on the stack)';
  };
  const samples = profile.samples?.length ?? 1;
  const msPerSample = (profile.endTime - profile.startTime) / 1000 / samples;
  const out = new Map<string, number>();
  for (const n of profile.nodes)
    if (n.hitCount) out.set(owner(n.id), (out.get(owner(n.id)) ?? 0) + (n.hitCount * msPerSample) / count);
  out.delete('idle');
  return [...out].sort((a, b) => b[1] - a[1]);
}
