// Data control for narration: who owns a conversion, deleting it (DELETE /audio/{id}), and how long it is kept
// (`retention_days` on the convert endpoints). Talks only to ports.
//
// Ownership: a conversion made with an API key belongs to the key's billing account (every key of the account,
// also one that replaced a rotated key: ownerOf); one made without a key belongs to the client address (hashed,
// as the free tier counts it) and may be deleted from that address while the free tier's longest window (a day)
// after its creation lasts. Anyone else gets 404, exactly as for an unknown id (ids are not confirmed to strangers).
import type { Caller } from '../../shared/auth/resolve-caller';
import { ipSubject } from '../../shared/auth/resolve-caller';
import { Gone, NotFound, invalid } from '../../shared/errors';
import { ownerOf } from '../../shared/auth/owner';
import { logger } from '../../shared/logger';
import type { AudioRecord, AudioRepository, AudioStore } from '../ports';

/** How long after its creation an anonymous caller may delete its audio from the same address. */
export const ANONYMOUS_DELETE_WINDOW_S = 86400;

/** The owner recorded on a conversion made by `caller`. */
export function audioOwner(caller: Caller): string {
  return caller.kind === 'key' ? ownerOf(caller.key) : caller.subject;
}

/** May this caller delete `record`? (the demo's subjects carry their own prefix: `demo#` + the address's hash) */
export function mayDelete(record: AudioRecord, caller: Caller, clientIp: string, now: Date): boolean {
  if (!record.owner) return false;
  if (caller.kind === 'key') return record.owner === ownerOf(caller.key);
  const ip = ipSubject(clientIp);
  if (record.owner !== ip && !record.owner.endsWith(ip)) return false;
  return now.getTime() - Date.parse(record.createdAt) <= ANONYMOUS_DELETE_WINDOW_S * 1000;
}

/**
 * DELETE /audio/{id}: removes every object of the conversion, then its record (so GET /audio answers 404 and no new
 * presigned URL can be made; URLs handed out earlier fail since their object is gone). 404 for an unknown id or
 * someone else's, indistinguishably. A job still running finds its record gone and stops at its next step; an
 * object it writes after that is unreachable and removed by the bucket's lifecycle.
 */
export async function deleteAudio(
  deps: { audio: AudioRepository; store: AudioStore; now(): Date },
  audioId: string,
  caller: Caller,
  clientIp: string,
): Promise<void> {
  const record = await deps.audio.get(audioId);
  if (!record || !mayDelete(record, caller, clientIp, deps.now()))
    throw new NotFound(
      'Audio not found. Only the account that made it (or, without an API key, the same address within a day) can delete it.',
    );
  await deps.store.deleteAudio(audioId, record.fmt, record.segments?.length ?? 0);
  await deps.audio.remove(audioId);
}

/** Plan limits of retention_days: the free tier's fixed days and paid keys' maximum are the bucket's lifecycle. */
export function retentionLimits(config: { AUDIO_TTL_DAYS: number }): {
  defaultDays: number;
  maxDays: number;
} {
  return { defaultDays: config.AUDIO_TTL_DAYS, maxDays: config.AUDIO_TTL_DAYS };
}

/**
 * `retention_days` of a convert request → the days the conversion is kept. The free tier keeps audio a fixed
 * `defaultDays` (sending another value is 422 naming it); paid keys choose 1..`maxDays` (the bucket's lifecycle,
 * AUDIO_TTL_DAYS), default `defaultDays`. 422 beyond the plan's limit names the maximum.
 */
export function retentionDays(
  requested: number | undefined,
  caller: Caller,
  limits: { defaultDays: number; maxDays: number },
): number {
  if (requested === undefined) return limits.defaultDays;
  if (caller.kind !== 'key') {
    if (requested === limits.defaultDays) return requested;
    throw invalid(
      ['body', 'retention_days'],
      `The free tier keeps audio ${limits.defaultDays} days (fixed); leave retention_days out, or use an API key ` +
        `of a paid plan to choose 1 to ${limits.maxDays} days.`,
      'retention_not_allowed',
    );
  }
  if (requested > limits.maxDays)
    throw invalid(
      ['body', 'retention_days'],
      `retention_days can be at most ${limits.maxDays} for your plan.`,
      'less_than_equal',
    );
  return requested;
}

/**
 * An audio past its retention answers 410 Gone (until DynamoDB's TTL removes the record, within about two days;
 * then 404 like an unknown id). Its objects are no longer served from the moment it expires (expireOnAccess also
 * deletes them).
 */
export function assertNotExpired(record: Pick<AudioRecord, 'expiresAt'>, now: Date): void {
  if (record.expiresAt * 1000 > now.getTime()) return;
  throw new Gone(
    `This audio expired on ${new Date(record.expiresAt * 1000).toISOString()} (its retention ended) and is no ` +
      'longer available. Convert the text again to get a new one.',
  );
}

/**
 * The routes that serve an audio's files call this instead of assertNotExpired: past its retention the files
 * (audio, segments, timings, job text) are deleted now, then 410. S3 lifecycle rules cannot expire one object at an
 * arbitrary second; the per-retention rules (bucket.ts RETENTION_TAG) remove whatever is never asked for again
 * within a day of its expiry. A failed delete is logged and left to them: the answer is 410 either way.
 */
export async function expireOnAccess(
  deps: { store: Pick<AudioStore, 'deleteAudio'> },
  record: Pick<AudioRecord, 'audioId' | 'fmt' | 'segments' | 'expiresAt'>,
  now: Date,
): Promise<void> {
  if (record.expiresAt * 1000 > now.getTime()) return;
  await deps.store.deleteAudio(record.audioId, record.fmt, record.segments?.length ?? 0).catch((e) =>
    logger.warn('could not delete an expired audio (the lifecycle rule will)', {
      error: e as Error,
      audioId: record.audioId,
    }),
  );
  assertNotExpired(record, now);
}
