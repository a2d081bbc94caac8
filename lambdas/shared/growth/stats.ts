// Public statistics (GET /stats) from counters, never scans: each finished conversion adds to one item with one
// atomic UpdateItem; GET /stats reads it and the waitlist counter in one consistent batch read. Keys in `growth`:
//   stats#totals  conversions, chars, seconds, fmt#<format>, voice#<voice id>, since (first conversion, ISO)
//   stats#failed  failed (queued jobs that ended failed), day#<YYYY-MM-DD> (per UTC day), since — for the dashboard
import { logger } from '../logger';
import type { GrowthStore } from './ports';
import { WAITLIST_COUNT_KEY } from './waitlist';

export const STATS_KEY = 'stats#totals';

export interface ConversionStats {
  /** Characters narrated. */
  chars: number;
  /** Seconds of audio produced. */
  durationS: number;
  fmt?: string;
  voice?: string;
}

/** Adds one finished conversion to the public counters. Throws when the store fails. */
export async function recordConversionStats(
  store: GrowthStore,
  s: ConversionStats,
  now: Date = new Date(),
): Promise<void> {
  await store.add(
    STATS_KEY,
    {
      conversions: 1,
      chars: Math.max(0, Math.round(s.chars)),
      // DynamoDB numbers are decimals: millisecond sums stay exact.
      seconds: Math.max(0, Math.round(s.durationS * 1000) / 1000),
      ...(s.fmt ? { [`fmt#${s.fmt}`]: 1 } : {}),
      ...(s.voice ? { [`voice#${s.voice}`]: 1 } : {}),
    },
    { since: now.toISOString() },
  );
}

/**
 * For the conversion path: statistics must never fail a conversion, so every failure — including a store that
 * cannot even be built (no GROWTH_TABLE on this function) — is logged and swallowed.
 */
export async function recordConversionStatsSafely(
  store: () => GrowthStore,
  s: ConversionStats,
  now?: Date,
): Promise<void> {
  try {
    await recordConversionStats(store(), s, now);
  } catch (err) {
    logger.warn('public stats not updated for this conversion', { error: err as Error });
  }
}

export interface PublicStats {
  conversions: number;
  characters_narrated: number;
  seconds_narrated: number;
  hours_narrated: number;
  by_format: Record<string, number>;
  by_voice: Record<string, number>;
  waitlist: number;
  /** When the first counted conversion finished; null before any. */
  since: string | null;
  generated_at: string;
}

export async function publicStats(store: GrowthStore, now: Date = new Date()): Promise<PublicStats> {
  const items = await store.getMany([STATS_KEY, WAITLIST_COUNT_KEY]);
  const totals = items.get(STATS_KEY) ?? {};
  const n = (v: unknown) => Number(v ?? 0) || 0;
  const byPrefix = (prefix: string) =>
    Object.fromEntries(
      Object.entries(totals)
        .filter(([k]) => k.startsWith(prefix))
        .map(([k, v]) => [k.slice(prefix.length), n(v)])
        .sort(([a], [b]) => String(a).localeCompare(String(b))),
    ) as Record<string, number>;
  const seconds = Math.round(n(totals.seconds) * 1000) / 1000;
  return {
    conversions: n(totals.conversions),
    characters_narrated: n(totals.chars),
    seconds_narrated: seconds,
    hours_narrated: Math.round((seconds / 3600) * 100) / 100,
    by_format: byPrefix('fmt#'),
    by_voice: byPrefix('voice#'),
    waitlist: n(items.get(WAITLIST_COUNT_KEY)?.count),
    since: typeof totals.since === 'string' ? totals.since : null,
    generated_at: now.toISOString(),
  };
}

export const FAILED_KEY = 'stats#failed';
const dayOf = (d: Date) => d.toISOString().slice(0, 10);

/** Counts one job that ended failed (total and its UTC day). Never throws: bookkeeping must not fail a job. */
export async function recordJobFailureSafely(
  store: () => GrowthStore,
  now: Date = new Date(),
): Promise<void> {
  try {
    await store().add(FAILED_KEY, { failed: 1, [`day#${dayOf(now)}`]: 1 }, { since: now.toISOString() });
  } catch (err) {
    logger.warn('failed-job counter not updated', { error: err as Error });
  }
}

export interface FailedJobs {
  total: number;
  /** Today (UTC) and the 6 days before it. */
  last_7_days: number;
  /** Per UTC day, oldest first, 7 entries. */
  by_day: { day: string; failed: number }[];
  since: string | null;
}

export async function failedJobs(store: GrowthStore, now: Date = new Date()): Promise<FailedJobs> {
  const item = (await store.getMany([FAILED_KEY])).get(FAILED_KEY) ?? {};
  const n = (v: unknown) => Number(v ?? 0) || 0;
  const by_day = Array.from({ length: 7 }, (_, i) => {
    const day = dayOf(new Date(now.getTime() - (6 - i) * 86_400_000));
    return { day, failed: n(item[`day#${day}`]) };
  });
  return {
    total: n(item.failed),
    last_7_days: by_day.reduce((s, d) => s + d.failed, 0),
    by_day,
    since: typeof item.since === 'string' ? item.since : null,
  };
}
