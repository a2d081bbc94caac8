// The one webhook event model of the platform: every event a service sends is this Stripe-like envelope, `data` being
// the service's payload (narration `{audio: …}`, documents `{job: …}`). The id is deterministic per subject and type,
// so a duplicated end (a retried job, a redelivered message) produces the same id, on which receivers deduplicate.
// Pure: no I/O. Delivery of an event is ./delivery.ts (deliverEvent).
import { createHash } from 'node:crypto';

export interface WebhookEvent<E extends string = string, D = Record<string, unknown>> {
  id: string;
  object: 'event';
  type: E;
  /** Unix seconds: when the subject reached the outcome the event reports. */
  created: number;
  api_version: 'v1';
  data: D;
}

/** `evt_` + 24 characters, the same for the same subject (e.g. a job id, `audio:<id>`) and type. */
export function webhookEventId(subject: string, type: string): string {
  return 'evt_' + createHash('sha256').update(`${subject}:${type}`).digest('base64url').slice(0, 24);
}

/** The envelope of event `id` of `type`, for a subject that reached its outcome at `at` (ISO time). */
export function webhookEvent<E extends string, D>(
  id: string,
  type: E,
  at: string,
  data: D,
): WebhookEvent<E, D> {
  return {
    id,
    object: 'event',
    type,
    created: Math.floor(new Date(at).getTime() / 1000),
    api_version: 'v1',
    data,
  };
}
