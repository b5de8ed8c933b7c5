// What a handler receives besides its parsed input.

import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Config } from '../../config.ts';
import type { Principal } from '../auth/principal.ts';
import type { Database } from '../db/connect.ts';
import type { DB } from '../db/schema.ts';
import type { Tx } from '../db/tenant.ts';
import type { EventDispatcher } from '../events/dispatcher.ts';
import type { ResolveAddresses } from '../events/target-addresses.ts';
import type { Jobs } from '../jobs/jobs.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { RateLimiter } from './rate-limit.ts';

/** Process-wide dependencies, built once in main.ts (or by a test). */
export interface AppDeps {
  config: Config;
  database: Database;
  /** SMTP, used by the job worker; a request e-mails with `sendMail(ctx, message)`. */
  mailer: Mailer;
  /**
   * The durable job worker. In a request, enqueue with `jobs.sendInTx(ctx.db, ...)`, so the
   * job exists exactly when the request commits.
   */
  jobs: Jobs;
  /** Drains the events outbox after commit (wired by app.ts; emit() kicks it). */
  events: EventDispatcher;
  /** The clock; tests move it. */
  now: () => Date;
  /** Creates a tenant's first company at registration (wired by app.ts to the companies module). */
  createFirstCompany(tx: Tx, tenantId: string, input: FirstCompany): Promise<string>;
  /** Whether the id names a live contact of the tenant (wired by app.ts to the contacts module). */
  isContact(tx: Tx, tenantId: string, contactId: string): Promise<boolean>;
  /** Resolves webhook host names (A and AAAA); the system's name servers when absent. */
  resolveHost?: ResolveAddresses;
  /** The rate limits' store and limiters (wired by app.ts, installed on the app by buildApp). */
  rateLimiter: RateLimiter;
  /**
   * Counts a call made with an API key against the key's per-minute limit, sets the
   * X-RateLimit headers, and throws a 429 past the limit. The catalogue calls it once the
   * key's scopes admit the call; user tokens never reach it.
   */
  meterKeyCall: (
    request: FastifyRequest,
    reply: FastifyReply,
    key: { id: string; limitPerMinute: number },
  ) => Promise<void>;
}

export interface FirstCompany {
  name: string;
  baseCurrency: string;
  vatRegistered: boolean;
  vatNumber: string | null;
}

export interface BaseCtx {
  deps: AppDeps;
  requestId: string;
  ip: string;
  userAgent: string | undefined;
  log: FastifyBaseLogger;
  reply: FastifyReply;
  /**
   * Runs after the request's transaction commits, in the request; never on rollback. Not for
   * e-mail or anything slow or that must survive a restart: queue a job with `sendInTx`.
   */
  afterCommit(fn: () => Promise<void> | void): void;
}

/** Routes that sign in someone: no tenant yet, the handler opens its own transaction. */
export interface PublicCtx extends BaseCtx {
  root: Kysely<DB>;
}

/** Every authenticated route: one transaction, tenant set, caller known. */
export interface TenantCtx extends BaseCtx {
  db: Tx;
  tenantId: string;
  principal: Principal;
  /** Set (and checked to exist in the tenant) on company-scoped routes. */
  companyId: string | undefined;
}

/** A company-scoped route's context: the catalogue has checked X-Company-Id names a company of the tenant. */
export interface CompanyCtx extends TenantCtx {
  companyId: string;
}
