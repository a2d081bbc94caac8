// The waitlist: one entry per normalised email (conditional put), and a counter that is bumped only by the call
// that created the entry, so GET /waitlist/count stays exact under parallel and repeated sign-ups. Keys in the
// `growth` table:
//   waitlist#email#<email>  the entry: email, source, interest, createdAt (the first sign-up wins)
//   waitlist#count          counters: count, interest_pro, interest_lifetime
// A `source` of the form ab:<experiment>:<variant>[:<visitor>] also counts as a conversion of that experiment.
import { recordConversion, type AttributionResult } from './ab';
import type { Experiments } from './experiments';
import type { GrowthStore } from './ports';

export type Interest = 'pro' | 'lifetime';

export interface WaitlistEntry {
  /** Already normalised: trimmed, lower-case. */
  email: string;
  source?: string;
  interest?: Interest;
}

export type SignUpResult =
  | { status: 'registered'; position: number; attribution: AttributionResult }
  | { status: 'already_registered' };

export const WAITLIST_COUNT_KEY = 'waitlist#count';
const entryKey = (email: string) => `waitlist#email#${email}`;

/** Trimmed and lower-cased: `Ana@Example.com ` and `ana@example.com` are one sign-up. */
export function normaliseEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function joinWaitlist(
  store: GrowthStore,
  entry: WaitlistEntry,
  now: Date,
  experiments: Experiments,
): Promise<SignUpResult> {
  const created = await store.putIfAbsent(entryKey(entry.email), {
    email: entry.email,
    ...(entry.source !== undefined ? { source: entry.source } : {}),
    ...(entry.interest !== undefined ? { interest: entry.interest } : {}),
    createdAt: now.toISOString(),
  });
  if (!created) return { status: 'already_registered' };
  // Only the call that created the entry counts it: the ADD's new value is this sign-up's position.
  const counters = await store.add(WAITLIST_COUNT_KEY, {
    count: 1,
    ...(entry.interest ? { [`interest_${entry.interest}`]: 1 } : {}),
  });
  const attribution = await recordConversion(store, entry.source, {
    channel: 'waitlist',
    dedupeKey: entry.email,
    experiments,
    now,
  });
  return { status: 'registered', position: counters.count!, attribution };
}

export interface WaitlistCounts {
  count: number;
  interest: Record<Interest, number>;
}

export async function waitlistCounts(store: GrowthStore): Promise<WaitlistCounts> {
  const item = (await store.getMany([WAITLIST_COUNT_KEY])).get(WAITLIST_COUNT_KEY) ?? {};
  const n = (v: unknown) => Number(v ?? 0) || 0;
  return {
    count: n(item.count),
    interest: { pro: n(item.interest_pro), lifetime: n(item.interest_lifetime) },
  };
}
