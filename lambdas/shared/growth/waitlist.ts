// The waitlist: one entry per normalised email (conditional put), and a counter that is bumped only by the call
// that created the entry, so GET /waitlist/count stays exact under parallel and repeated sign-ups. Keys in the
// `growth` table:
//   waitlist#email#<email>  the entry: email, source, interest, createdAt (the first sign-up wins)
//   waitlist#count          counters: count, interest_pro, interest_lifetime
//   waitlist#source#<label> count of sign-ups whose `source` reads as <label> (sourceLabel)
//   waitlist#sources        index of labels for the dashboard: distinct, label#1 … label#<MAX_LISTED_SOURCES>
// A `source` of the form ab:<experiment>:<variant>[:<visitor>] also counts as a conversion of that experiment.
import { logger } from '../logger';
import { recordConversion, type AttributionResult } from './ab';
import { parseAbRef, type Experiments } from './experiments';
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
  await countSourceSafely(store, entry.source);
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

/** Labels the dashboard lists; later new sources still count in `count`, shown there as "other sources". */
export const MAX_LISTED_SOURCES = 100;
const SOURCES_KEY = 'waitlist#sources';
const sourceKey = (label: string) => `waitlist#source#${label}`;

/**
 * What a `source` is counted as: an A/B reference without its visitor (`ab:pricing:b`: one label per variant, not
 * per visitor), anything else trimmed and lower-cased; no source → undefined (not counted by source).
 */
export function sourceLabel(source: string | undefined): string | undefined {
  const trimmed = source?.trim().toLowerCase();
  if (!trimmed) return undefined;
  const ab = parseAbRef(source);
  return ab ? `ab:${ab.experiment}:${ab.variant}` : trimmed;
}

/**
 * One atomic ADD on the source's own item (small, whatever the number of sources); the sign-up that makes a
 * source's count 1 also lists it in the index, while it has fewer than MAX_LISTED_SOURCES labels, so the dashboard
 * reads every count in two batch reads and no scan. Never throws: a tally must not fail a sign-up.
 */
async function countSourceSafely(store: GrowthStore, source: string | undefined): Promise<void> {
  const label = sourceLabel(source);
  if (!label) return;
  try {
    const { count } = await store.add(sourceKey(label), { count: 1 }, { source: label });
    if (count !== 1) return;
    const { distinct } = await store.add(SOURCES_KEY, { distinct: 1 });
    if (distinct! <= MAX_LISTED_SOURCES) await store.add(SOURCES_KEY, {}, { [`label#${distinct}`]: label });
  } catch (err) {
    logger.warn('waitlist source not counted', { error: err as Error });
  }
}

export interface WaitlistSources {
  /** Sign-ups per listed source, most first (ties by name). */
  sources: { source: string; count: number }[];
  /** Distinct sources seen, listed or not. */
  distinct: number;
}

export async function waitlistSources(store: GrowthStore): Promise<WaitlistSources> {
  const index = (await store.getMany([SOURCES_KEY])).get(SOURCES_KEY) ?? {};
  const labels = Object.entries(index)
    .filter(([k, v]) => k.startsWith('label#') && typeof v === 'string')
    .map(([, v]) => v as string);
  const items = await store.getMany(labels.map(sourceKey));
  const sources = labels
    .map((source) => ({ source, count: Number(items.get(sourceKey(source))?.count ?? 0) || 0 }))
    .sort((a, b) => b.count - a.count || a.source.localeCompare(b.source));
  return { sources, distinct: Number(index.distinct ?? 0) || 0 };
}
