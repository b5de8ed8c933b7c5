// An empty PATCH (`{}`) changes nothing: it answers the record as its GET does, through the PATCH
// route's own checks (scope, role, company, If-Match), without running the update. Issue 35: PATCH
// /api/cost-centres/{id} and /api/bills/{id} with {} answered 500 (an UPDATE with nothing to set),
// and most other PATCH routes moved updatedAt (and so the ETag and every sync) for a change that
// changed nothing. One rule here, for every PATCH route whose path has a GET, rather than a guard
// in each service.
import type { AnyRoute } from './catalogue.ts';

function isEmptyObject(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 0;
}

/** The route, answering an empty body with its path's GET when it is a PATCH that has one. */
export function withEmptyPatch(route: AnyRoute, routes: readonly AnyRoute[]): AnyRoute {
  if (route.method !== 'PATCH' || route.auth === 'none') return route;
  const reader = routes.find((r) => r.method === 'GET' && r.path === route.path && r.auth !== 'none');
  if (!reader || reader.auth === 'none') return route;
  const patch = route.handler;
  const read = reader.handler;
  return {
    ...route,
    handler: async (input, ctx) =>
      isEmptyObject(input.body) ? read({ ...input, query: {} }, ctx) : patch(input, ctx),
  };
}
