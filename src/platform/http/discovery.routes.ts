// Liveness, diagnostics and the OpenAPI document: readable without signing in.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from './catalogue.ts';
import {
  callerOf,
  DiagnosticsDetail,
  DiagnosticsSummary,
  diagnose,
  mayReadDetail,
  summarise,
} from './diagnostics.ts';
import { stringEnum } from './enums.ts';
import { documentText } from './openapi.ts';
import { named } from './schema-names.ts';

export const Health = named('Health', Type.Object({ status: stringEnum(['ok'] as const) }));

const tag = 'Service';

/** The discovery routes; the OpenAPI route answers the document `describe` builds (once). */
export function discoveryRoutes(describe: (serverUrl: string) => unknown): AnyRoute[] {
  let cached: string | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      module: 'platform',
      access: 'read',
      auth: 'none',
      operationId: 'getHealth',
      tag,
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
      security: 'optionalBearer',
      operationId: 'getDiagnostics',
      tag,
      summary:
        "Each dependency up, down or not configured; with an administrator's token, the configuration behind it",
      description:
        'Without a token (the readiness probe): `status` (`degraded` when a configured dependency is down) and ' +
        '`{ status: "up" | "down" | "not_configured" }` for the database, e-mail, WhatsApp, the job queue, ' +
        'webhook delivery and the rate-limit store (DiagnosticsSummary). With the bearer token of an ' +
        'administrator (a user whose role holds admin:manage, or a key whose scopes admit admin:read and whose ' +
        'role holds admin:manage), the same with the configuration behind each state (DiagnosticsDetail): the ' +
        'database kind and round trip, the e-mail note, whether this process runs jobs, whether private ' +
        'webhook targets are admitted, where rate limits are counted. Any other token, an expired or revoked ' +
        'one included, gets the short form: the token only unlocks detail.',
      response: { 200: Type.Union([DiagnosticsDetail, DiagnosticsSummary]) },
      handler: async ({ headers }, ctx) => {
        // One after the other: the database's round trip is measured alone.
        const caller = await callerOf(ctx, headers.authorization);
        const detail = await diagnose(ctx);
        return caller && mayReadDetail(caller) ? detail : summarise(detail);
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/api-docs/openapi.json',
      module: 'platform',
      access: 'read',
      auth: 'none',
      operationId: 'getOpenApiDocument',
      tag,
      summary: 'This OpenAPI 3.1 description, generated from the route catalogue',
      response: { 200: Type.Object({}, { additionalProperties: true }) },
      produces: 'application/json',
      handler: async (_input, ctx) => {
        cached ??= documentText(describe(ctx.deps.config.publicBaseUrl));
        ctx.reply.type('application/json; charset=utf-8');
        return cached;
      },
    }),
  ];
}
