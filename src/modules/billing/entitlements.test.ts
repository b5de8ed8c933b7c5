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
    const body = res.json();
    assert.deepEqual(body, {
      plan,
      modules: [...want.modules].sort((x, y) => MODULES.indexOf(x as never) - MODULES.indexOf(y as never)),
      catalogue: body.catalogue,
      limits: { companies: want.companies, apiKeys: want.apiKeys, rateLimitPerMinute: 120 },
    });
    // The catalogue's licensed flag agrees with modules, module by module.
    assert.deepEqual(
      body.catalogue.map((c: { module: string }) => c.module),
      [...MODULES],
    );
    for (const c of body.catalogue as Array<{ module: string; licensed: boolean }>) {
      assert.equal(c.licensed, want.modules.includes(c.module), c.module);
    }
  });
}

const BUILT = [
  'contacts',
  'invoices',
  'reports',
  'admin',
  'companies',
  'inventory',
  'billing',
  'expenses',
  'banking',
  'crm',
  'transactions',
  'payroll',
];
const NOT_BUILT = ['timetracking', 'jobcards', 'tax', 'manufacturing', 'logistics', 'consolidation'];

test('the catalogue says which modules are built: status available, not_licensed or not_built, with a note', async () => {
  assert.deepEqual([...BUILT, ...NOT_BUILT].sort(), [...MODULES].sort(), 'every module is one or the other');
  const byPlan = async (plan: string) => {
    const a = await register(t.app, { plan });
    const res = await as(t.app, a.token)({ method: 'GET', url: '/api/tenant/entitlements' });
    assert.equal(res.statusCode, 200, res.body);
    type Row = { module: string; licensed: boolean; built: boolean; status: string; note: string | null };
    return new Map((res.json().catalogue as Row[]).map((r) => [r.module, r]));
  };
  const enterprise = await byPlan('enterprise');
  for (const m of BUILT) {
    assert.equal(enterprise.get(m)!.built, true, m);
    assert.equal(enterprise.get(m)!.status, 'available', m);
  }
  for (const m of NOT_BUILT) {
    assert.equal(enterprise.get(m)!.built, false, m);
    assert.equal(enterprise.get(m)!.licensed, true, m);
    assert.equal(enterprise.get(m)!.status, 'not_built', m);
  }
  assert.equal(enterprise.get('inventory')!.note, null);
  assert.match(String(enterprise.get('payroll')!.note), /the SARS files/i);
  assert.equal(enterprise.get('contacts')!.note, null);
  // On Free, inventory is built but not licensed; tax is neither, and not_built says so first.
  const free = await byPlan('free');
  assert.deepEqual(
    [free.get('inventory')!.licensed, free.get('inventory')!.built, free.get('inventory')!.status],
    [false, true, 'not_licensed'],
  );
  assert.deepEqual(
    [free.get('tax')!.licensed, free.get('tax')!.built, free.get('tax')!.status],
    [false, false, 'not_built'],
  );
});

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
