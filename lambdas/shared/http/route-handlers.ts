// One handler file for the routes of a platform surface (billing, webhooks), as the site's pages share one
// (./page-routes.ts): each route is still its own function in the cloud (its own IAM, limits and logs), and the file's
// `handler` picks the route's handler by the event's route key (API Gateway's `GET /pay/checkout/{plan}`, which the
// local runtime sets too). A route's handler is built on its function's first request, so a function builds only its
// own. Unit tests call a route's handler directly (`makeHandlers(deps).PayCheckout`).
import type { Context } from 'aws-lambda';
import type { RouteSpec } from '../manifest';
import type { ApiEvent } from './request';
import type { ApiResult } from './response';

export type RouteHandler = (event: ApiEvent, context: Context) => Promise<ApiResult>;

/** Handlers by route id, each made on first use (getters): `make[id]()` runs at most once. */
export function lazyHandlers<Id extends string>(
  make: Record<Id, () => RouteHandler>,
): Record<Id, RouteHandler> {
  const made = {} as Record<Id, RouteHandler>;
  for (const id of Object.keys(make) as Id[])
    Object.defineProperty(made, id, {
      enumerable: true,
      configurable: true,
      get() {
        const h = make[id]();
        Object.defineProperty(made, id, { value: h, enumerable: true });
        return h;
      },
    });
  return made;
}

/** The Lambda handler of every route in `routes`: dispatches on `event.routeKey` to `handlers[route.id]`. */
export function routeHandler<Id extends string>(
  routes: readonly (RouteSpec & { id: Id })[],
  handlers: Record<Id, RouteHandler>,
): RouteHandler {
  const byKey = new Map(routes.map((r) => [`${r.method} ${r.path}`, r.id]));
  return (event, context) => {
    const id = byKey.get(event.routeKey);
    // Only a wiring mistake gets here (a route given another surface's handler file): fail loudly.
    if (id === undefined) throw new Error(`no handler in this file for route ${event.routeKey}`);
    return handlers[id](event, context);
  };
}
