// The dashboard checklist of one company: what is done and what is left to set up.
// Each later module adds its own steps here (bank account, first invoice, ...).

import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { companyOf } from '../../platform/work/context.ts';

const Step = named(
  'SetupStep',
  Type.Object({
    key: Type.String(),
    label: Type.String(),
    done: Type.Boolean(),
  }),
);

const SetupProgress = named(
  'SetupProgress',
  Type.Object({
    companyId: Uuid,
    steps: Type.Array(Step),
    done: Type.Integer(),
    total: Type.Integer(),
    percent: Type.Integer({ minimum: 0, maximum: 100 }),
  }),
);

async function setupProgress(ctx: TenantCtx) {
  const companyId = companyOf(ctx);
  const company = await ctx.db
    .selectFrom('companies')
    .select(['trade_name'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  const people = await ctx.db
    .selectFrom('users')
    .select((eb) => [
      eb.fn.countAll<number>().as('users'),
      eb.fn.count<number>('id').filterWhere('totp_enabled', '=', true).as('with2fa'),
    ])
    .where('tenant_id', '=', ctx.tenantId)
    .where('active', '=', true)
    .executeTakeFirstOrThrow();
  const steps = [
    { key: 'company-details', label: 'Add your trading name', done: Boolean(company.trade_name) },
    { key: 'invite-team', label: 'Invite your team or your accountant', done: Number(people.users) > 1 },
    { key: 'two-factor', label: 'Turn on two-factor sign-in', done: Number(people.with2fa) > 0 },
  ];
  const done = steps.filter((s) => s.done).length;
  return { companyId, steps, done, total: steps.length, percent: Math.round((done / steps.length) * 100) };
}

export const setupProgressRoutes: AnyRoute[] = [
  defineRoute({
    method: 'GET',
    path: '/api/setup-progress',
    operationId: 'getSetupProgress',
    tag: 'Tenant',
    module: 'billing',
    access: 'read',
    permission: ['billing', 'read'],
    companyScoped: true,
    summary: 'The dashboard checklist of the company named by X-Company-Id',
    response: { 200: SetupProgress },
    handler: async (_input, ctx) => setupProgress(ctx),
  }),
];
