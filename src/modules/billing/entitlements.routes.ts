// GET /api/tenant/entitlements: what the business's plan gives, for a client to show or
// hide modules and offer an upgrade.
import { Type } from 'typebox';
import { Plan } from '../../platform/auth/auth.schemas.ts';
import { MODULES } from '../../platform/auth/permissions.ts';
import { modulesOf, PLAN_TABLE } from '../../platform/auth/plans.ts';
import { DEFAULT_KEY_RATE_LIMIT } from '../../platform/auth/principal.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { stringEnum } from '../../platform/http/enums.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { named } from '../../platform/http/schema-names.ts';
import { BUILT, isBuilt, MODULE_STATUSES, statusOf } from './module-status.ts';

export const ModuleName = named(
  'ModuleName',
  stringEnum(MODULES, {
    description: 'A module a plan may include (the scopes are <module>:read and :write)',
  }),
);

const ModuleStatus = named(
  'ModuleStatus',
  stringEnum(MODULE_STATUSES, {
    description:
      'available: in the plan and built; not_licensed: built, not in the plan (an upgrade adds it); ' +
      'not_built: not in this service yet, whatever the plan',
  }),
);

const ModuleAvailability = named(
  'ModuleAvailability',
  Type.Object({
    module: ModuleName,
    licensed: Type.Boolean({ description: "In the business's plan" }),
    built: Type.Boolean({
      description: 'Built in this service: false means its routes do not exist yet, whatever the plan says',
    }),
    status: ModuleStatus,
    note: nullable(Type.String(), {
      description: 'What of a built module is built, when not all of it; else null',
    }),
  }),
);

const Entitlements = named(
  'Entitlements',
  Type.Object({
    plan: Plan,
    modules: Type.Array(ModuleName, {
      description: 'The modules the plan includes (some may not be built yet: see catalogue)',
    }),
    catalogue: Type.Array(ModuleAvailability, {
      description:
        'Every module, in a fixed order, with whether the plan includes it and whether it is built',
    }),
    limits: Type.Object({
      companies: nullable(Type.Integer(), {
        description: 'Companies allowed, the sandbox excluded; null for unlimited',
      }),
      apiKeys: Type.Integer({ description: 'Unrevoked API keys allowed' }),
      rateLimitPerMinute: Type.Integer({
        description: "An API key's calls a minute unless the key sets its own",
      }),
    }),
  }),
);

export const entitlementRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/tenant/entitlements',
    operationId: 'getEntitlements',
    tag: 'Tenant',
    module: 'billing',
    access: 'read',
    // The handler needs who is asking before it reads anything.
    principalFirst: true,
    permission: null,
    anyKey: true,
    summary: "The business's plan, its modules and its limits, and which modules are built",
    description:
      'Any signed-in user, and any API key whatever its scopes, may read it. modules lists what the plan ' +
      'includes; catalogue lists every module with licensed, built and status, so a client offers only ' +
      'modules that exist; a built module may carry a note of what of it is not built yet.',
    response: { 200: Entitlements },
    handler: async (_input, ctx) => {
      const plan = ctx.principal.plan;
      const licensed = modulesOf(plan);
      return {
        plan,
        modules: MODULES.filter((m) => licensed.has(m)),
        catalogue: MODULES.map((m) => ({
          module: m,
          licensed: licensed.has(m),
          built: isBuilt(m),
          status: statusOf(m, licensed.has(m)),
          note: BUILT[m] ?? null,
        })),
        limits: {
          companies: PLAN_TABLE[plan].companies,
          apiKeys: PLAN_TABLE[plan].apiKeys,
          rateLimitPerMinute: DEFAULT_KEY_RATE_LIMIT,
        },
      };
    },
  }),
];
