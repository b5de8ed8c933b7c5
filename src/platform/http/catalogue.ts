// The route catalogue. Each operation is declared once with defineRoute(); from that one
// object come request validation, authentication, the role check, the X-Company-Id rule,
// the tenant transaction, the audit entry, the OpenAPI operation and the security suite.
//
// Order of checks on an authenticated route:
//   401 no or bad token (stateless) → 403 an API key's token on a personal route →
//   400 X-Company-Id missing → 400 Idempotency-Key malformed → 400 validation →
//   [one tenant transaction] 401 session revoked / user gone (key revoked / owner gone) →
//   403 MODULE_NOT_LICENSED (the plan) → for a key: 403 PLAN_HAS_NO_API_KEYS →
//   403 INSUFFICIENT_SCOPE → metering (rate limit) → then for everyone: 403 role →
//   404 company outside the tenant → 403 SANDBOX_READ_ONLY (a write route whose
//   X-Company-Id is the sandbox while the plan lacks API access) → the conventions around
//   the handler (conventions.ts: 412 If-Match, a stored Idempotency-Key answer or 422) →
//   handler → audit entry → commit → after-commit work → Location, ETag (or 304).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Static, TSchema } from 'typebox';
import { auditStatement, fieldsOnly } from '../audit/audit.ts';
import {
  assertModuleLicensed,
  assertPlanHasApiKeys,
  assertSandboxWritable,
  assertScope,
  licensedModule,
} from '../auth/limits.ts';
import type { Action, Resource, RouteModule } from '../auth/permissions.ts';
import {
  type KeyPrincipalRow,
  keyNotAccepted,
  keyPrincipalFromRow,
  keyPrincipalQuery,
  type Principal,
  type PrincipalRow,
  principalFromRow,
  principalQuery,
} from '../auth/principal.ts';
import { rawKeyClaims } from '../auth/raw-key.ts';
import { assertTestKeyReach } from '../auth/test-keys.ts';
import { type BearerClaims, isKeyClaims, verifyAccessToken } from '../auth/tokens.ts';
import { type AtCommit, type Tx, withTenantOpening, withTenantReading } from '../db/tenant.ts';
import { FileResponse } from '../files/response.ts';
import type { AppDeps, BaseCtx, CompanyCtx, PublicCtx, TenantCtx } from './context.ts';
import { type RouteConventions, routeConventions } from './conventions.ts';
import { withEmptyPatch } from './empty-patch.ts';
import type { ErrorCode } from './error-codes.ts';
import { wasReplayed } from './idempotency-key.ts';
import { attachFiles, fileFieldsOf, MULTIPART_CONTENT_TYPE, multipartScope, readParts } from './multipart.ts';
import { badRequest, HttpError, notFound, PermissionDenied, unauthorized } from './problem.ts';
import { closeObjects, NO_QUERY, refusesUnknownInput } from './strict-input.ts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RouteInput<P, Q, B> {
  params: P;
  query: Q;
  body: B;
  headers: FastifyRequest['headers'];
}

interface RouteSpec<P extends TSchema, Q extends TSchema, B extends TSchema> {
  method: HttpMethod;
  /** OpenAPI style: /api/companies/{id} */
  path: string;
  module: RouteModule;
  /** read or write: the scope an API key needs (<module>:<access>), and whether it is audited */
  access: 'read' | 'write';
  /** Open to every API key whatever its scopes (GET /api/companies, the entitlements). */
  anyKey?: true;
  /**
   * A read route whose handler reads ctx.principal before its first query: the principal is
   * read first, in a round trip of its own (otherwise it rides with the first query).
   */
  principalFirst?: true;
  /**
   * The operation's readable id in the OpenAPI document and in generated clients, a verb then
   * the resource: listInvoices, getInvoice, createInvoice, releaseInvoice, recordInvoicePayment.
   */
  operationId?: string;
  /**
   * A public route that reads a credential by itself: `apiKey`, the API key as the bearer
   * token (POST /auth/token); `optionalBearer`, a token that shows more when given (GET
   * /diagnostics). On a route that is not public, `apiKey` means the caller is an API key
   * presented as itself (/external/*, raw-key.ts): no person's token, and no token exchanged
   * from a key unless `keyTokenToo`. Documented as such in the route's `security`.
   */
  security?: 'apiKey' | 'optionalBearer';
  /** With `security: 'apiKey'` on a route that is not public: a token exchanged from a key is taken too. */
  keyTokenToo?: true;
  /** The resource group the operation is listed under (one of the catalogue's `tags`). */
  tag?: string;
  /**
   * Error codes the route may answer beyond those its declaration implies (401 from auth,
   * 403 from permission/scope/plan, 404 from a path id or the company, 400/413 from its input,
   * 429 where metered): each code's status is declared in the document.
   */
  errors?: readonly ErrorCode[];
  summary: string;
  description?: string;
  params?: P;
  query?: Q;
  body?: B;
  /**
   * The body may be left out: a request without one is validated as `{}` (a body of optional
   * properties added to an operation that had none, so its existing callers still work).
   */
  bodyOptional?: boolean;
  /** Success responses by status; the default is 201 when declared, else the lowest (successStatus). */
  response: Record<number, TSchema>;
  /** Needs X-Company-Id naming a company of the tenant. */
  companyScoped?: boolean;
  /** Audit resource name for writes (default: the module); false for no automatic entry. */
  audit?: false | { resource: string };
  /** The largest body accepted, in bytes (default: the app's JSON limit, 1 MiB); larger is a 413. */
  bodyLimit?: number;
  /**
   * The success response is not JSON but this media type (or one of these): an HTML page, a PDF,
   * an image. The response schemas then only document it (OpenAPI) and are not used to
   * serialise; the handler returns a FileResponse (or sends the reply itself).
   */
  produces?: string | readonly string[];
  /**
   * Media types the success response may take besides JSON, when the handler returns a
   * FileResponse (a report's format=csv or pdf). The JSON response stays validated and
   * serialised by its schema; the files are documented as such in the OpenAPI operation.
   */
  files?: readonly string[];
  /**
   * The route's errors are RFC 6749 §5.2 bodies (`error`, `error_description`, with the
   * problem's members beside them) sent as application/json: OAuth's token endpoint.
   */
  oauthErrors?: true;
  /**
   * The body arrives as an HTML form would send it (OAuth's token endpoint, its sign-in page), or
   * as multipart/form-data: a file uploaded with its fields (multipart.ts; the file properties of
   * the body schema are `fileProperty`s, the file limit the route's bodyLimit).
   */
  consumes?: typeof FORM_CONTENT_TYPE | typeof MULTIPART_CONTENT_TYPE;
  /**
   * The body is a file of one of these media types (an uploaded receipt), handed to the handler
   * as a Buffer: no body schema; any other media type is a 415. The handler still reads the
   * bytes to tell what they really are.
   */
  binaryBody?: readonly string[];
}

export const FORM_CONTENT_TYPE = 'application/x-www-form-urlencoded';

export interface UserRouteDef<P extends TSchema, Q extends TSchema, B extends TSchema>
  extends RouteSpec<P, Q, B> {
  auth?: 'user';
  /** The role permission the caller needs; null: any signed-in user. */
  permission: [Resource, Action] | null;
  handler: (input: RouteInput<Static<P>, Static<Q>, Static<B>>, ctx: TenantCtx) => Promise<unknown>;
}

/**
 * A company-scoped route: its handler is given the company as a string (CompanyCtx), the
 * catalogue having required X-Company-Id and checked it names a company of the tenant.
 */
export interface CompanyRouteDef<P extends TSchema, Q extends TSchema, B extends TSchema>
  extends Omit<UserRouteDef<P, Q, B>, 'companyScoped' | 'handler'> {
  companyScoped: true;
  handler: (input: RouteInput<Static<P>, Static<Q>, Static<B>>, ctx: CompanyCtx) => Promise<unknown>;
}

export interface PublicRouteDef<P extends TSchema, Q extends TSchema, B extends TSchema>
  extends RouteSpec<P, Q, B> {
  auth: 'none';
  permission?: undefined;
  handler: (input: RouteInput<Static<P>, Static<Q>, Static<B>>, ctx: PublicCtx) => Promise<unknown>;
}

// biome-ignore lint/suspicious/noExplicitAny: the registry holds routes of every input type
export type AnyRoute = UserRouteDef<any, any, any> | PublicRouteDef<any, any, any>;

export function defineRoute<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
>(def: CompanyRouteDef<P, Q, B>): AnyRoute;
export function defineRoute<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
>(def: UserRouteDef<P, Q, B>): AnyRoute;
export function defineRoute<
  P extends TSchema = TSchema,
  Q extends TSchema = TSchema,
  B extends TSchema = TSchema,
>(def: PublicRouteDef<P, Q, B>): AnyRoute;
export function defineRoute(
  // biome-ignore lint/suspicious/noExplicitAny: see AnyRoute
  def: AnyRoute | CompanyRouteDef<any, any, any>,
): AnyRoute {
  if (!def.path.startsWith('/')) throw new Error(`Route path must start with /: ${def.path}`);
  if (Object.keys(def.response).length === 0)
    throw new Error(`Route ${def.method} ${def.path} has no response`);
  if (refusesUnknownInput(def.path)) {
    if (def.body) closeObjects(def.body);
    if (def.query) closeObjects(def.query);
  }
  // A company route's handler takes the narrower CompanyCtx: runUserRoute gives it one.
  return def as AnyRoute;
}

/**
 * The status a route answers unless its handler says otherwise: 201 for a create (its 200 is
 * the replay of an earlier create), else the lowest it declares. (Object keys that are numbers
 * iterate in ascending order, so the declaration's order cannot say it.)
 */
export function successStatus(route: AnyRoute): number {
  const statuses = Object.keys(route.response).map(Number);
  return statuses.includes(201) ? 201 : Math.min(...statuses);
}

export function toFastifyPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ':$1');
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const COMPANY_HEADER_REQUIRED = 'X-Company-Id header is required for this request';

declare module 'fastify' {
  interface FastifyRequest {
    claims?: BearerClaims;
    companyIdHeader?: string;
  }
}

function bearer(request: FastifyRequest): string | undefined {
  const h = request.headers.authorization;
  if (!h) return undefined;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m?.[1];
}

function makeAuthenticate(deps: AppDeps, route: AnyRoute) {
  // Personal routes (sessions, two-factor, password) and the service's own belong to people.
  const keysAccepted = licensedModule(route.module) !== undefined;
  if (route.security === 'apiKey') {
    return async function authenticateKey(request: FastifyRequest) {
      request.claims = await rawKeyClaims(deps, bearer(request), route.keyTokenToo === true);
    };
  }
  return async function authenticate(request: FastifyRequest) {
    const token = bearer(request);
    if (!token) throw unauthorized('A bearer token is required');
    const result = await verifyAccessToken(deps.config.jwtSecret, token, deps.now().getTime());
    if (!result.ok) {
      throw unauthorized(result.reason === 'expired' ? 'The token has expired' : 'The token is not valid');
    }
    if (isKeyClaims(result.claims) && !keysAccepted) throw keyNotAccepted();
    request.claims = result.claims;
  };
}

const PRINCIPAL_NOT_YET_KNOWN =
  "ctx.principal was read before the route's first query, which brings it on a read route: declare the route principalFirst";

/**
 * The plan, the key's scopes and the meter, before the role check (catalogue order above).
 * The plan gates users too: a business that has not bought a module does not use it,
 * whoever signs in.
 */
async function applyLimits(
  // biome-ignore lint/suspicious/noExplicitAny: see AnyRoute
  route: UserRouteDef<any, any, any>,
  principal: Principal,
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  assertModuleLicensed(principal.plan, route.module);
  if (principal.type !== 'api_key') return;
  assertPlanHasApiKeys(principal.plan);
  if (!route.anyKey) assertScope(principal.scopes, route.module, route.access);
  // The rate limit's one call site: metered once the plan and the scopes admit the call.
  await deps.meterKeyCall(request, reply, {
    id: principal.keyId,
    limitPerMinute: principal.rateLimitPerMinute,
  });
}

async function requireCompanyHeader(request: FastifyRequest) {
  const raw = request.headers['x-company-id'];
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (!value)
    throw new HttpError(400, COMPANY_HEADER_REQUIRED, {
      code: 'COMPANY_HEADER_REQUIRED',
      field: 'X-Company-Id',
    });
  if (!UUID.test(value)) throw badRequest('X-Company-Id', 'must be a company id (UUID)');
  request.companyIdHeader = value.toLowerCase();
}

function baseCtx(
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  after: Array<() => unknown>,
): BaseCtx {
  return {
    deps,
    requestId: String(request.id),
    ip: request.ip,
    userAgent: request.headers['user-agent'],
    log: request.log,
    reply,
    afterCommit: (fn) => {
      after.push(fn);
    },
  };
}

async function runAfterCommit(request: FastifyRequest, after: Array<() => unknown>) {
  for (const fn of after) {
    try {
      await fn();
    } catch (err) {
      request.log.error({ err }, 'after-commit work failed');
    }
  }
}

function inputOf(request: FastifyRequest): RouteInput<unknown, unknown, unknown> {
  return {
    params: request.params ?? {},
    query: request.query ?? {},
    body: request.body,
    headers: request.headers,
  };
}

async function runUserRoute(
  // biome-ignore lint/suspicious/noExplicitAny: see AnyRoute
  route: UserRouteDef<any, any, any>,
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  conventions: RouteConventions,
) {
  const claims = request.claims!;
  const after: Array<() => unknown> = [];
  const input = inputOf(request);
  const companyId = route.companyScoped ? request.companyIdHeader : undefined;
  const opening = isKeyClaims(claims)
    ? keyPrincipalQuery(claims, companyId)
    : principalQuery(claims, companyId);
  let principal: Principal | undefined;
  // Every check that needs the principal, in the catalogue's order, on the opening's rows.
  const check = async (rows: Array<PrincipalRow & KeyPrincipalRow>) => {
    const known: Principal = isKeyClaims(claims)
      ? keyPrincipalFromRow(rows[0], claims)
      : principalFromRow(rows[0], claims, deps.now());
    principal = known;
    await applyLimits(route, known, deps, request, reply);
    if (route.permission) {
      const [resource, action] = route.permission;
      if (!known.permissions.allows(resource, action)) throw new PermissionDenied(resource, action);
    }
    if (companyId && !rows[0]?.company_ok) throw notFound('Company');
    // A test key (bpk_test_) reaches the sandbox company only (test-keys.ts).
    assertTestKeyReach(known, route, rows[0]?.company_is_sandbox === true);
    // The sandbox is read-only while the plan lacks API access: one check for every write
    // route, read with the principal (company_is_sandbox) at no extra round trip.
    if (companyId && route.access === 'write' && rows[0]?.company_is_sandbox) {
      assertSandboxWritable(known.plan);
    }
  };
  const handle = async (tx: Tx, atCommit?: AtCommit) => {
    const ctx: TenantCtx = {
      ...baseCtx(deps, request, reply, after),
      db: tx,
      tenantId: claims.tid,
      get principal(): Principal {
        if (!principal) throw new Error(PRINCIPAL_NOT_YET_KNOWN);
        return principal;
      },
      companyId,
    };
    const out = conventions.around
      ? await conventions.around(input, ctx, () => route.handler(input, ctx))
      : await route.handler(input, ctx);
    // A replayed Idempotency-Key answer wrote nothing: no entry.
    if (route.access === 'write' && route.audit !== false && reply.statusCode < 300 && !wasReplayed(reply)) {
      const params = input.params as Record<string, unknown>;
      const resultId = (out as { id?: unknown } | null)?.id;
      const who = ctx.principal;
      // The entry goes with COMMIT, in its round trip.
      atCommit!(
        auditStatement(tx, claims.tid, {
          actorType: who.type,
          actorId: who.type === 'api_key' ? who.keyId : who.userId,
          action: `${route.method} ${route.path}`,
          resource: route.audit?.resource ?? route.module,
          resourceId: String(params.id ?? (typeof resultId === 'string' ? resultId : '')) || null,
          companyId: companyId ?? null,
          requestId: String(request.id),
          ip: request.ip,
          details: {
            params,
            body: route.module === 'payroll' ? fieldsOnly(input.body ?? null) : (input.body ?? null),
            status: reply.statusCode,
          },
        }),
      );
    }
    return out;
  };
  // A write route: one transaction, the principal (and the company check) in its opening
  // round trip, checked before the handler starts. A read route on PostgreSQL: the opening
  // rides with the handler's first query and is checked before that query's rows reach the
  // handler, and before anything is answered (withTenantReading); with principalFirst (and
  // on PGlite), a read-only transaction checked before the handler starts.
  const result =
    route.access === 'read'
      ? await withTenantReading(
          deps.database.db,
          deps.database.kind === 'pg' && !route.principalFirst,
          claims.tid,
          opening,
          check,
          handle,
        )
      : await withTenantOpening<PrincipalRow & KeyPrincipalRow, unknown>(
          deps.database.db,
          claims.tid,
          opening,
          async (tx, rows, atCommit) => {
            await check(rows);
            return handle(tx, atCommit);
          },
        );
  await runAfterCommit(request, after);
  return result;
}

async function runPublicRoute(
  // biome-ignore lint/suspicious/noExplicitAny: see AnyRoute
  route: PublicRouteDef<any, any, any>,
  deps: AppDeps,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const after: Array<() => unknown> = [];
  const ctx: PublicCtx = { ...baseCtx(deps, request, reply, after), root: deps.database.db };
  const result = await route.handler(inputOf(request), ctx);
  await runAfterCommit(request, after);
  return result;
}

/** Registers every route of the catalogue on the Fastify instance. */
export function registerRoutes(app: FastifyInstance, declared: AnyRoute[], deps: AppDeps) {
  const seen = new Set<string>();
  const routes = declared.map((route) => withEmptyPatch(route, declared));
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (seen.has(key)) throw new Error(`Route declared twice in the catalogue: ${key}`);
    seen.add(key);
  }
  const formRoutes = routes.filter((r) => r.consumes === FORM_CONTENT_TYPE);
  const binaryRoutes = routes.filter((r) => r.binaryBody);
  const multipartRoutes = routes.filter((r) => r.consumes === MULTIPART_CONTENT_TYPE);
  const conventionsOf = routeConventions(routes);
  for (const route of routes)
    if (!formRoutes.includes(route) && !binaryRoutes.includes(route) && !multipartRoutes.includes(route))
      addRoute(app, route, deps, conventionsOf(route));
  // Uploads with fields: @fastify/multipart only in the scope of the routes that declare it.
  if (multipartRoutes.length)
    app.register(async (scope) => {
      await multipartScope(scope, Math.max(...multipartRoutes.map((r) => r.bodyLimit ?? 0), 1024 * 1024));
      for (const route of multipartRoutes) addRoute(scope, route, deps, conventionsOf(route));
    });
  // A file body is read whole as bytes, only where a route declares its media types.
  for (const route of binaryRoutes)
    app.register(async (scope) => {
      scope.addContentTypeParser([...route.binaryBody!], { parseAs: 'buffer' }, (_request, body, done) => {
        done(null, body);
      });
      addRoute(scope, route, deps, conventionsOf(route));
    });
  // Form bodies are parsed only where a route declares them, in a scope of their own.
  app.register(async (scope) => {
    scope.addContentTypeParser(FORM_CONTENT_TYPE, { parseAs: 'string' }, (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    });
    for (const route of formRoutes) addRoute(scope, route, deps, conventionsOf(route));
  });
}

function addRoute(app: FastifyInstance, route: AnyRoute, deps: AppDeps, conventions: RouteConventions) {
  const status = successStatus(route);
  const onRequest = [];
  if (route.auth !== 'none') onRequest.push(makeAuthenticate(deps, route));
  if (route.companyScoped) onRequest.push(requireCompanyHeader);
  onRequest.push(...conventions.onRequest);
  const response: Record<number, TSchema> = {};
  if (!route.produces) Object.assign(response, route.response);
  app.route({
    method: route.method,
    url: toFastifyPath(route.path),
    ...(route.bodyLimit ? { bodyLimit: route.bodyLimit } : {}),
    schema: {
      ...(route.params ? { params: route.params } : {}),
      ...(route.query
        ? { querystring: route.query }
        : refusesUnknownInput(route.path)
          ? { querystring: NO_QUERY }
          : {}),
      ...(route.body ? { body: route.body } : {}),
      response,
    },
    onRequest,
    ...(route.bodyOptional
      ? {
          preValidation: async (request: { body: unknown }) => {
            request.body ??= {};
          },
        }
      : {}),
    ...(route.consumes === MULTIPART_CONTENT_TYPE
      ? {
          preValidation: readParts(fileFieldsOf(route.body), route.bodyLimit ?? 1024 * 1024),
          preHandler: attachFiles(fileFieldsOf(route.body)),
        }
      : {}),
    ...(route.oauthErrors ? { config: { oauthErrors: true } } : {}),
    ...(conventions.onSend.length ? { onSend: conventions.onSend } : {}),
    handler: async (request, reply) => {
      reply.code(status);
      const out =
        route.auth === 'none'
          ? await runPublicRoute(route, deps, request, reply)
          : await runUserRoute(route, deps, request, reply, conventions);
      if (reply.sent) return reply;
      conventions.answered(request, reply, out);
      if (reply.statusCode === 204) return reply.send();
      if (out instanceof FileResponse) {
        // Rendered after the commit: no transaction waits on a long PDF.
        const bytes = await out.render();
        reply.header('content-type', out.contentType);
        reply.header('content-disposition', out.contentDisposition);
        reply.header('x-content-type-options', 'nosniff');
        return reply.send(bytes);
      }
      return out;
    },
  });
}
