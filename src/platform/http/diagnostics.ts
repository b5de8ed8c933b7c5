// GET /diagnostics: what a load balancer or an uptime monitor needs, without a token (each
// dependency up, down or not configured), and the configuration behind it for a business's
// administrator. The detail says how the deployment is set up (the database kind, where rate
// limits are counted, whether private webhook targets are admitted, whether this process runs
// jobs): none of it is a secret, but none of it is the whole internet's business either.
//
// Who sees the detail: a signed-in user whose role holds admin:manage (owner, admin, or a custom
// role with it), or a key's token whose scopes admit admin:read (admin:read, admin:write, full)
// and whose acting role holds admin:manage: the three limits of every key call. Anyone else, a
// token that is not valid included, gets the short form (200, like a caller without a token):
// the token only unlocks detail, the probe itself never fails on it.
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { planHasApiAccess } from '../auth/limits.ts';
import {
  type KeyPrincipalRow,
  keyPrincipalFromRow,
  keyPrincipalQuery,
  type Principal,
  type PrincipalRow,
  principalFromRow,
  principalQuery,
} from '../auth/principal.ts';
import { scopesAllow } from '../auth/scopes.ts';
import { isKeyClaims, verifyAccessToken } from '../auth/tokens.ts';
import { withTenantOpening } from '../db/tenant.ts';
import type { PublicCtx } from './context.ts';
import { stringEnum } from './enums.ts';
import { named } from './schema-names.ts';

export const DependencyState = named(
  'DependencyState',
  stringEnum(['up', 'down', 'not_configured'] as const, {
    description:
      '`up`: answering (or, for e-mail and WhatsApp, configured). `down`: configured but not answering. ' +
      '`not_configured`: the setting is absent (e.g. no SMTP_URL: e-mails are kept, not sent).',
  }),
);

export const ServiceStatus = named(
  'ServiceStatus',
  stringEnum(['ok', 'degraded'] as const, {
    description: '`degraded` when a configured dependency is `down`',
  }),
);

const State = Type.Object({ status: DependencyState });

/** The dependencies, in the order they are answered. */
const DEPENDENCIES = ['database', 'email', 'whatsapp', 'jobs', 'webhooks', 'rateLimits'] as const;
type Dependency = (typeof DEPENDENCIES)[number];

export const DiagnosticsSummary = named(
  'DiagnosticsSummary',
  Type.Object(
    {
      status: ServiceStatus,
      ...(Object.fromEntries(DEPENDENCIES.map((d) => [d, State])) as Record<Dependency, typeof State>),
    },
    { description: 'Each dependency up, down or not configured: what anyone may read' },
  ),
);

export const DiagnosticsDetail = named(
  'DiagnosticsDetail',
  Type.Object(
    {
      status: ServiceStatus,
      database: Type.Object({
        status: DependencyState,
        kind: stringEnum(['embedded', 'postgresql'] as const),
        latencyMs: Type.Optional(Type.Number({ description: 'Round trip of `select 1`, when up' })),
      }),
      email: Type.Object({
        status: DependencyState,
        configured: Type.Boolean(),
        note: Type.String(),
      }),
      whatsapp: Type.Object({ status: DependencyState, configured: Type.Boolean() }),
      jobs: Type.Object({
        status: DependencyState,
        worker: Type.Boolean({
          description: 'true: this process runs queued jobs; false: it only enqueues them (JOBS_WORKER=0)',
        }),
      }),
      webhooks: Type.Object({
        status: DependencyState,
        privateTargetsAllowed: Type.Boolean({
          description:
            'WEBHOOK_ALLOW_PRIVATE_TARGETS=1: http:// and loopback targets admitted (development only)',
        }),
      }),
      rateLimits: Type.Object({
        status: DependencyState,
        store: stringEnum(['memory', 'redis'] as const),
        shared: Type.Boolean({
          description: 'true: every process counts in one Redis; false: each process counts on its own',
        }),
        note: Type.String(),
      }),
    },
    { description: "The short form's states with the configuration behind them: for an administrator" },
  ),
);

type Detail = Static<typeof DiagnosticsDetail>;
type Summary = Static<typeof DiagnosticsSummary>;

/** Probes every dependency and says how each is set up. */
export async function diagnose(ctx: PublicCtx): Promise<Detail> {
  const started = performance.now();
  let dbUp = true;
  try {
    await sql`select 1`.execute(ctx.root);
  } catch {
    dbUp = false;
  }
  const latencyMs = Math.round((performance.now() - started) * 100) / 100;
  const { config, mailer, database, rateLimiter, jobs } = ctx.deps;
  const jobsUp = jobs.status().started;
  const limits = await rateLimiter.status();
  const limitsUp = limits.store === 'memory' || limits.status === 'up';
  const upDown = (up: boolean) => (up ? ('up' as const) : ('down' as const));
  const detail: Detail = {
    status: 'ok',
    database: {
      status: upDown(dbUp),
      kind: database.kind === 'pg' ? 'postgresql' : 'embedded',
      ...(dbUp ? { latencyMs } : {}),
    },
    email: {
      status: mailer.configured ? 'up' : 'not_configured',
      configured: mailer.configured,
      note: mailer.configured
        ? 'Sent over SMTP_URL'
        : 'SMTP_URL is not set: e-mails are kept in the database and the log, not sent',
    },
    whatsapp: {
      status: config.whatsappConfigured ? 'up' : 'not_configured',
      configured: config.whatsappConfigured,
    },
    // Deliveries and e-mails go through the job queue: it is up once started.
    jobs: { status: upDown(jobsUp), worker: jobsUp && config.jobsWorker },
    webhooks: { status: upDown(jobsUp && dbUp), privateTargetsAllowed: config.webhookAllowPrivateTargets },
    rateLimits: {
      status: upDown(limitsUp),
      store: limits.store,
      shared: limits.shared,
      note:
        limits.store === 'memory'
          ? 'REDIS_URL is not set: each process counts its own calls'
          : limitsUp
            ? 'Counted in Redis, shared by every process'
            : 'Redis does not answer: calls go uncounted until it is back',
    },
  };
  detail.status = DEPENDENCIES.some((d) => detail[d].status === 'down') ? 'degraded' : 'ok';
  return detail;
}

/** Only the states. */
export function summarise(detail: Detail): Summary {
  const states = Object.fromEntries(DEPENDENCIES.map((d) => [d, { status: detail[d].status }]));
  return { status: detail.status, ...states } as Summary;
}

/** Whether this caller may see the configuration detail: an administrator (see the top). */
export function mayReadDetail(principal: Principal): boolean {
  if (!principal.permissions.allows('admin', 'manage')) return false;
  if (principal.type === 'user') return true;
  return planHasApiAccess(principal.plan) && scopesAllow(principal.scopes, 'admin', 'read');
}

/** The caller the bearer token names, read as every request reads it; undefined when none or not valid. */
export async function callerOf(
  ctx: PublicCtx,
  authorization: string | undefined,
): Promise<Principal | undefined> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (!token) return undefined;
  const now = ctx.deps.now();
  const verified = await verifyAccessToken(ctx.deps.config.jwtSecret, token, now.getTime());
  if (!verified.ok) return undefined;
  const claims = verified.claims;
  try {
    const query = isKeyClaims(claims) ? keyPrincipalQuery(claims) : principalQuery(claims);
    const row = await withTenantOpening<PrincipalRow & KeyPrincipalRow, PrincipalRow & KeyPrincipalRow>(
      ctx.root,
      claims.tid,
      query,
      async (_tx, rows) => rows[0]!,
    );
    return isKeyClaims(claims) ? keyPrincipalFromRow(row, claims) : principalFromRow(row, claims, now);
  } catch {
    // A revoked session or key, a deactivated person: no detail, and no error either.
    return undefined;
  }
}
