// buildApp(deps): the platform plugins, then every route of the catalogue.
import AjvCompiler from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from 'fastify';
import { catalogue } from './catalogue.ts';
import { insertCompany } from './modules/companies/index.ts';
import { contactName } from './modules/contacts/index.ts';
import { openApiDocument } from './openapi-document.ts';
import { createEventDispatcher } from './platform/events/dispatcher.ts';
import { type AnyRoute, registerRoutes } from './platform/http/catalogue.ts';
import type { AppDeps } from './platform/http/context.ts';
import { registerCors } from './platform/http/cors.ts';
import { installErrorHandling, MAX_PARAM_LENGTH, sendFrameworkError } from './platform/http/error-handler.ts';
import { installInputRules, withInputRules } from './platform/http/input-rules.ts';
import { lazySerializer, lazyValidator } from './platform/http/lazy-compilers.ts';
import { observeResponses } from './platform/http/observed-responses.ts';
import { registerPlayground } from './platform/http/playground.ts';
import { createRateLimiter } from './platform/http/rate-limit.ts';
import { registerWorkers } from './workers.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;

/** Where the OpenAPI document is served (a catalogue route); the playground renders it. */
export const OPENAPI_PATH = '/api-docs/openapi.json';

const REQUEST_ID = /^[\w.-]{1,64}$/;

export type DepsWithoutWiring = Omit<
  AppDeps,
  'createFirstCompany' | 'isContact' | 'rateLimiter' | 'meterKeyCall' | 'events'
>;

/** Wires the cross-module hooks the platform calls without importing modules. */
export function wireDeps(deps: DepsWithoutWiring): AppDeps {
  // One limiter per app: buildApp installs it (the store, Redis or memory, lives with the app).
  const rateLimiter = createRateLimiter(deps.config);
  return {
    ...deps,
    rateLimiter,
    meterKeyCall: rateLimiter.meterKeyCall,
    events: createEventDispatcher(deps),
    createFirstCompany: async (tx, tenantId, c) => {
      const id = crypto.randomUUID();
      await insertCompany(tx, tenantId, { id, ...c }, deps.now().toISOString().slice(0, 10));
      return id;
    },
    isContact: async (tx, tenantId, contactId) =>
      (await contactName({ db: tx, tenantId }, contactId)) !== undefined,
  };
}

/**
 * Validators that coerce types in the query string, path and headers (which arrive as text)
 * but never in a JSON body: there a string is not a number and null is not "" or 0 (ajv's
 * coercion would turn `"reference": null` into "" and `"amount": "100"` into 100).
 */
function strictBodies(when: CompileSchemas): AjvCompiler.ValidatorFactory {
  const pool = AjvCompiler();
  const factory: AjvCompiler.BuildCompilerFromPool = (externalSchemas, options) => {
    // Both validators know the rules every input string follows (input-rules.ts).
    const withRules = { ...options, onCreate: installInputRules } as typeof options;
    const coercing = pool(externalSchemas, withRules);
    const strict = pool(externalSchemas, {
      ...withRules,
      customOptions: { ...(options?.customOptions as object), coerceTypes: false },
    } as typeof options);
    // Fastify calls the compiler with the route's definition, httpPart included; each schema
    // is compiled as a copy that carries the input rules on every string.
    const compile = (route: { httpPart?: string; schema: unknown }) =>
      (route.httpPart === 'body' ? strict : coercing)({
        ...route,
        schema: withInputRules(route.schema, route.httpPart),
      } as never);
    return ((route: { httpPart?: string; schema: unknown }) =>
      when === 'at-start'
        ? compile(route)
        : lazyValidator(() => compile(route))) as unknown as typeof coercing;
  };
  return factory;
}

/** fast-json-stringify's serializers (Fastify's own default), built at start or on first use. */
function serializers(when: CompileSchemas) {
  const selector = SerializerSelector();
  return (externalSchemas: unknown, options: unknown) => {
    const build = selector(externalSchemas as never, options as never);
    return (route: Parameters<typeof build>[0]) =>
      when === 'at-start' ? build(route) : lazySerializer(() => build(route));
  };
}

/** When route schemas are compiled: at start (the service), or when first used (tests). */
export type CompileSchemas = 'at-start' | 'on-first-use';

/** One log line per request, when it is answered, instead of Fastify's two (measured: bench/README.md). */
class OneLinePerRequest extends LogController {
  override incomingRequest() {}

  override requestCompleted(error: Error | null, request: FastifyRequest, reply: FastifyReply) {
    const line = { req: request, res: reply, responseTime: reply.elapsedTime };
    if (error) reply.log.error({ ...line, err: error }, 'request errored');
    else reply.log.info(line, 'request completed');
  }
}

export interface BuildOptions {
  logger?: boolean | object;
  /** A ready logger (tests capture its output); takes precedence over `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Routes registered after the catalogue's; tests use them (e.g. a route that throws). */
  routes?: AnyRoute[];
  /** Sees every route Fastify registers, before any is added; tests compare them with OpenAPI. */
  onRoute?: (route: RouteOptions) => void;
  /** 'at-start' unless given (lazy-compilers.ts says why tests compile on first use). */
  compileSchemas?: CompileSchemas;
}

export async function buildApp(deps: AppDeps, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.loggerInstance
      ? { loggerInstance: options.loggerInstance }
      : { logger: options.logger ?? false }),
    bodyLimit: JSON_BODY_LIMIT,
    trustProxy: true,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : crypto.randomUUID();
    },
    // Every failing field is answered at once (a form shows them all); unknown properties are
    // refused, not silently removed (strict-input.ts closes the schemas).
    ajv: { customOptions: { allErrors: true, removeAdditional: false } },
    logController: new OneLinePerRequest(),
    // The router's own refusals (a bad % escape, a parameter too long) are problems too.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors: sendFrameworkError,
    schemaController: {
      compilersFactory: {
        buildValidator: strictBodies(options.compileSchemas ?? 'at-start'),
        buildSerializer: serializers(options.compileSchemas ?? 'at-start'),
      },
    },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  if (options.onRoute) app.addHook('onRoute', options.onRoute);
  // Test instrumentation: `npm test` records every answer to check it against the document.
  const observed = process.env.OBSERVED_RESPONSES_DIR;
  if (observed) observeResponses(app, observed, () => openApiDocument(deps.config.publicBaseUrl));
  installErrorHandling(app);
  await registerCors(app, deps.config.corsOrigins);
  // Before the routes: the address limit attaches itself to each /auth/ route as it is added.
  await deps.rateLimiter.install(app);
  registerRoutes(app, [...catalogue, ...(options.routes ?? [])], deps);
  await registerPlayground(app, OPENAPI_PATH);
  await registerWorkers(deps);
  // The outbox's sweep (in a process whose worker runs); the pass in flight ends before close.
  deps.events.start(app.log);
  app.addHook('onClose', () => deps.events.stop());
  return app;
}
