// The webhook endpoint routes, once for every service: PUT/GET/DELETE /v1/webhook and POST /v1/webhook/rotate-secret.
// Each service's handlers/webhooks.ts only wires its deps and its WebhookService (event types, header names, which
// plans may register, its validation shape: narration 422, documents 400) into webhookHandlers, with the limits of
// the specs ./routes.ts built.
//   PUT    → 201 {..., secret} (created; the secret is shown this once) or 200 (URL/events changed, same secret)
//   GET    → 200 the endpoint without its secret (secret_hint); 404 when none
//   DELETE → 204; 404 when none
//   POST /v1/webhook/rotate-secret → 200 {..., secret}; the previous secret keeps signing for
//            WEBHOOK_SECRET_OVERLAP_S. No key → 401; a plan that may not register → 403 naming it.
import type { KeyStore } from '../auth/keys';
import { resolveCaller, type Caller } from '../auth/resolve-caller';
import { apiHandler } from '../http/api-handler';
import type { SQSEvent, Context } from 'aws-lambda';
import type { ApiEvent } from '../http/request';
import { lazyHandlers, routeHandler } from '../http/route-handlers';
import { sqsWorker } from '../sqs-worker';
import type { z } from 'zod';
import type { RouteSpec } from '../manifest';
import { NotFound, InvalidInput, Unauthenticated } from '../errors';
import { NO_STORE, json } from '../http/response';
import { validate } from '../validation';
import type { WebhookRouteId } from './routes';
import {
  ownerOf,
  publicEndpoint,
  registerEndpoint,
  requireKeyHolder,
  rotateSecret,
  webhookPutRequest,
  type InvalidRequest,
  type WebhookBrand,
  type WebhookPolicy,
  type WebhookStore,
} from './endpoints';

/** How one service's webhooks differ from another's. */
export interface WebhookService<E extends string> {
  eventTypes: readonly E[];
  brand: WebhookBrand;
  /** Completes the 401 "Send `Authorization: Bearer <API key>`: …" (e.g. "webhooks belong to a Scale account."). */
  keyRequired: string;
  /** What the 401 of PUT and rotate calls the key they need. @default "API key" */
  keyLabel?: string;
  /** Throws 403 naming the plan when this key's plan may not register an endpoint. */
  assertAllowed(caller: Extract<Caller, { kind: 'key' }>): void;
  /** The service's validation error (documents: 400 DocumentRequestError); default 422. */
  invalid?: InvalidRequest;
  /** Its status, also of a body over the route's limit (documents 400); default 422. */
  invalidStatus?: 400 | 422;
}

export interface WebhookRouteDeps<E extends string> {
  readonly keys: KeyStore;
  readonly webhooks: WebhookStore<E>;
  readonly webhookPolicy: WebhookPolicy;
  readonly config: { WEBHOOK_SECRET_OVERLAP_S: number };
  now(): Date;
}

async function payingKey<E extends string>(
  deps: Pick<WebhookRouteDeps<E>, 'keys'>,
  svc: WebhookService<E>,
  headers: Record<string, string>,
  clientIp: string,
) {
  const caller = await resolveCaller(headers, clientIp, deps.keys);
  if (caller.kind !== 'key')
    throw new Unauthenticated(
      `Send \`Authorization: Bearer <${svc.keyLabel ?? 'API key'}>\`: ${svc.keyRequired}`,
    );
  svc.assertAllowed(caller);
  return caller.key;
}

export function webhookPutHandler<E extends string>(
  deps: Omit<WebhookRouteDeps<E>, 'config'>,
  svc: WebhookService<E>,
  opts: { maxBodyBytes?: number; invalidStatus?: 400 | 422 } = {},
) {
  const schema = webhookPutRequest(svc.eventTypes);
  return apiHandler(
    async (req) => {
      const key = await payingKey(deps, svc, req.headers, req.clientIp);
      let body;
      try {
        body = validate(schema, req.body());
      } catch (err) {
        if (err instanceof InvalidInput && svc.invalid) throw svc.invalid(err.items);
        throw err;
      }
      const { created, endpoint } = await registerEndpoint(
        { webhooks: deps.webhooks, policy: deps.webhookPolicy, now: deps.now },
        ownerOf(key),
        key.keyPrefix,
        body as { url: string; events?: E[] },
        { allTypes: svc.eventTypes, invalid: svc.invalid, signatureHeader: svc.brand.signatureHeader },
      );
      return json(
        created ? 201 : 200,
        publicEndpoint(endpoint, { withSecret: created }, deps.now()),
        NO_STORE,
      );
    },
    { maxBodyBytes: opts.maxBodyBytes, invalidStatus: opts.invalidStatus },
  );
}

export function webhookGetHandler<E extends string>(
  deps: Pick<WebhookRouteDeps<E>, 'keys' | 'webhooks' | 'now'>,
  svc: Pick<WebhookService<E>, 'keyRequired'>,
) {
  return apiHandler(async (req) => {
    const key = await requireKeyHolder(req.headers, deps.keys, svc.keyRequired);
    const endpoint = await deps.webhooks.get(ownerOf(key));
    if (!endpoint)
      throw new NotFound(
        'No webhook endpoint is registered for this account. Register one with PUT /v1/webhook.',
      );
    return json(200, publicEndpoint(endpoint, {}, deps.now()), NO_STORE);
  });
}

export function webhookDeleteHandler<E extends string>(
  deps: Pick<WebhookRouteDeps<E>, 'keys' | 'webhooks'>,
  svc: Pick<WebhookService<E>, 'keyRequired'>,
) {
  return apiHandler(async (req) => {
    const key = await requireKeyHolder(req.headers, deps.keys, svc.keyRequired);
    if (!(await deps.webhooks.remove(ownerOf(key))))
      throw new NotFound('No webhook endpoint is registered for this account.');
    return { statusCode: 204, headers: NO_STORE, body: '' };
  });
}

export function webhookRotateHandler<E extends string>(
  deps: WebhookRouteDeps<E>,
  svc: WebhookService<E>,
  opts: { maxBodyBytes?: number; invalidStatus?: 400 | 422 } = {},
) {
  return apiHandler(
    async (req) => {
      const key = await payingKey(deps, svc, req.headers, req.clientIp);
      const endpoint = await rotateSecret(
        { webhooks: deps.webhooks, policy: deps.webhookPolicy, now: deps.now },
        ownerOf(key),
        key.keyPrefix,
        deps.config.WEBHOOK_SECRET_OVERLAP_S,
      );
      return json(200, publicEndpoint(endpoint, { withSecret: true }, deps.now()), NO_STORE);
    },
    { maxBodyBytes: opts.maxBodyBytes, invalidStatus: opts.invalidStatus },
  );
}

/**
 * The four handlers of a service by route id (each made on first use), with the body limits of its specs
 * (`webhookRoutes`) and its validation status: the service's handlers/webhooks.ts dispatches to them.
 */
export function webhookHandlers<E extends string>(
  svc: WebhookService<E>,
  routes: readonly (RouteSpec & { id: WebhookRouteId })[],
  deps: WebhookRouteDeps<E>,
) {
  const opts = (id: WebhookRouteId) => {
    const spec = routes.find((r) => r.id === id);
    if (!spec) throw new Error(`the webhook routes have no ${id}`);
    return { maxBodyBytes: spec.maxBodyBytes, invalidStatus: svc.invalidStatus };
  };
  return lazyHandlers<WebhookRouteId>({
    WebhookPut: () => webhookPutHandler(deps, svc, opts('WebhookPut')),
    WebhookGet: () => webhookGetHandler(deps, svc),
    WebhookDelete: () => webhookDeleteHandler(deps, svc),
    WebhookRotateSecret: () => webhookRotateHandler(deps, svc, opts('WebhookRotateSecret')),
  });
}

/**
 * The Lambda handler of a service's whole webhook surface (its handlers/webhooks.ts): the endpoint routes (API
 * Gateway events, picked by route key) and the delivery queue's worker (SQS events: each `message` handed to the
 * service's `deliver` step, ./delivery.ts deliveryStep). Each route and the worker are still their own functions in
 * the cloud, with their own grants; they share the file, as the routes of a surface do.
 */
export function webhookSurface<
  E extends string,
  Deps extends WebhookRouteDeps<E>,
  M extends Record<string, string>,
>(
  svc: WebhookService<E>,
  routes: readonly (RouteSpec & { id: WebhookRouteId })[],
  deps: Deps,
  delivery: {
    message: z.ZodType<M>;
    deliver(
      deps: NoInfer<Deps>,
      message: NoInfer<M>,
      attempt: number,
      receiptHandle: string,
    ): Promise<unknown>;
  },
) {
  const api = routeHandler(routes, webhookHandlers(svc, routes, deps));
  const worker = sqsWorker(delivery.message, ({ message, attempt, record }) =>
    delivery.deliver(deps, message, attempt, record.receiptHandle),
  );
  return (event: ApiEvent | SQSEvent, context: Context): Promise<unknown> =>
    'Records' in event ? worker(event, context) : api(event, context);
}
