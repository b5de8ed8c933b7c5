// GET /api/tenant/entitlements: what the business's plan gives, for a client to show or
// hide modules and offer an upgrade.
import { Type } from 'typebox';
import { MODULES } from '../../platform/auth/permissions.ts';
import { modulesOf, PLAN_TABLE } from '../../platform/auth/plans.ts';
import { DEFAULT_KEY_RATE_LIMIT } from '../../platform/auth/principal.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { nullable } from '../../platform/http/nullable.ts';

const Entitlements = Type.Object({
  plan: Type.String(),
  modules: Type.Array(Type.String()),
  limits: Type.Object({
    companies: nullable(Type.Integer(), {
      description: 'Companies allowed, the sandbox excluded; null for unlimited',
    }),
    apiKeys: Type.Integer({ description: 'Unrevoked API keys allowed' }),
    rateLimitPerMinute: Type.Integer({
      description: "An API key's calls a minute unless the key sets its own",
    }),
  }),
});

export const entitlementRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/tenant/entitlements',
    module: 'billing',
    access: 'read',
    // The handler needs who is asking before it reads anything.
    principalFirst: true,
    permission: null,
    anyKey: true,
    summary: "The business's plan, its modules and its limits",
    description: 'Any signed-in user, and any API key whatever its scopes, may read it.',
    response: { 200: Entitlements },
    handler: async (_input, ctx) => {
      const plan = ctx.principal.plan;
      const licensed = modulesOf(plan);
      return {
        plan,
        modules: MODULES.filter((m) => licensed.has(m)),
        limits: {
          companies: PLAN_TABLE[plan].companies,
          apiKeys: PLAN_TABLE[plan].apiKeys,
          rateLimitPerMinute: DEFAULT_KEY_RATE_LIMIT,
        },
      };
    },
  }),
];
