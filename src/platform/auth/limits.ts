// The plan and scope limits of a call (the spec's "three limits, the narrowest wins"; the
// third, the role, is the catalogue's permission check applied to the acting role).
import type { Plan } from '../../config.ts';
import { HttpError } from '../http/problem.ts';
import { MODULES, type ModuleName, type RouteModule } from './permissions.ts';
import { modulesOf, PLAN_TABLE } from './plans.ts';
import { scopeNeeded, scopesAllow } from './scopes.ts';

export const MODULE_NOT_LICENSED = 'MODULE_NOT_LICENSED';
export const INSUFFICIENT_SCOPE = 'INSUFFICIENT_SCOPE';
export const PLAN_HAS_NO_API_KEYS = 'PLAN_HAS_NO_API_KEYS';
export const PLAN_HAS_NO_WEBHOOKS = 'PLAN_HAS_NO_WEBHOOKS';
export const PLAN_HAS_NO_SANDBOX = 'PLAN_HAS_NO_SANDBOX';
export const SANDBOX_READ_ONLY = 'SANDBOX_READ_ONLY';

/** Sign-in ('auth') and the service's own endpoints ('platform') are no licensed module. */
export function licensedModule(module: RouteModule): ModuleName | undefined {
  return (MODULES as readonly string[]).includes(module) ? (module as ModuleName) : undefined;
}

/** 403 MODULE_NOT_LICENSED when the tenant's plan does not include the route's module. */
export function assertModuleLicensed(plan: Plan, module: RouteModule) {
  const licensed = licensedModule(module);
  if (licensed && !modulesOf(plan).has(licensed)) {
    throw new HttpError(403, `The ${plan} plan does not include the ${licensed} module; upgrade to use it`, {
      code: MODULE_NOT_LICENSED,
    });
  }
}

/** A plan without API keys (free, starter) neither creates keys nor admits their tokens. */
export function assertPlanHasApiKeys(plan: Plan) {
  if (PLAN_TABLE[plan].apiKeys === 0) {
    throw new HttpError(403, `The ${plan} plan does not include API keys; upgrade to Business or above`, {
      code: PLAN_HAS_NO_API_KEYS,
    });
  }
}

/** Webhooks come with API access (DECISIONS.md's plan table): Business and above. */
export function assertPlanHasWebhooks(plan: Plan) {
  if (PLAN_TABLE[plan].apiKeys === 0) {
    throw new HttpError(403, `The ${plan} plan does not include webhooks; upgrade to Business or above`, {
      code: PLAN_HAS_NO_WEBHOOKS,
    });
  }
}

/** API access (keys, webhooks, the sandbox) comes with Business and above. */
export function planHasApiAccess(plan: Plan): boolean {
  return PLAN_TABLE[plan].apiKeys > 0;
}

/** The sandbox is offered on plans that include API keys (the spec): Business and above. */
export function assertPlanHasSandbox(plan: Plan) {
  if (!planHasApiAccess(plan)) {
    throw new HttpError(403, `The ${plan} plan does not include the sandbox; upgrade to Business or above`, {
      code: PLAN_HAS_NO_SANDBOX,
    });
  }
}

/**
 * A write naming the sandbox (X-Company-Id) while the plan lacks API access: the sandbox is
 * read-only then (it may still be read and deleted) and takes writes again when access returns.
 */
export function assertSandboxWritable(plan: Plan) {
  if (!planHasApiAccess(plan)) {
    throw new HttpError(
      403,
      `The sandbox is read-only while the ${plan} plan lacks API access; it can be read and deleted, ` +
        'and takes writes again on Business or above',
      { code: SANDBOX_READ_ONLY },
    );
  }
}

/** 403 INSUFFICIENT_SCOPE naming the scope the call needs. */
export function assertScope(granted: readonly string[], module: RouteModule, access: 'read' | 'write') {
  const licensed = licensedModule(module);
  if (!licensed || scopesAllow(granted, licensed, access)) return;
  const scope = scopeNeeded(licensed, access);
  throw new HttpError(403, `The API key lacks the scope ${scope}`, { code: INSUFFICIENT_SCOPE, scope });
}
