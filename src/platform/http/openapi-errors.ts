// Which error statuses (and codes) an operation can answer, derived from its declaration:
// a route cannot be added without the document saying how it fails.
//
//   input (a body, a query, path ids, X-Company-Id, a strict path) → 400
//   a signed-in route → 401, 403 (role, scope, plan, a key on a person's own route)
//   a path id or X-Company-Id → 404; a path parameter over 100 characters → 414
//   every write → 409 CONFLICT (a unique or reference constraint), plus the route's codes
//   a body → 413, 415
//   a key's metered call, or the per-address limit (/auth, /oauth, /external/leads) → 429
//   every route → 500, and 503 when the database cannot be reached (with Retry-After)
//   the route's own `errors` → their statuses
import { licensedModule } from '../auth/limits.ts';
import type { AnyRoute } from './catalogue.ts';
import { ERROR_CODES, type ErrorCode } from './error-codes.ts';
import { addressBudget } from './rate-limit.ts';
import { refusesUnknownInput } from './strict-input.ts';

/** What the catalogue-wide conventions add to a route (conventions.ts). */
export interface ConventionErrors {
  ifMatch: boolean;
  idempotencyKey: boolean;
}

/** The codes a route can answer, by status, in the closed list's order. */
export function errorCodesOf(
  route: AnyRoute,
  conventions: ConventionErrors = { ifMatch: false, idempotencyKey: false },
): Map<number, ErrorCode[]> {
  const codes = new Set<ErrorCode>(route.errors ?? []);
  if (conventions.ifMatch) codes.add('PRECONDITION_FAILED');
  if (conventions.idempotencyKey) codes.add('IDEMPOTENCY_KEY_REUSED').add('VALIDATION_FAILED');
  if (route.security === 'apiKey') codes.add('API_KEY_REQUIRED');
  const user = route.auth !== 'none';
  const hasParams = /\{\w+\}/.test(route.path);
  if (route.body || route.query || hasParams || route.companyScoped || refusesUnknownInput(route.path)) {
    codes.add('VALIDATION_FAILED');
  }
  if (route.body || route.binaryBody)
    codes.add('MALFORMED_BODY').add('PAYLOAD_TOO_LARGE').add('UNSUPPORTED_MEDIA_TYPE');
  if (route.companyScoped) codes.add('COMPANY_HEADER_REQUIRED');
  if (user) {
    codes.add('UNAUTHENTICATED');
    const module = licensedModule(route.module);
    if (module) {
      codes.add('MODULE_NOT_LICENSED').add('INSUFFICIENT_SCOPE').add('PLAN_HAS_NO_API_KEYS');
      // A test key reaches the sandbox company only, and writes nothing tenant-wide.
      if (route.companyScoped || route.access === 'write') codes.add('TEST_KEY_SANDBOX_ONLY');
    } else {
      codes.add('USER_TOKEN_REQUIRED');
    }
    if (route.access === 'write' && route.companyScoped) codes.add('SANDBOX_READ_ONLY');
  }
  if (hasParams || route.companyScoped) codes.add('NOT_FOUND');
  // The router refuses a path parameter longer than it reads (error-handler.ts).
  if (hasParams) codes.add('URI_TOO_LONG');
  if (route.access === 'write' && route.method !== 'GET') codes.add('CONFLICT');
  if (metered(route)) codes.add('RATE_LIMITED');
  codes.add('INTERNAL_ERROR').add('UNAVAILABLE');
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of Object.keys(ERROR_CODES) as ErrorCode[]) {
    if (!codes.has(code)) continue;
    const status = ERROR_CODES[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return new Map([...byStatus].sort(([a], [b]) => a - b));
}

/** Calls counted against a key's per-minute limit, or the per-address limit of sign-in. */
export function metered(route: AnyRoute): boolean {
  if (addressBudget(route.path)) return true;
  return route.auth !== 'none' && licensedModule(route.module) !== undefined;
}

/** Whether the 403 can be the role system's { error, resource, action } denial. */
export function roleDenial(route: AnyRoute): boolean {
  return route.auth !== 'none' && Boolean(route.permission);
}
