// Completion webhooks for narration (paid plans): an account registers one endpoint (PUT /v1/webhook, the platform's
// routes in lambdas/shared/webhooks/handlers.ts) and receives `audio.completed` / `audio.failed` with the Conversion
// result, signed like documents' events (Voz-Signature: t=…,v1=HMAC-SHA256, Stripe's scheme), retried with backoff
// by the delivery queue (`webhooks`, then its DLQ). Delivery, signing, SSRF checks and retries are the platform's
// (lambdas/shared/webhooks/); this file binds them to narration: event types, Voz-* headers, paid plans only, and
// what an event carries. Documented for customers in lambdas/narration/api/webhooks-doc.ts.
import { logger } from '../../shared/logger';
import { deliveryStep, type DeliveryStepDeps, type MessageQueue } from '../../shared/webhooks/delivery';
import { webhookEventId } from '../../shared/webhooks/events';
import type { WebhookBrand, WebhookStore } from '../../shared/webhooks/endpoints';
import type { WebhookService } from '../../shared/webhooks/handlers';
import { AUDIO_EVENT_TYPES, type AudioEventType } from '../core/audio-events';
import type { AudioRecord, AudioRepository } from '../ports';

export const NARRATION_WEBHOOK_BRAND: WebhookBrand = {
  signatureHeader: 'Voz-Signature',
  eventIdHeader: 'Voz-Event-Id',
  eventTypeHeader: 'Voz-Event-Type',
  attemptHeader: 'Voz-Delivery-Attempt',
  userAgent: 'VozWebhooks/1.0 (+https://voz.example/api#webhooks)',
};

/** What the shared webhook routes need to know about narration: paid plans (Pro, Lifetime) register endpoints. */
export const NARRATION_WEBHOOKS: WebhookService<AudioEventType> = {
  eventTypes: AUDIO_EVENT_TYPES,
  brand: NARRATION_WEBHOOK_BRAND,
  keyRequired: 'completion webhooks belong to a paid account (Pro or Lifetime).',
  // Every key is a paid plan's (Pro, Lifetime); a lapsed subscription is refused (402) by resolveCaller before this.
  assertAllowed: () => undefined,
};

/** One message of the delivery queue: one event of one conversion. */
export interface AudioEventMessage {
  audioId: string;
  eventId: string;
  type: AudioEventType;
}

/** Deterministic per conversion and type: a duplicated end produces the same event id (receivers dedupe on it). */
export function audioEventIdFor(audioId: string, type: AudioEventType): string {
  return webhookEventId(`audio:${audioId}`, type);
}

/** Owners that can have an endpoint: accounts and account-less keys (anonymous callers are `ip#…`). */
const hasAccount = (owner: string | undefined): owner is string =>
  !!owner && (owner.startsWith('acct:') || owner.startsWith('key:'));

export interface QueueEventDeps {
  readonly webhooks: WebhookStore<AudioEventType>;
  readonly deliveryQueue: MessageQueue;
}

/**
 * Called where a conversion ends (done or failed): queues its event when the owner's endpoint subscribes to it.
 * Never throws — a webhook problem must not fail the conversion; a lost event is logged loudly.
 */
export async function queueAudioEvent(deps: QueueEventDeps, record: AudioRecord): Promise<void> {
  if (!hasAccount(record.owner) || record.plan === 'free') return;
  if (record.status !== 'done' && record.status !== 'failed') return;
  const type: AudioEventType = record.status === 'done' ? 'audio.completed' : 'audio.failed';
  try {
    const endpoint = await deps.webhooks.get(record.owner);
    if (!endpoint || !endpoint.events.includes(type)) return;
    const message: AudioEventMessage = {
      audioId: record.audioId,
      eventId: audioEventIdFor(record.audioId, type),
      type,
    };
    await deps.deliveryQueue.send({ ...message });
  } catch (err) {
    logger.error('webhook event not queued; the conversion itself is recorded', {
      error: err as Error,
      audioId: record.audioId,
      type,
    });
  }
}

/** The event's `data.audio`: the Conversion result as the convert endpoints and GET /audio show it. */
export function audioEventData(record: AudioRecord): Record<string, unknown> {
  const base = {
    audio_id: record.audioId,
    audio_url: `/audio/${record.audioId}.${record.fmt}`,
    voice: record.voice,
    chars: record.chars,
    ...(record.title !== undefined ? { title: record.title } : {}),
    status: record.status,
    created_at: record.createdAt,
    expires_at: new Date(record.expiresAt * 1000).toISOString(),
  };
  return record.status === 'done'
    ? { ...base, duration_s: record.durationS ?? null }
    : { ...base, duration_s: null, reason: record.error ?? 'The conversion failed. Please submit it again.' };
}

export interface AudioDeliveryDeps extends DeliveryStepDeps<AudioEventType> {
  readonly audio: Pick<AudioRepository, 'get'>;
}

/**
 * Delivers one event (one SQS message) through the platform's deliverEvent, with `data.audio` as its payload:
 * 'skipped' when there is nothing to send any more (the audio was deleted or expired, or the endpoint unsubscribed);
 * 'delivered' on a 2xx; otherwise the platform schedules the retry and throws DeliveryFailedError (after the last
 * attempt the message goes to the DLQ).
 */
export const deliverAudioEvent = deliveryStep(
  NARRATION_WEBHOOK_BRAND,
  async (deps: AudioDeliveryDeps, message: AudioEventMessage) => {
    const record = await deps.audio.get(message.audioId);
    const expected =
      record?.status === 'done' ? 'audio.completed' : record?.status === 'failed' ? 'audio.failed' : null;
    if (!record || expected !== message.type || !hasAccount(record.owner)) {
      logger.warn('webhook event for a conversion that is gone or changed, dropped', { ...message });
      return null;
    }
    return {
      owner: record.owner,
      id: message.eventId,
      type: message.type,
      at: record.updatedAt,
      data: () => ({ audio: audioEventData(record) }),
    };
  },
);
