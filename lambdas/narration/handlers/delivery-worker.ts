// Delivery worker: fed by narration's `webhooks` queue (SQS event source, batch size 1, reportBatchItemFailures).
// Each message is one audio.completed / audio.failed event; deliverAudioEvent (use-cases/webhooks.ts) POSTs it,
// signed, through the platform's delivery (lambdas/shared/webhooks/delivery.ts: SSRF boundary, retry by message
// visibility 1 min … 6 h, then the DLQ).
import { z } from 'zod';
import { sqsWorker } from '../../shared/sqs-worker';
import { AUDIO_EVENT_TYPES, type AudioEventType } from '../core/audio-events';
import { awsDeps, type NarrationDeps } from '../deps';
import { deliverAudioEvent } from '../use-cases/webhooks';

const Message = z.object({
  audioId: z.string().min(1).max(64),
  eventId: z.string().min(1).max(64),
  type: z.enum(AUDIO_EVENT_TYPES as unknown as [AudioEventType, ...AudioEventType[]]),
});

export const makeHandler = (deps: NarrationDeps) =>
  sqsWorker(Message, ({ message, attempt, record }) =>
    deliverAudioEvent(
      {
        audio: deps.audio,
        webhooks: deps.webhooks,
        deliveryQueue: deps.deliveryQueue,
        webhookPolicy: deps.webhookPolicy,
        config: deps.config,
        now: () => deps.now(),
      },
      message,
      attempt,
      record.receiptHandle,
    ),
  );

export const handler = makeHandler(awsDeps());
