// What the catalogue's conventions (ETag, Location, Idempotency-Key) share: which GETs show
// one record, a path with its parameters filled, and the shape of a hook around a handler.
import type { TSchema } from 'typebox';
import type { AnyRoute, RouteInput, UserRouteDef } from './catalogue.ts';
import type { TenantCtx } from './context.ts';

// biome-ignore lint/suspicious/noExplicitAny: see AnyRoute
export type UserRoute = UserRouteDef<any, any, any>;

/** Runs in a write's transaction, after the catalogue's checks, around its handler (`next`). */
export type AroundHandler = (
  input: RouteInput<unknown, unknown, unknown>,
  ctx: TenantCtx,
  next: () => Promise<unknown>,
) => Promise<unknown>;

const PARAM = /\{(\w+)\}/g;

/** The parameters of an OpenAPI-style path, in order. */
export function paramsOf(path: string): string[] {
  return [...path.matchAll(PARAM)].map((m) => m[1]!);
}

/** The route's path with its parameters filled (each encoded as one path segment). */
export function filledPath(path: string, params: Record<string, unknown>): string {
  return path.replace(PARAM, (_, name: string) => encodeURIComponent(String(params[name] ?? '')));
}

function isPaged(schema: TSchema): boolean {
  const p = (schema as { properties?: Record<string, { type?: unknown }> }).properties;
  return p?.items?.type === 'array' && p.totalPages !== undefined;
}

/**
 * A GET of one record: a path parameter, a JSON object answer (not a file, not a bare array,
 * not a page of a list), on an authenticated route.
 */
export function isSingleRecordGet(route: AnyRoute): route is UserRoute {
  if (route.method !== 'GET' || route.auth === 'none') return false;
  if (!route.path.includes('{') || route.produces || route.files) return false;
  const schema = route.response[200] as (TSchema & { type?: unknown }) | undefined;
  return schema?.type === 'object' && !isPaged(schema);
}

/** The single-record GET on the same path as a PATCH or DELETE, if there is one. */
export function siblingGet(route: AnyRoute, routes: readonly AnyRoute[]): UserRoute | undefined {
  if ((route.method !== 'PATCH' && route.method !== 'DELETE') || route.auth === 'none') return undefined;
  return routes.find((r): r is UserRoute => r.path === route.path && isSingleRecordGet(r));
}
