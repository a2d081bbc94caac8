// Fixed quota windows aligned to the UTC calendar (hour, day, month). Fixed rather than rolling: a caller can
// see exactly when the allowance comes back (RateLimit-Reset), and one counter per window keeps counting exact
// with single conditional writes.

export type Period = 'hour' | 'day' | 'month';

export interface WindowRule {
  period: Period;
  limit: number;
}

export interface WindowSlot extends WindowRule {
  /** Counter key: subject + period + window start. */
  key: string;
  /** Epoch seconds at which this window ends. */
  resetAt: number;
}

export function windowBounds(period: Period, now: Date): { start: Date; end: Date } {
  const y = now.getUTCFullYear();
  const m = now.getUTCMonth();
  const d = now.getUTCDate();
  const h = now.getUTCHours();
  switch (period) {
    case 'hour':
      return { start: new Date(Date.UTC(y, m, d, h)), end: new Date(Date.UTC(y, m, d, h + 1)) };
    case 'day':
      return { start: new Date(Date.UTC(y, m, d)), end: new Date(Date.UTC(y, m, d + 1)) };
    case 'month':
      return { start: new Date(Date.UTC(y, m, 1)), end: new Date(Date.UTC(y, m + 1, 1)) };
  }
}

const PERIOD_SECONDS: Record<Period, number> = { hour: 3600, day: 86400, month: 2592000 };

export function slotsFor(subject: string, rules: WindowRule[], now: Date): WindowSlot[] {
  return rules.map((rule) => {
    const { start, end } = windowBounds(rule.period, now);
    return {
      ...rule,
      key: `${subject}#${rule.period}#${start.toISOString().slice(0, 13)}`,
      resetAt: Math.floor(end.getTime() / 1000),
    };
  });
}

export interface QuotaDecision {
  allowed: boolean;
  /** The windows that were charged (refund() gives them back). Empty when refused. */
  charged: WindowSlot[];
  /** The window that decides what the caller sees: the one that refused, else the one with least left. */
  binding: WindowSlot & { remaining: number };
  all: (WindowSlot & { remaining: number })[];
  /** Every window of the policy, evaluated or not. */
  slots: WindowSlot[];
  /** The charge's id (ChargeOptions.id): its refund gives back exactly that charge, once. */
  chargeId?: string;
  /** Units charged to each window (ChargeOptions.units); a refund gives back this many. @default 1 */
  units?: number;
  /** The id of the charge's hold (ChargeOptions.hold): commit() ends it, refund() gives back only while it is held. */
  hold?: string;
}

/**
 * The decision of a charge already made in `slots`, rebuilt from what its work recorded (its windows, id, units,
 * hold) for a later refund() or commit(): those read only `charged`, `chargeId`, `units` and `hold`.
 */
export function chargedDecision(
  slots: WindowSlot[],
  charge: { chargeId?: string | undefined; units?: number | undefined; hold?: string | undefined } = {},
): QuotaDecision {
  const binding = { ...slots[0]!, remaining: 0 };
  return {
    allowed: true,
    charged: slots,
    binding,
    all: [binding],
    slots,
    ...(charge.chargeId !== undefined ? { chargeId: charge.chargeId } : {}),
    ...(charge.units !== undefined ? { units: charge.units } : {}),
    ...(charge.hold !== undefined ? { hold: charge.hold } : {}),
  };
}

/**
 * A charge held until its work is delivered. The hold is written with the charge, in the same conditional write of
 * each window's counter item; commit() removes it once the work is delivered (before the answer leaves). A hold
 * found past `untilS` (its process died: nothing answers after a route's deadline) is no longer usage (peek), and is
 * given back by the next charge of that window, or by the local runtime's start: once, in one conditional write.
 * refund() gives a held charge back but leaves its hold as a mark of 0 units: a commit that comes after it can tell
 * "given back because the work failed" from "given back because it outlived its hold" (CommitOptions). The mark is
 * removed by that commit, or past `untilS` like a hold, without changing the count.
 */
export interface ChargeHold {
  /** Unique per piece of work (the request id, or the charge id when there is one). */
  id: string;
  /** Epoch seconds after which no live process can still deliver the work (the route's deadline, and margin). */
  untilS: number;
}

/**
 * A charge that may be made more than once (a retried request, the worker finishing a job whose request died) but
 * must count once: each window remembers the ids it was charged for. `force`: charge even past the limit (the
 * request was admitted earlier; only a crash between admission and charge gets here).
 */
export interface ChargeOptions {
  id?: string;
  force?: boolean;
  /**
   * Units to charge at once (a batch of documents): every window must have this many left, or nothing is charged.
   * @default 1
   */
  units?: number;
  /** Hold the charge until commit(): a process that dies before delivering leaves a hold that is given back. */
  hold?: ChargeHold;
}

export interface CommitOptions {
  /**
   * The commit accepts work that another process goes on with (an async render's 202: its worker renders it), which
   * may already have failed it and given its charge back (refund()): then the commit charges nothing. Without it, a
   * commit says the work was delivered, so a charge given back meanwhile, whoever gave it back, is charged again.
   */
  unlessRefunded?: boolean;
}

/** The caller's view of a decision, as headers (IETF RateLimit draft fields, widely used names). */
export function rateLimitHeaders(decision: QuotaDecision, now: Date): Record<string, string> {
  const nowS = Math.floor(now.getTime() / 1000);
  const b = decision.binding;
  const reset = Math.max(1, b.resetAt - nowS);
  const headers: Record<string, string> = {
    'ratelimit-limit': String(b.limit),
    'ratelimit-remaining': String(Math.max(0, b.remaining)),
    'ratelimit-reset': String(reset),
    'ratelimit-policy': decision.slots.map((s) => `${s.limit};w=${PERIOD_SECONDS[s.period]}`).join(', '),
  };
  if (!decision.allowed) headers['retry-after'] = String(reset);
  return headers;
}

export interface QuotaStore {
  /**
   * Charges one unit (opts.units) to every window, or none if any window lacks room. Exact under concurrency. With an id, a
   * window already charged for that id is not charged again (and counts as charged).
   */
  consume(subject: string, rules: WindowRule[], now?: Date, opts?: ChargeOptions): Promise<QuotaDecision>;
  /**
   * Gives back what a decision charged (the work failed); with its chargeId, only if that charge is there; with its
   * hold, only while it is held (a hold already given back, or committed, is not given back again). A held charge
   * given back leaves its hold as a mark of 0 units (ChargeHold), for commit().
   */
  refund(decision: QuotaDecision): Promise<void>;
  /**
   * The held work was delivered: the charge stays, its hold ends. A hold given back meanwhile (the work outlived its
   * hold, or refund() ran) is charged again, past the limit if need be (it was admitted), once per charge id; with
   * `unlessRefunded`, one that refund() gave back is not (its mark is removed, nothing charged).
   */
  commit(decision: QuotaDecision, opts?: CommitOptions): Promise<void>;
  /** Was the charge `id` made in the windows of `at`? (stores without charge ids: undefined, unknown) */
  hasCharge?(subject: string, rules: WindowRule[], at: Date, id: string): Promise<boolean>;
  /** Current usage without charging. */
  peek(subject: string, rules: WindowRule[], now?: Date): Promise<(WindowSlot & { used: number })[]>;
}
