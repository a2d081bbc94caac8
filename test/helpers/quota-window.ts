// Quota windows are fixed UTC hours, days and months (lambdas/shared/quota/windows.ts): a test whose charges span
// the turn of one finds them in two windows. This names the window an answer was counted in, from its own headers,
// so that a test's expectations follow the windows its charges landed in. test/helpers/hour-turn.ts puts a turn
// of the hour between two chosen requests, to show that a test holds across it.
import { windowBounds, type Period, type QuotaStore } from '../../lambdas/shared/quota/windows';

const HOUR_S = 3600;
const LONGEST_S: Record<Period, number> = { hour: HOUR_S, day: 86_400, month: 31 * 86_400 };

/** What windowOf reads of an answer (a fetch Response, or the status and headers of one). */
export type Answer = Pick<Response, 'status' | 'headers'>;

/**
 * The start (epoch seconds) of the `period` window `res` was charged (or refused) in, from its RateLimit-Reset read
 * at `readAtMs`. That counts from the server's clock when it decided to the end of the binding window, always a
 * whole hour; read a request's duration later (never an hour), rounding down to the hour gives that end exactly,
 * and the second before it lies in the window asked for, as long as the binding window is no longer than it.
 */
export function windowOf(res: Answer, period: Period = 'hour', readAtMs = Date.now()): number {
  const reset = Number(res.headers.get('ratelimit-reset'));
  if (!Number.isFinite(reset) || reset <= 0) throw new Error(`no RateLimit-Reset on a ${res.status} answer`);
  if (reset > LONGEST_S[period])
    throw new Error(`RateLimit-Reset ${reset} s: the answer's binding window is longer than a ${period}`);
  const end = Math.floor((readAtMs / 1000 + reset) / HOUR_S) * HOUR_S;
  return windowBounds(period, new Date((end - 1) * 1000)).start.getTime() / 1000;
}

/** Whether two moments fall in the same `period` window. */
export function sameWindow(period: Period, a: Date, b: Date): boolean {
  return windowBounds(period, a).start.getTime() === windowBounds(period, b).start.getTime();
}

/** A subject's counters in the windows of a moment (`at`): chargedSince tells what was charged after. */
export interface Counters {
  subject: string;
  periods: Period[];
  at: Date;
  counts: number[];
}

/** Reads `subject`'s counters of `periods` now, for chargedSince. */
export async function countersNow(
  quotas: Pick<QuotaStore, 'peek'>,
  subject: string,
  periods: Period[],
): Promise<Counters> {
  const at = new Date();
  return { subject, periods, at, counts: await peekAt(quotas, subject, periods, at) };
}

/**
 * What was charged to the subject since `before` was read, per period: the growth of the window read then, plus
 * what a window begun since holds (a turn of the hour, day or month between does not hide a charge, nor fake one).
 */
export async function chargedSince(quotas: Pick<QuotaStore, 'peek'>, before: Counters): Promise<number[]> {
  const then = await peekAt(quotas, before.subject, before.periods, before.at);
  const now = new Date();
  const later = await peekAt(quotas, before.subject, before.periods, now);
  return before.periods.map(
    (p, i) => then[i]! - before.counts[i]! + (sameWindow(p, before.at, now) ? 0 : later[i]!),
  );
}

async function peekAt(quotas: Pick<QuotaStore, 'peek'>, subject: string, periods: Period[], at: Date) {
  const slots = await quotas.peek(
    subject,
    periods.map((period) => ({ period, limit: 1 })),
    at,
  );
  return slots.map((s) => s.used);
}

/**
 * One caller's charges under a limit per `period`, by the window each was counted in: what the answers must say
 * when the window turns between them (the new one starts full). Exact either way: the window of each answer is read
 * from the answer itself.
 */
export class Charges {
  private readonly windows: number[] = [];
  constructor(
    readonly limit: number,
    readonly period: Period = 'hour',
  ) {}

  /** Records `times` charges in the window of `res` (a charged answer); returns what its window has left after them. */
  add(res: Answer, times = 1): number {
    const w = windowOf(res, this.period);
    for (let i = 0; i < times; i++) this.windows.push(w);
    return this.limit - this.windows.filter((x) => x === w).length;
  }

  /** A recorded charge of the window of `res` was given back (the work failed). */
  refund(res: Answer): void {
    const i = this.windows.indexOf(windowOf(res, this.period));
    if (i < 0) throw new Error('no charge of that window to give back');
    this.windows.splice(i, 1);
  }

  /** How many recorded charges were counted in the window of `res` (before it, if it was charged too). */
  in(res: Answer): number {
    const w = windowOf(res, this.period);
    return this.windows.filter((x) => x === w).length;
  }

  /** Whether the recorded charges spent the window of `res`: a charge there is refused (429). */
  spent(res: Answer): boolean {
    return this.in(res) >= this.limit;
  }
}

/**
 * Sends charged requests (`send(i)`: each one new work, never a repeat) until one is refused because its window
 * (an hour, or opts.period) is spent, and checks every answer exactly: each accepted one is `status` with the
 * RateLimit-Remaining its window has left, the refusal a 429 in a window that holds `limit` charges. The window
 * may turn between them (the new one starts full), so up to 2 × limit + 1 requests; without a turn, limit + 1.
 * `earlier: 'unknown'`: the caller was charged before in the first answer's window, as often as that answer says.
 */
export async function spendWindow(
  limit: number,
  send: (i: number) => Promise<Response>,
  opts: { status?: number; earlier?: 'unknown'; period?: Period } = {},
): Promise<{ accepted: Response[]; refused: Response; charges: Charges }> {
  const charges = new Charges(limit, opts.period);
  const accepted: Response[] = [];
  for (let i = 0; i <= 2 * limit; i++) {
    const res = await send(i);
    if (i === 0 && opts.earlier === 'unknown') {
      if (res.status === 429) charges.add(res, limit);
      else charges.add(res, limit - 1 - Number(res.headers.get('ratelimit-remaining')));
    }
    if (charges.spent(res)) {
      expect(res.status).toBe(429);
      expect(res.headers.get('ratelimit-remaining')).toBe('0');
      return { accepted, refused: res, charges };
    }
    expect(res.status).toBe(opts.status ?? 200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(charges.add(res)));
    accepted.push(res);
  }
  throw new Error(`no 429 after ${2 * limit + 1} charges under a limit of ${limit} a ${charges.period}`);
}

/**
 * Spends the caller's hour (spendWindow, earlier charges unknown: `send(i, round)` is new work each time), then sends
 * `probe(round)`, which must be refused in that window: the refused probe and its round are returned. The hour may turn between
 * the two: the probe is then charged in the next window, a full one (its headers must say so), and a second round
 * spends that window and probes again.
 */
export async function probeSpentHour(
  limit: number,
  send: (i: number, round: number) => Promise<Response>,
  probe: (round: number) => Promise<Response>,
): Promise<{ refused: Response; round: number }> {
  for (let round = 0; round < 2; round++) {
    const spent = await spendWindow(limit, (i) => send(i, round), { earlier: 'unknown' });
    const res = await probe(round);
    if (res.status === 429 && windowOf(res) === windowOf(spent.refused)) return { refused: res, round };
    expect(windowOf(res)).toBe(windowOf(spent.refused) + HOUR_S);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(limit - 1));
  }
  throw new Error('the probe was charged in both rounds: the hour turned twice?');
}
