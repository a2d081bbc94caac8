// The specs of a service's webhook surface, built here once and called by each service with what differs, as
// ../http/page-routes.ts builds the pages: the four endpoint routes (PUT/GET/DELETE /v1/webhook, POST
// /v1/webhook/rotate-secret; one handler file per service, lambdas/<service>/handlers/webhooks.ts on ./handlers.ts)
// and the delivery queue with its worker. Plain data, like every spec (../manifest.ts): each function may touch only
// the endpoint items of the accounts table (WEBHOOK_ITEM_PREFIX) besides what the service adds.
import type { RouteDoc } from '../http/route-doc';
import type { Access, QueueSpec, RouteSpec, WorkerSpec } from '../manifest';
import { WEBHOOK_ITEM_PREFIX } from './item-prefix';
import { DEFAULT_RETRY_SCHEDULE_S } from './schedule';

/** Route ids (CDK construct ids: keep them stable), in the order the manifest lists them. */
export type WebhookRouteId = 'WebhookPut' | 'WebhookGet' | 'WebhookDelete' | 'WebhookRotateSecret';

export interface WebhookRoutesOptions {
  /** The handler file serving the four routes (lambdas/<service>/handlers/webhooks.ts). */
  handler: string;
  /** What GET /api says about them: the service's `webhookDocs(...).routes` (./api-docs.ts). */
  docs: Record<'put' | 'get' | 'delete' | 'rotate', RouteDoc>;
}

/** PUT, GET and DELETE /v1/webhook and POST /v1/webhook/rotate-secret. */
export function webhookRoutes(o: WebhookRoutesOptions): (RouteSpec & { id: WebhookRouteId })[] {
  const endpoints = (write: boolean): Access => ({
    tables: { keys: 'r', accounts: write ? 'rw' : 'r' },
    itemPrefixes: { accounts: [WEBHOOK_ITEM_PREFIX] },
  });
  const base = { handler: o.handler, memoryMb: 256 } as const;
  return [
    {
      ...base,
      id: 'WebhookPut',
      method: 'PUT',
      path: '/v1/webhook',
      // DNS resolution of the callback host at registration.
      timeoutS: 10,
      maxBodyBytes: 8 * 1024,
      access: endpoints(true),
      docs: o.docs.put,
    },
    {
      ...base,
      id: 'WebhookGet',
      method: 'GET',
      path: '/v1/webhook',
      timeoutS: 5,
      access: endpoints(false),
      docs: o.docs.get,
    },
    {
      ...base,
      id: 'WebhookDelete',
      method: 'DELETE',
      path: '/v1/webhook',
      timeoutS: 5,
      access: endpoints(true),
      docs: o.docs.delete,
    },
    {
      ...base,
      id: 'WebhookRotateSecret',
      method: 'POST',
      path: '/v1/webhook/rotate-secret',
      timeoutS: 5,
      maxBodyBytes: 1024,
      access: { ...endpoints(true), settings: ['WEBHOOK_SECRET_OVERLAP_S'] },
      docs: o.docs.rotate,
    },
  ];
}

export interface WebhookDeliveryOptions {
  /** The service's delivery queue: its id (construct ids derive from it), URL variable, cap and description. */
  queue: Pick<QueueSpec, 'id' | 'envVar' | 'maxConcurrency' | 'description'>;
  /** Its worker: the handler file and what it reads besides endpoints (the subject of its events). */
  worker: Pick<WorkerSpec, 'handler' | 'description' | 'access'>;
}

/**
 * The delivery queue (one message per event; every attempt is a receive, so maxReceiveCount = the retry schedule's
 * delays + 1, then the DLQ) and the worker that POSTs its events, id `DeliveryWorker`.
 */
export function webhookDelivery(o: WebhookDeliveryOptions): { queue: QueueSpec; worker: WorkerSpec } {
  const own = o.worker.access;
  return {
    queue: { ...o.queue, maxReceiveCount: DEFAULT_RETRY_SCHEDULE_S.length + 1, webhookDeliveries: true },
    worker: {
      id: 'DeliveryWorker',
      queues: [o.queue.id],
      ...o.worker,
      memoryMb: 256,
      // WEBHOOK_TIMEOUT_MS (10 s) per attempt plus the bookkeeping around it.
      timeoutS: 30,
      tmpMb: 512,
      access: {
        ...own,
        itemPrefixes: {
          ...own.itemPrefixes,
          accounts: [...(own.itemPrefixes?.accounts ?? []), WEBHOOK_ITEM_PREFIX],
        },
        settings: [...(own.settings ?? []), 'WEBHOOK_TIMEOUT_MS', 'WEBHOOK_SECRET_OVERLAP_S'],
      },
    },
  };
}
