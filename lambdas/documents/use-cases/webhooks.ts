// Scale webhooks: one endpoint per account (PUT/GET/DELETE /v1/webhook, POST /v1/webhook/rotate-secret) and the
// delivery of job events to it (the routes and the delivery worker: handlers/webhooks.ts). The machinery —
// endpoints, SSRF checks at registration and delivery, signing, retries — is the platform's
// (lambdas/shared/webhooks/, also used by narration); this file binds it to documents: event types, Docs-* headers, Scale only, 400 refusals, and the
// job-side bookkeeping (each attempt is recorded on the job). Event kinds, payload, signature and retries are
// documented for customers in lambdas/documents/api/webhooks-doc.ts.
import { Forbidden } from '../../shared/errors';
import { logger } from '../../shared/logger';
import { planOf } from '../core/plans';
import {
  checkCallbackUrl as checkUrl,
  registerEndpoint as register,
  type RegisterDeps as SharedRegisterDeps,
  type WebhookEndpoint as SharedEndpoint,
  type WebhookPolicy,
  type WebhookStore as SharedStore,
} from '../../shared/webhooks/endpoints';
import { deliveryStep, DeliveryFailedError, type DeliveryStepDeps } from '../../shared/webhooks/delivery';
import type { WebhookService } from '../../shared/webhooks/handlers';
import { DocumentRequestError } from '../errors';
import { downloadFor, publicJob, type DeliveryMessage } from './jobs';
import { DOCUMENTS_WEBHOOK_BRAND, SIGNATURE_HEADER, WEBHOOK_EVENT_TYPES } from '../core/webhook-events';
import {
  MAX_RECORDED_DELIVERIES,
  type DeliveryAttempt,
  type JobFiles,
  type JobRepository,
  type WebhookEventType,
} from '../ports';
import type { DocumentsPlan } from '../core/plans';

export {
  newSecret,
  publicEndpoint,
  requireKeyHolder,
  rotateSecret,
  secretsFor,
  SECRET_PREFIX,
  type WebhookPolicy,
} from '../../shared/webhooks/endpoints';
export { DeliveryFailedError };

export type WebhookEndpoint = SharedEndpoint<WebhookEventType>;
export type WebhookStore = SharedStore<WebhookEventType>;
export type RegisterDeps = SharedRegisterDeps<WebhookEventType>;

const invalid = (items: DocumentRequestError['problems']) => new DocumentRequestError(items);

/** Webhook registration is a Scale feature: 403 naming the caller's plan. */
export function assertWebhooksAllowed(plan: DocumentsPlan): void {
  if (plan === 'scale') return;
  throw new Forbidden(
    `Webhooks are a Scale plan feature; this key is on the ${plan} plan. Upgrade to Scale (GET /pricing) to ` +
      'register a callback URL.',
    { plan },
  );
}

/** What the shared webhook routes need to know about documents. */
export const DOCUMENTS_WEBHOOKS: WebhookService<WebhookEventType> = {
  eventTypes: WEBHOOK_EVENT_TYPES,
  brand: DOCUMENTS_WEBHOOK_BRAND,
  keyRequired: 'webhooks belong to a Scale account.',
  keyLabel: 'Scale key',
  assertAllowed: (caller) => assertWebhooksAllowed(planOf(caller)),
  invalid,
  invalidStatus: 400,
};

/** The shared check with documents' 400 refusals. */
export function checkCallbackUrl(raw: string, policy: WebhookPolicy): Promise<string> {
  return checkUrl(raw, policy, { invalid, signatureHeader: SIGNATURE_HEADER });
}

/** PUT /v1/webhook's use case with documents' event types and refusals. */
export function registerEndpoint(
  deps: RegisterDeps,
  owner: string,
  keyPrefix: string,
  body: { url: string; events?: WebhookEventType[] },
) {
  return register(deps, owner, keyPrefix, body, {
    allTypes: WEBHOOK_EVENT_TYPES,
    invalid,
    signatureHeader: SIGNATURE_HEADER,
  });
}

// ---- delivery --------------------------------------------------------------------------------------------------

export interface DeliveryDeps extends DeliveryStepDeps<WebhookEventType> {
  jobs: JobRepository;
  jobFiles: JobFiles;
  config: DeliveryStepDeps<WebhookEventType>['config'] & { JOB_DOWNLOAD_TTL_S: number };
}

/**
 * Delivers one event (one SQS message) through the platform's deliverEvent, with `data.job` as its payload, and
 * records each attempt on its job. Resolves when the message is done with
 * (delivered, or nothing to deliver); throws DeliveryFailedError after scheduling the retry (the message reappears
 * after the schedule's delay; after the last attempt it reappears at once and SQS moves it to the DLQ).
 */
export const deliverEvent = deliveryStep(
  DOCUMENTS_WEBHOOK_BRAND,
  async (deps: DeliveryDeps, message: DeliveryMessage, receiptHandle) => {
    const job = await deps.jobs.get(message.jobId);
    if (!job?.event || job.event.id !== message.eventId) {
      logger.warn('delivery for an unknown job or event, dropped', { ...message });
      return null;
    }
    const event = job.event;
    if ((job.deliveries ?? []).some((d) => d.eventId === event.id && d.outcome === 'delivered')) return null;
    if ((job.deliveries ?? []).length >= MAX_RECORDED_DELIVERIES) {
      logger.error('delivery record is full; event left to the DLQ', { ...message });
      await deps.deliveryQueue.retryAfter(receiptHandle, 0);
      throw new DeliveryFailedError('too many recorded deliveries');
    }
    return {
      owner: job.owner,
      id: event.id,
      type: event.type,
      at: job.completedAt ?? job.updatedAt,
      // The download link is signed now, so a retried delivery carries a link that still works.
      // Never past the job's expiry (options.expires_in).
      data: async (started: Date) => ({
        job: publicJob(job, await downloadFor(deps.jobFiles, job, deps.config.JOB_DOWNLOAD_TTL_S, started), {
          deliveries: false,
        }),
      }),
      record: (a: DeliveryAttempt) => deps.jobs.addDelivery(job.jobId, a),
    };
  },
);
