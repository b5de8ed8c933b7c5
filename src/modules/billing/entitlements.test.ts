// GET /api/tenant/entitlements per plan, and GET /api-scopes.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { MODULES } from '../../platform/auth/permissions.ts';
import { addMember } from '../../platform/auth/users.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(() => t.close());

const EXPECTED: Record<string, { modules: string[]; companies: number | null; apiKeys: number }> = {
  free: {
    modules: ['contacts', 'invoices', 'banking', 'reports', 'admin', 'companies', 'billing'],
    companies: 1,
    apiKeys: 0,
  },
  starter: {
    modules: [
      'contacts',
      'invoices',
      'banking',
      'reports',
      'admin',
      'companies',
      'crm',
      'expenses',
      'timetracking',
      'jobcards',
      'billing',
    ],
    companies: 1,
    apiKeys: 0,
  },
  business: {
    modules: [
      'contacts',
      'invoices',
      'banking',
      'reports',
      'admin',
      'companies',
      'crm',
      'expenses',
      'timetracking',
      'jobcards',
      'inventory',
      'transactions',
      'billing',
    ],
    companies: 3,
    apiKeys: 5,
  },
  professional: {
    modules: MODULES.filter((m) => !['manufacturing', 'logistics', 'consolidation'].includes(m)),
    companies: 5,
    apiKeys: 10,
  },
  manufacturing: { modules: MODULES.filter((m) => m !== 'consolidation'), companies: 10, apiKeys: 20 },
  enterprise: { modules: [...MODULES], companies: null, apiKeys: 100 },
};

for (const [plan, want] of Object.entries(EXPECTED)) {
  test(`entitlements of the ${plan} plan`, async () => {
    const a = await register(t.app, { plan });
    const res = await as(t.app, a.token)({ method: 'GET', url: '/api/tenant/entitlements' });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), {
      plan,
      modules: [...want.modules].sort((x, y) => MODULES.indexOf(x as never) - MODULES.indexOf(y as never)),
      limits: { companies: want.companies, apiKeys: want.apiKeys, rateLimitPerMinute: 120 },
    });
  });
}

test('any signed-in user may read the entitlements, whatever their role', async () => {
  const a = await register(t.app, { plan: 'business' });
  const viewer = await addMember(t, a, 'viewer');
  const res = await as(t.app, viewer.token)({ method: 'GET', url: '/api/tenant/entitlements' });
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.json().plan, 'business');
});

test('GET /api-scopes lists read and write of every module, and full, each with a label, without a token', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api-scopes' });
  assert.equal(res.statusCode, 200);
  const scopes = res.json() as { scope: string; label: string }[];
  const names = scopes.map((s) => s.scope);
  assert.deepEqual(names.sort(), [...MODULES.flatMap((m) => [`${m}:read`, `${m}:write`]), 'full'].sort());
  for (const s of scopes) {
    assert.deepEqual(Object.keys(s).sort(), ['label', 'scope']);
    assert.ok(s.label.length > 5, `${s.scope} has a label`);
  }
  assert.match(scopes.find((s) => s.scope === 'invoices:write')!.label, /invoices/);
});
