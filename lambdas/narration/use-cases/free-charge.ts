// The free tier's charge of a conversion (paid keys are unlimited): refused before anything is written when a window
// is spent, made under the conversion's id once it is durable (so a repeat for the same conversion counts once), and
// settled by the job's outcome (done → kept or made, failed → given back). Talks only to ports.
import type { Caller } from '../../shared/auth/resolve-caller';
import { QuotaExceeded } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { refuseIfCutTooOften } from '../../shared/quota/cut-budget';
import {
  chargedDecision,
  rateLimitHeaders,
  slotsFor,
  type QuotaDecision,
  type WindowRule,
} from '../../shared/quota/windows';
import type { NarrationDeps } from '../deps';
import type { AudioRecord } from '../ports';

/** A per-subject limit and what its 429 says. */
export interface QuotaPolicy {
  rules: WindowRule[];
  /** The 429's detail: names the limit and the way out. */
  refusal(limit: number, period: string, retryAfterS: string): string;
}

/** What a free conversion's record keeps of its charge (AudioRecord.charge). */
export type ChargeOf = NonNullable<AudioRecord['charge']>;

export function freeRules(deps: Pick<NarrationDeps, 'config'>): WindowRule[] {
  return [
    { period: 'hour', limit: deps.config.FREE_PER_HOUR },
    { period: 'day', limit: deps.config.FREE_PER_DAY },
  ];
}

/** The 429 of a spent window: the policy's words, else the free tier's. */
function refuse(
  policy: QuotaPolicy | undefined,
  binding: { limit: number; period: string },
  headers: Record<string, string>,
): never {
  const retry = headers['retry-after']!;
  throw new QuotaExceeded(
    policy
      ? policy.refusal(binding.limit, binding.period, retry)
      : `Free tier limit reached: ${binding.limit} conversions per ${binding.period} per IP address. ` +
          `Try again in ${retry} seconds, or use an API key of a paid plan (no limits).`,
    headers,
  );
}

/**
 * Charges the free tier (paid keys are unlimited) under the conversion's id, so a charge repeated for the same
 * conversion counts once; throws 429 with Retry-After and RateLimit headers.
 */
export async function charge(
  deps: NarrationDeps,
  caller: Caller,
  now: Date,
  policy: QuotaPolicy | undefined,
  id: string,
): Promise<{ decision?: QuotaDecision; headers: Record<string, string> }> {
  if (caller.kind === 'key') return { headers: {} };
  const decision = await deps.quotas.consume(caller.subject, policy?.rules ?? freeRules(deps), now, { id });
  const headers = rateLimitHeaders(decision, now);
  if (!decision.allowed) refuse(policy, decision.binding, headers);
  return { decision, headers };
}

/**
 * A durable job's own charge, made by the request that continues it (an idempotent retry): under the job's id and
 * in its windows (once, however many retries). `onRefused` runs before the 429 (the job must then never run).
 */
export async function chargeJob(
  deps: NarrationDeps,
  record: AudioRecord & { charge: ChargeOf },
  onRefused: () => Promise<void>,
): Promise<Record<string, string>> {
  const c = record.charge;
  const decision = await deps.quotas.consume(c.subject, c.rules, new Date(record.createdAt), {
    id: record.audioId,
  });
  const headers = rateLimitHeaders(decision, deps.now());
  if (!decision.allowed) {
    await onRefused();
    refuse(undefined, decision.binding, headers);
  }
  return headers;
}

/**
 * 429 before anything is written when a window is already spent (the charge itself stays exact), or when the
 * caller's requests were cut at the deadline too often this hour.
 */
export async function refuseIfSpent(
  deps: NarrationDeps,
  charge: ChargeOf,
  now: Date,
  policy: QuotaPolicy | undefined,
): Promise<void> {
  await refuseIfCutTooOften(
    deps.quotas,
    charge.subject,
    deps.config.FREE_CUT_PER_HOUR,
    now,
    'send shorter texts (long ones are queued and answered 202)',
  );
  const windows = await deps.quotas.peek(charge.subject, charge.rules, now);
  const spent = windows.find((w) => w.used >= w.limit);
  if (!spent) return;
  const binding = { ...spent, remaining: 0 };
  refuse(
    policy,
    spent,
    rateLimitHeaders({ allowed: false, charged: [], binding, all: [binding], slots: windows }, now),
  );
}

/**
 * The job's free-tier charge follows its outcome, each step idempotent under the audio id: done → the charge is
 * there (made now if the request died before making it; past the limit if need be, since the request was admitted),
 * failed → given back. Never throws (logged: the outcome is recorded either way).
 */
export async function settleCharge(
  deps: NarrationDeps,
  record: AudioRecord,
  charged: boolean,
): Promise<void> {
  const c = record.charge;
  if (!c || (record.status === 'done' && charged)) return;
  const at = new Date(record.createdAt);
  try {
    if (record.status === 'done')
      await deps.quotas.consume(c.subject, c.rules, at, { id: record.audioId, force: true });
    else
      await deps.quotas.refund(
        chargedDecision(slotsFor(c.subject, c.rules, at), { chargeId: record.audioId }),
      );
  } catch (err) {
    logger.error('free-tier charge not settled', { error: err as Error, audioId: record.audioId });
  }
}
