// The work context: what a module's service needs of whoever drives it. A request is one (the
// catalogue's TenantCtx), and so is a job acting for a tenant (a recurring run, the monthly
// roll) with the system as the actor. One shape for every module, so that no module borrows
// another's context type; the company context is the same with the company known, as the
// catalogue hands it to company-scoped routes.
import type { Principal } from '../auth/principal.ts';
import { dayOf } from '../dates/days.ts';
import type { Tx } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';

/** The service itself acting for the tenant (a scheduled job): neither a person nor a key. */
export interface SystemActor {
  type: 'system';
}

/** Who acts: a user, an API key, or the system. */
export type Actor = Principal | SystemActor;

/** The system as the actor, for jobs. */
export const SYSTEM: SystemActor = Object.freeze({ type: 'system' });

/**
 * The tenant's transaction, the company (on company-scoped work), the process's dependencies and
 * who acts (the ledger records the poster). No HTTP reply: routes answer from what a service says
 * it did.
 */
export interface WorkCtx {
  db: Tx;
  tenantId: string;
  companyId: string | undefined;
  deps: AppDeps;
  principal: Actor;
}

/** Work for one company: the catalogue checked X-Company-Id names a company of the tenant. */
export interface CompanyWorkCtx extends WorkCtx {
  companyId: string;
}

/**
 * The company of company-scoped work. Its absence is a programming error (a route that should
 * be declared companyScoped, a job that forgot it), never the caller's: a 500.
 */
export function companyOf(ctx: { companyId: string | undefined }): string {
  if (!ctx.companyId) throw new Error('company-scoped work was given no company');
  return ctx.companyId;
}

/** Today (UTC) by the process's clock, which tests move. */
export function today(ctx: { deps: { now(): Date } }): string {
  return dayOf(ctx.deps.now());
}
