// Liveness, diagnostics and the OpenAPI document: readable without signing in.
import { sql } from 'kysely';
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from './catalogue.ts';
import { buildOpenApi } from './openapi.ts';

const Health = Type.Object({ status: Type.Literal('ok') });

const Diagnostics = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('degraded')]),
  database: Type.Object({
    status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    kind: Type.Union([Type.Literal('embedded'), Type.Literal('postgresql')]),
    latencyMs: Type.Optional(Type.Number()),
  }),
  email: Type.Object({ configured: Type.Boolean(), note: Type.String() }),
  whatsapp: Type.Object({ configured: Type.Boolean() }),
  webhooks: Type.Object({ privateTargetsAllowed: Type.Boolean() }),
  jobs: Type.Object({
    status: Type.Union([Type.Literal('running'), Type.Literal('stopped')]),
    /** true: this process runs queued jobs; false: it only enqueues them (JOBS_WORKER=0). */
    worker: Type.Boolean(),
  }),
  rateLimits: Type.Object({
    store: Type.Union([Type.Literal('memory'), Type.Literal('redis')]),
    /** true: every process counts in one Redis; false: each process counts on its own. */
    shared: Type.Boolean(),
    status: Type.Union([Type.Literal('up'), Type.Literal('down')]),
    note: Type.String(),
  }),
});

/** The discovery routes; the OpenAPI route describes the whole catalogue it is given. */
export function discoveryRoutes(catalogue: () => AnyRoute[]): AnyRoute[] {
  let cached: unknown;
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      module: 'platform',
      access: 'read',
      auth: 'none',
      summary: 'Liveness probe',
      response: { 200: Health },
      handler: async () => ({ status: 'ok' as const }),
    }),
    defineRoute({
      method: 'GET',
      path: '/diagnostics',
      module: 'platform',
      access: 'read',
      auth: 'none',
      summary:
        'Database status, the job worker, where rate limits are counted, and whether e-mail and WhatsApp are configured',
      response: { 200: Diagnostics },
      handler: async (_input, ctx) => {
        const started = performance.now();
        let up = true;
        try {
          await sql`select 1`.execute(ctx.root);
        } catch {
          up = false;
        }
        const { config, mailer, database, rateLimiter, jobs } = ctx.deps;
        const jobStatus = jobs.status();
        const limits = await rateLimiter.status();
        const limitsUp = limits.store === 'memory' || limits.status === 'up';
        return {
          status: up && limitsUp ? ('ok' as const) : ('degraded' as const),
          database: {
            status: up ? ('up' as const) : ('down' as const),
            kind: database.kind === 'pg' ? ('postgresql' as const) : ('embedded' as const),
            ...(up ? { latencyMs: Math.round((performance.now() - started) * 100) / 100 } : {}),
          },
          email: {
            configured: mailer.configured,
            note: mailer.configured
              ? 'Sent over SMTP_URL'
              : 'SMTP_URL is not set: e-mails are kept in the database and the log, not sent',
          },
          whatsapp: { configured: config.whatsappConfigured },
          webhooks: { privateTargetsAllowed: config.webhookAllowPrivateTargets },
          jobs: {
            status: jobStatus.started ? ('running' as const) : ('stopped' as const),
            worker: jobStatus.started && config.jobsWorker,
          },
          rateLimits: {
            store: limits.store,
            shared: limits.shared,
            status: limitsUp ? ('up' as const) : ('down' as const),
            note:
              limits.store === 'memory'
                ? 'REDIS_URL is not set: each process counts its own calls'
                : limitsUp
                  ? 'Counted in Redis, shared by every process'
                  : 'Redis does not answer: calls go uncounted until it is back',
          },
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api-docs/openapi.json',
      module: 'platform',
      access: 'read',
      auth: 'none',
      summary: 'This OpenAPI 3.1 description, generated from the route catalogue',
      response: { 200: Type.Object({}, { additionalProperties: true }) },
      produces: 'application/json',
      handler: async (_input, ctx) => {
        cached ??= buildOpenApi(catalogue(), ctx.deps.config.publicBaseUrl);
        return cached;
      },
    }),
  ];
}
