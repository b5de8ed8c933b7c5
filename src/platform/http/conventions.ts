// The catalogue-wide HTTP conventions a route gets from its declaration, worked out once at
// registration from the whole catalogue: ETag and conditional requests (etag.ts), Location on
// 201 (location.ts), Idempotency-Key (idempotency-key.ts). The catalogue calls the hooks; the
// rules live in those files.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnyRoute } from './catalogue.ts';
import { answerEntityTag, conditional, ifMatchGuard } from './etag.ts';
import { checkIdempotencyKey, idempotencyApplies, idempotencyGuard } from './idempotency-key.ts';
import { locationOf, locationTemplate } from './location.ts';
import { type AroundHandler, siblingGet } from './record-routes.ts';

export interface RouteConventions {
  /** After authentication and the company header: checks on headers alone (400s). */
  onRequest: Array<(request: FastifyRequest) => Promise<void>>;
  /** On the serialised answer (the ETag, and 304). */
  onSend: Array<(request: FastifyRequest, reply: FastifyReply, payload: unknown) => Promise<unknown>>;
  /** In the write's transaction, after the checks, around the handler (If-Match, the key). */
  around: AroundHandler | undefined;
  /** Once the route answered, before the answer is serialised (Location). */
  answered(request: FastifyRequest, reply: FastifyReply, out: unknown): void;
}

/** Each route's conventions, from the catalogue it is registered with. */
export function routeConventions(routes: readonly AnyRoute[]): (route: AnyRoute) => RouteConventions {
  return (route) => {
    const onRequest: RouteConventions['onRequest'] = [];
    const onSend: RouteConventions['onSend'] = [];
    const arounds: AroundHandler[] = [];
    if (conditional(route, routes).etag) onSend.push(answerEntityTag);
    const get = siblingGet(route, routes);
    if (get) arounds.push(ifMatchGuard(route, get));
    if (idempotencyApplies(route)) {
      onRequest.push(checkIdempotencyKey);
      arounds.push(idempotencyGuard(route));
    }
    const location = locationTemplate(route, routes);
    return {
      onRequest,
      onSend,
      around: compose(arounds),
      answered(request, reply, out) {
        if (!location || reply.statusCode !== 201) return;
        const value = locationOf(location, request.params as Record<string, unknown>, out);
        if (value) reply.header('location', value);
      },
    };
  };
}

/** The first runs outermost. */
function compose(arounds: AroundHandler[]): AroundHandler | undefined {
  if (arounds.length === 0) return undefined;
  return arounds.reduceRight<AroundHandler>(
    (inner, outer) => (input, ctx, next) => outer(input, ctx, () => inner(input, ctx, next)),
    (_input, _ctx, next) => next(),
  );
}
