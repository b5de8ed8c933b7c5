// buildApp(deps): the platform plugins, then every route of the catalogue.
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { catalogue } from './catalogue.ts';
import { insertCompany } from './modules/companies/index.ts';
import { registerRoutes } from './platform/http/catalogue.ts';
import type { AppDeps } from './platform/http/context.ts';
import { installErrorHandling } from './platform/http/error-handler.ts';

export const JSON_BODY_LIMIT = 1024 * 1024;

const REQUEST_ID = /^[\w.-]{1,64}$/;

export type DepsWithoutWiring = Omit<AppDeps, 'createFirstCompany'>;

/** Wires the cross-module hooks the platform calls without importing modules. */
export function wireDeps(deps: DepsWithoutWiring): AppDeps {
  return {
    ...deps,
    createFirstCompany: async (tx, tenantId, c) => {
      const id = crypto.randomUUID();
      await insertCompany(tx, tenantId, { id, ...c }, deps.now().toISOString().slice(0, 10));
      return id;
    },
  };
}

export async function buildApp(
  deps: AppDeps,
  options: { logger?: boolean | object; loggerInstance?: FastifyBaseLogger } = {},
): Promise<FastifyInstance> {
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
    ajv: { customOptions: { allErrors: false } },
  });
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandling(app);
  registerRoutes(app, catalogue, deps);
  return app;
}
