// The sandbox company over HTTP: made once with its samples and its own ledger, not counted in
// the plan's allowance, offered with API access, read-only while the plan lacks it, deleted
// whole or (when records outside point in) not at all, and invisible to other tenants.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import type { Plan } from '../../config.ts';
import { keyTokenFor } from '../../platform/auth/api-keys.factories.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

type Api = ReturnType<typeof as>;
interface SandboxBody {
  id: string;
  name: string;
  isSandbox: boolean;
  readOnly: boolean;
  customerIds: string[];
  productIds: string[];
  invoiceIds: string[];
}

async function setPlan(r: Registered, plan: Plan) {
  await withTenant(t.database.db, r.tenantId, (tx) =>
    tx.updateTable('tenants').set({ plan }).where('id', '=', r.tenantId).execute(),
  );
}

async function createSandbox(api: Api, status = 201): Promise<SandboxBody> {
  const res = await api({ method: 'POST', url: '/api/sandbox' });
  assert.equal(res.statusCode, status, res.body);
  return res.json();
}

async function names(api: Api, url: string): Promise<string[]> {
  const res = await api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().items.map((i: { name: string }) => i.name);
}

describe('creating the sandbox', () => {
  let a: Registered;
  let api: Api;
  let sandbox: SandboxBody;
  before(async () => {
    a = await register(t.app, { plan: 'business', companyName: 'Real Co' });
    api = as(t.app, a.token);
    sandbox = await createSandbox(api);
  });

  test('a separate company named Sandbox, listed with the others, with its samples', async () => {
    assert.equal(sandbox.name, 'Sandbox');
    assert.equal(sandbox.isSandbox, true);
    assert.equal(sandbox.readOnly, false);
    assert.notEqual(sandbox.id, a.companyId);
    assert.deepEqual(
      [sandbox.customerIds.length, sandbox.productIds.length, sandbox.invoiceIds.length],
      [3, 2, 3],
    );
    const companies = (await api({ method: 'GET', url: '/api/companies' })).json();
    assert.deepEqual(
      companies.map((c: { name: string; isSandbox: boolean }) => [c.name, c.isSandbox]),
      [
        ['Real Co', false],
        ['Sandbox', true],
      ],
    );
    const got = await api({ method: 'GET', url: '/api/sandbox' });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), sandbox);
  });

  test('three sample customers and two products, prefixed, in the tenant-wide books', async () => {
    assert.deepEqual(await names(api, '/api/contacts?q=Sandbox'), [
      'Sandbox · Karoo Coffee Roasters',
      'Sandbox · Protea Traders (Pty) Ltd',
      'Sandbox · Umhlanga Design Studio',
    ]);
    const contacts = (await api({ method: 'GET', url: '/api/contacts' })).json();
    assert.deepEqual(contacts.items.map((c: { id: string }) => c.id).sort(), [...sandbox.customerIds].sort());
    const products = (await api({ method: 'GET', url: '/api/inventory/products' })).json();
    assert.deepEqual(
      products.items.map((p: { name: string; sku: string; unitPrice: number; isTracked: boolean }) => [
        p.name,
        p.sku,
        p.unitPrice,
        p.isTracked,
      ]),
      [
        ['Sandbox · Coffee beans, 1 kg', 'SANDBOX-BEANS-1KG', 245.5, true],
        ['Sandbox · Consulting hour', 'SANDBOX-CONSULT', 850, false],
      ],
    );
    assert.deepEqual(products.items.map((p: { id: string }) => p.id).sort(), [...sandbox.productIds].sort());
  });

  test('three invoices in the sandbox: paid, open and overdue as the list shows them, dated from today', async () => {
    const inSandbox = as(t.app, a.token, sandbox.id);
    const list = await inSandbox({ method: 'GET', url: '/api/invoices' });
    assert.equal(list.statusCode, 200, list.body);
    const byId = new Map(list.json().items.map((i: { id: string }) => [i.id, i]));
    assert.equal(list.json().total, 3);
    const [paid, open, overdue] = sandbox.invoiceIds.map((id) => byId.get(id)) as Array<{
      status: string;
      issueDate: string;
      dueDate: string;
      total: number;
      amountDue: number;
      contactName: string;
      vatTotal: number;
    }>;
    assert.deepEqual(
      [paid!.status, paid!.issueDate, paid!.dueDate, paid!.total, paid!.amountDue],
      ['paid', '2026-02-08', '2026-03-10', 3910, 0],
    );
    assert.deepEqual(
      [open!.status, open!.issueDate, open!.dueDate, open!.total, open!.amountDue],
      ['open', '2026-03-17', '2026-04-16', 2823.25, 2823.25],
    );
    assert.deepEqual(
      [overdue!.status, overdue!.issueDate, overdue!.dueDate, overdue!.total, overdue!.vatTotal],
      ['overdue', '2026-02-03', '2026-03-05', 2801.98, 365.48],
    );
    assert.match(paid!.contactName, /^Sandbox · /);
    const overdueOnly = await inSandbox({ method: 'GET', url: '/api/invoices?status=overdue' });
    assert.deepEqual(
      overdueOnly.json().items.map((i: { id: string }) => i.id),
      [sandbox.invoiceIds[2]],
    );
    // The real company has none of them.
    const real = await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/invoices' });
    assert.equal(real.json().total, 0);
  });

  test('posted to its own ledger: balanced lines in the sandbox, none in the real company; aged debtors', async () => {
    const inSandbox = as(t.app, a.token, sandbox.id);
    const ledger = await inSandbox({ method: 'GET', url: '/api/ledger?limit=200' });
    assert.equal(ledger.statusCode, 200, ledger.body);
    const lines = ledger.json().items as Array<{ debit: number; credit: number; sourceType: string }>;
    // Three releases (3, 3 and 4 lines) and one payment (2 lines).
    assert.equal(lines.length, 12);
    const cents = (f: 'debit' | 'credit') => lines.reduce((s, l) => s + Math.round(l[f] * 100), 0);
    assert.equal(cents('debit'), cents('credit'));
    assert.deepEqual([...new Set(lines.map((l) => l.sourceType))].sort(), ['invoice', 'payment']);
    const real = await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/ledger' });
    assert.equal(real.json().total, 0);
    // Its own default chart.
    const chart = (await inSandbox({ method: 'GET', url: '/api/accounts' })).json();
    const realChart = (await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/accounts' })).json();
    assert.ok(chart.length > 10);
    assert.deepEqual(
      chart.map((x: { code: string }) => x.code),
      realChart.map((x: { code: string }) => x.code),
    );
    assert.ok(!chart.some((x: { id: string }) => realChart.some((y: { id: string }) => y.id === x.id)));

    const aged = await api({ method: 'GET', url: `/api/contacts/aged-debtors?companyId=${sandbox.id}` });
    assert.equal(aged.statusCode, 200, aged.body);
    assert.deepEqual(
      aged
        .json()
        .map((r: { contactName: string; current: number; days30: number; overdue: number }) => [
          r.contactName,
          r.current,
          r.days30,
          r.overdue,
        ]),
      [
        ['Sandbox · Karoo Coffee Roasters', 2823.25, 0, 0],
        ['Sandbox · Umhlanga Design Studio', 0, 2801.98, 2801.98],
      ],
    );
  });

  test('only once: a second POST answers 200 with the same sandbox and makes nothing', async () => {
    const again = await createSandbox(api, 200);
    assert.deepEqual(again, sandbox);
    assert.equal((await api({ method: 'GET', url: '/api/companies' })).json().length, 2);
    assert.equal((await names(api, '/api/contacts?q=Sandbox')).length, 3);
  });

  test('its name cannot be changed; other changes are taken', async () => {
    const rename = await api({
      method: 'PATCH',
      url: `/api/companies/${sandbox.id}`,
      payload: { name: 'My playground' },
    });
    assert.equal(assertProblem(rename, 400).field, 'name');
    const same = await api({
      method: 'PATCH',
      url: `/api/companies/${sandbox.id}`,
      payload: { name: 'Sandbox', tradeName: 'Playground' },
    });
    assert.equal(same.statusCode, 200, same.body);
    assert.deepEqual([same.json().name, same.json().tradeName], ['Sandbox', 'Playground']);
  });

  test("an API key's token works in it (the key principal knows the sandbox)", async () => {
    const key = await keyTokenFor(t.app, a.token, { scopes: ['full'] });
    const res = await as(t.app, key.token, sandbox.id)({ method: 'GET', url: '/api/invoices' });
    assert.equal(res.statusCode, 200, res.body);
    const write = await as(
      t.app,
      key.token,
      sandbox.id,
    )({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: sandbox.customerIds[0],
        documentType: 'quote',
        issueDate: '2026-03-20',
        dueDate: '2026-04-19',
        lines: [{ description: 'Try me', quantity: 1, unitPrice: 10 }],
      },
    });
    assert.equal(write.statusCode, 201, write.body);
    const other = await as(t.app, key.token, crypto.randomUUID())({ method: 'GET', url: '/api/invoices' });
    assertProblem(other, 404);
  });
});

describe('concurrent creates', () => {
  test('make one sandbox: one 201, the others 200 with the same id', async () => {
    const a = await register(t.app, { plan: 'enterprise' });
    const api = as(t.app, a.token);
    const answers = await Promise.all([1, 2, 3].map(() => api({ method: 'POST', url: '/api/sandbox' })));
    assert.deepEqual(
      answers.map((r) => r.statusCode).sort(),
      [200, 200, 201],
      answers.map((r) => r.body).join(' '),
    );
    assert.equal(new Set(answers.map((r) => r.json().id)).size, 1);
    const companies = (await api({ method: 'GET', url: '/api/companies' })).json();
    assert.equal(companies.filter((c: { isSandbox: boolean }) => c.isSandbox).length, 1);
    assert.equal((await names(api, '/api/contacts?q=Sandbox')).length, 3);
    assert.equal((await names(api, '/api/inventory/products')).length, 2);
  });
});

describe("the plan's company allowance and the plans that offer it", () => {
  test('not counted: a business tenant with its three companies can still create it', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    for (const name of ['Second', 'Third']) {
      const res = await api({ method: 'POST', url: '/api/companies', payload: { name } });
      assert.equal(res.statusCode, 201, res.body);
    }
    await createSandbox(api);
    assert.equal((await api({ method: 'GET', url: '/api/companies' })).json().length, 4);
    const fourth = await api({ method: 'POST', url: '/api/companies', payload: { name: 'Fourth' } });
    assert.equal(assertProblem(fourth, 403).code, 'COMPANY_LIMIT_REACHED');
  });

  test('nor does it use up the allowance: with the sandbox made first, three companies still fit', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    await createSandbox(api);
    for (const name of ['Second', 'Third']) {
      const res = await api({ method: 'POST', url: '/api/companies', payload: { name } });
      assert.equal(res.statusCode, 201, res.body);
    }
  });

  for (const plan of ['free', 'starter'] as const) {
    test(`the ${plan} plan (no API keys) is refused with PLAN_HAS_NO_SANDBOX`, async () => {
      const a = await register(t.app, { plan });
      const api = as(t.app, a.token);
      const res = await api({ method: 'POST', url: '/api/sandbox' });
      assert.equal(assertProblem(res, 403).code, 'PLAN_HAS_NO_SANDBOX');
      assertProblem(await api({ method: 'GET', url: '/api/sandbox' }), 404);
      assert.equal((await api({ method: 'GET', url: '/api/companies' })).json().length, 1);
    });
  }
});

describe('read-only while the plan lacks API access', () => {
  test('writes naming the sandbox are 403 SANDBOX_READ_ONLY, reads work, and writes return with the plan', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const sandbox = await createSandbox(api);
    const inSandbox = as(t.app, a.token, sandbox.id);
    const quote = (contactId: string) => ({
      method: 'POST' as const,
      url: '/api/invoices',
      payload: {
        contactId,
        documentType: 'quote',
        issueDate: '2026-03-20',
        dueDate: '2026-04-19',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });

    await setPlan(a, 'starter');
    const got = await api({ method: 'GET', url: '/api/sandbox' });
    assert.equal(got.statusCode, 200);
    assert.equal(got.json().readOnly, true);
    // Reads with the sandbox header.
    for (const url of [
      '/api/invoices',
      `/api/invoices/${sandbox.invoiceIds[0]}`,
      '/api/ledger',
      '/api/accounts',
    ]) {
      assert.equal((await inSandbox({ method: 'GET', url })).statusCode, 200, url);
    }
    // Every kind of write with the sandbox header.
    const writes = [
      quote(sandbox.customerIds[0]!),
      {
        method: 'POST' as const,
        url: `/api/invoices/${sandbox.invoiceIds[1]}/payments`,
        payload: { amount: 1, date: '2026-03-20' },
      },
      { method: 'DELETE' as const, url: `/api/invoices/${sandbox.invoiceIds[1]}` },
      {
        method: 'POST' as const,
        url: '/api/ledger/journals',
        payload: {
          date: '2026-03-20',
          description: 'x',
          lines: [
            { accountCode: '6100', debit: 1 },
            { accountCode: '1000', credit: 1 },
          ],
        },
      },
      {
        method: 'POST' as const,
        url: '/api/accounts',
        payload: { code: '6999', name: 'Play', type: 'expense', subtype: 'expense' },
      },
    ];
    for (const w of writes) {
      const res = await inSandbox(w);
      assert.equal(assertProblem(res, 403, `${w.method} ${w.url}`).code, 'SANDBOX_READ_ONLY');
    }
    const patch = await api({
      method: 'PATCH',
      url: `/api/companies/${sandbox.id}`,
      payload: { tradeName: 'x' },
    });
    assert.equal(assertProblem(patch, 403).code, 'SANDBOX_READ_ONLY');
    // Nothing was written: still three documents, the open one still open.
    const list = (await inSandbox({ method: 'GET', url: '/api/invoices' })).json();
    assert.equal(list.total, 3);
    // The real company takes writes as usual; a new sandbox is not offered.
    const real = await as(t.app, a.token, a.companyId)(quote(sandbox.customerIds[0]!));
    assert.equal(real.statusCode, 201, real.body);
    assert.equal(
      assertProblem(await api({ method: 'POST', url: '/api/sandbox' }), 403).code,
      'PLAN_HAS_NO_SANDBOX',
    );

    await setPlan(a, 'business');
    assert.equal((await api({ method: 'GET', url: '/api/sandbox' })).json().readOnly, false);
    const again = await inSandbox(quote(sandbox.customerIds[0]!));
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(
      (await api({ method: 'PATCH', url: `/api/companies/${sandbox.id}`, payload: { tradeName: 'x' } }))
        .statusCode,
      200,
    );

    // Down again: it can still be deleted. The real company's quote names a sample customer,
    // so that goes first (a deleted draft is history).
    await setPlan(a, 'free');
    const blocked = await api({ method: 'DELETE', url: '/api/sandbox' });
    assert.equal(assertProblem(blocked, 409).code, 'SANDBOX_IN_USE');
    const drop = await as(
      t.app,
      a.token,
      a.companyId,
    )({ method: 'DELETE', url: `/api/invoices/${real.json().id}` });
    assert.equal(drop.statusCode, 204, drop.body);
    assert.equal((await api({ method: 'DELETE', url: '/api/sandbox' })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url: '/api/sandbox' }), 404);
  });
});

describe('deleting the sandbox', () => {
  test('refused, naming the blocking records, while records outside point in; nothing is deleted', async () => {
    const a = await register(t.app, { plan: 'business', companyName: 'Real Co' });
    const api = as(t.app, a.token);
    const real = as(t.app, a.token, a.companyId);
    const sandbox = await createSandbox(api);
    const [protea, karoo] = sandbox.customerIds as [string, string, string];

    // A released invoice of the real company for a sample customer.
    const inv = await real({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: protea,
        documentType: 'invoice',
        issueDate: '2026-03-18',
        dueDate: '2026-04-17',
        lines: [{ description: 'Real work', quantity: 1, unitPrice: 100 }],
      },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    assert.equal(
      (await real({ method: 'POST', url: `/api/invoices/${inv.json().id}/release` })).statusCode,
      200,
    );
    // A manual journal of the real company naming another.
    const journal = await real({
      method: 'POST',
      url: '/api/ledger/journals',
      payload: {
        date: '2026-03-19',
        description: 'Goodwill gesture',
        lines: [
          { accountCode: '6100', debit: 50, contactId: karoo },
          { accountCode: '1000', credit: 50 },
        ],
      },
    });
    assert.equal(journal.statusCode, 201, journal.body);
    // A company whose parent is the sandbox, and a key bound to a sample customer.
    const child = await api({
      method: 'POST',
      url: '/api/companies',
      payload: { name: 'Child Co', parentId: sandbox.id },
    });
    assert.equal(child.statusCode, 201, child.body);
    const key = await api({
      method: 'POST',
      url: '/api/api-keys',
      payload: { name: 'Billing feed', owner: 'user', scopes: ['transactions:write'], contactId: protea },
    });
    assert.equal(key.statusCode, 201, key.body);
    // A recurring invoice of the real company for a sample customer.
    const schedule = await real({
      method: 'POST',
      url: '/api/recurring',
      payload: {
        contactId: protea,
        frequency: 'monthly',
        startDate: '2026-04-01',
        lines: [{ description: 'Retainer', quantity: 1, unitPrice: 1000 }],
      },
    });
    assert.equal(schedule.statusCode, 201, schedule.body);
    // A sample contact made a supplier, and a bill of the real company from it.
    const third = sandbox.customerIds[2] as string;
    const patched = await api({
      method: 'PATCH',
      url: `/api/contacts/${third}`,
      payload: { contactType: 'SUPPLIER' },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    const bill = await real({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: third,
        billNumber: 'SUP-77',
        issueDate: '2026-03-20',
        dueDate: '2026-04-19',
        lines: [{ description: 'Beans', quantity: 1, unitPrice: 100 }],
      },
    });
    assert.equal(bill.statusCode, 201, bill.body);

    const res = await api({ method: 'DELETE', url: '/api/sandbox' });
    const body = assertProblem(res, 409);
    assert.equal(body.code, 'SANDBOX_IN_USE');
    const blocking = body.blocking as Array<{ type: string; id: string; description: string }>;
    assert.deepEqual(
      blocking.map((b) => [b.type, b.id]),
      [
        ['invoice', inv.json().id],
        ['journal_entry', journal.json().id],
        ['api_key', key.json().id],
        ['recurring_invoice', schedule.json().id],
        ['bill', bill.json().id],
        ['company', child.json().id],
      ],
    );
    assert.match(blocking[0]!.description, /INV-0001 of Real Co .*Sandbox · Protea Traders/);
    assert.match(blocking[1]!.description, /Goodwill gesture.*Sandbox · Karoo Coffee Roasters/);
    assert.match(blocking[2]!.description, /Billing feed/);
    assert.match(blocking[3]!.description, /monthly recurring invoice of Real Co .*Sandbox · Protea Traders/);
    assert.match(blocking[4]!.description, /Bill SUP-77 of Real Co .*Sandbox · /);
    assert.match(blocking[5]!.description, /Child Co/);

    // Nothing was deleted.
    const still = await api({ method: 'GET', url: '/api/sandbox' });
    assert.equal(still.statusCode, 200);
    assert.deepEqual(still.json(), sandbox);
    assert.equal((await names(api, '/api/contacts?q=Sandbox')).length, 3);
    assert.equal((await names(api, '/api/inventory/products')).length, 2);
    assert.equal(
      (await as(t.app, a.token, sandbox.id)({ method: 'GET', url: '/api/invoices' })).json().total,
      3,
    );

    // History does not block: void the invoice, reverse the journal, revoke the key, stop the
    // schedule, delete the draft bill, move the company.
    assert.equal((await real({ method: 'DELETE', url: `/api/invoices/${inv.json().id}` })).statusCode, 200);
    const stopped = await real({ method: 'DELETE', url: `/api/recurring/${schedule.json().id}` });
    assert.ok(stopped.statusCode < 300, stopped.body);
    assert.equal(
      (await real({ method: 'DELETE', url: `/api/ledger/journals/${journal.json().id}` })).statusCode,
      200,
    );
    assert.equal((await api({ method: 'DELETE', url: `/api/api-keys/${key.json().id}` })).statusCode, 204);
    assert.equal((await real({ method: 'DELETE', url: `/api/bills/${bill.json().id}` })).statusCode, 200);
    const moved = await api({
      method: 'PATCH',
      url: `/api/companies/${child.json().id}`,
      payload: { parentId: null },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal((await api({ method: 'DELETE', url: '/api/sandbox' })).statusCode, 204);
  });

  test('otherwise removes everything in it (soft); a new sandbox may then be made', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const sandbox = await createSandbox(api);
    // A real customer used in the sandbox is the sandbox pointing out, which is no obstacle.
    const realCustomer = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Real Customer' },
    });
    const inSandbox = as(t.app, a.token, sandbox.id);
    const inv = await inSandbox({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: realCustomer.json().id,
        documentType: 'invoice',
        issueDate: '2026-03-19',
        dueDate: '2026-04-18',
        lines: [{ description: 'Test', quantity: 1, unitPrice: 200 }],
      },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    assert.equal(
      (await inSandbox({ method: 'POST', url: `/api/invoices/${inv.json().id}/release` })).statusCode,
      200,
    );
    const before = (await api({ method: 'GET', url: '/api/contacts/aged-debtors' })).json();
    assert.ok(before.some((r: { contactName: string }) => r.contactName === 'Real Customer'));

    const del = await api({ method: 'DELETE', url: '/api/sandbox' });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await api({ method: 'GET', url: '/api/sandbox' }), 404);
    assertProblem(await api({ method: 'GET', url: `/api/companies/${sandbox.id}` }), 404);
    assert.deepEqual(
      (await api({ method: 'GET', url: '/api/companies' })).json().map((c: { id: string }) => c.id),
      [a.companyId],
    );
    // Its documents: the company answers 404, and the rows are marked deleted, not erased.
    assertProblem(await inSandbox({ method: 'GET', url: '/api/invoices' }), 404);
    const rows = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx.selectFrom('invoices').select(['id', 'deleted_at']).where('company_id', '=', sandbox.id).execute(),
    );
    assert.equal(rows.length, 4);
    assert.ok(rows.every((r) => r.deleted_at !== null));
    // The samples left the books and answer 404; the real customer stays, owing nothing.
    assert.deepEqual(await names(api, '/api/contacts'), ['Real Customer']);
    assert.deepEqual(await names(api, '/api/inventory/products'), []);
    assertProblem(await api({ method: 'GET', url: `/api/contacts/${sandbox.customerIds[0]}` }), 404);
    assertProblem(await api({ method: 'GET', url: `/api/inventory/products/${sandbox.productIds[0]}` }), 404);
    assert.equal(
      (await api({ method: 'GET', url: `/api/contacts/${realCustomer.json().id}` })).json().creditUsed,
      0,
    );
    assert.deepEqual((await api({ method: 'GET', url: '/api/contacts/aged-debtors' })).json(), []);
    assertProblem(await api({ method: 'DELETE', url: '/api/sandbox' }), 404);

    // A fresh one, with fresh samples (the sample SKUs are free again).
    const fresh = await createSandbox(api);
    assert.notEqual(fresh.id, sandbox.id);
    assert.ok(!fresh.customerIds.some((id) => sandbox.customerIds.includes(id)));
    assert.deepEqual(
      (await api({ method: 'GET', url: '/api/inventory/products' }))
        .json()
        .items.map((p: { sku: string }) => p.sku),
      ['SANDBOX-BEANS-1KG', 'SANDBOX-CONSULT'],
    );
  });

  test('sample SKUs already taken by live products get a suffix', async () => {
    const a = await register(t.app, { plan: 'business' });
    const api = as(t.app, a.token);
    const mine = await api({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'sandbox-consult', name: 'My own', unitPrice: 1 },
    });
    assert.equal(mine.statusCode, 201, mine.body);
    await createSandbox(api);
    const skus = (await api({ method: 'GET', url: '/api/inventory/products' }))
      .json()
      .items.map((p: { sku: string }) => p.sku);
    assert.deepEqual(skus.sort(), ['SANDBOX-BEANS-1KG', 'SANDBOX-CONSULT-2', 'sandbox-consult']);
  });
});

describe('tenancy', () => {
  test('another tenant can neither see, use nor delete it', async () => {
    const a = await register(t.app, { plan: 'business' });
    const b = await register(t.app, { plan: 'business' });
    const sandbox = await createSandbox(as(t.app, a.token));
    const bApi = as(t.app, b.token);
    assertProblem(await bApi({ method: 'GET', url: '/api/sandbox' }), 404);
    assertProblem(await bApi({ method: 'DELETE', url: '/api/sandbox' }), 404);
    assertProblem(await bApi({ method: 'GET', url: `/api/companies/${sandbox.id}` }), 404);
    assertProblem(await as(t.app, b.token, sandbox.id)({ method: 'GET', url: '/api/invoices' }), 404);
    assert.equal((await bApi({ method: 'GET', url: '/api/contacts' })).json().total, 0);
    // B's own sandbox is its own.
    const bSandbox = await createSandbox(bApi);
    assert.notEqual(bSandbox.id, sandbox.id);
    assert.equal((await as(t.app, a.token)({ method: 'GET', url: '/api/sandbox' })).json().id, sandbox.id);
  });
});

describe('what may point into a sandbox', () => {
  // Every foreign key to the records a sandbox holds, other than a row's own company_id
  // (company-scoped rows of another company never name the sandbox's id there). Each is
  // either checked by the delete or inside the sandbox by construction; a new one must be
  // placed here, and checked in blockingRecords if it can point in from outside.
  const ACCOUNTED: Record<string, string> = {
    'companies(parent_id) → companies': 'checked: a company whose parent is the sandbox',
    'invoices(contact_id) → contacts': 'checked: a document of another company for a sample customer',
    'invoices(credited_invoice_id) → invoices': 'checked (and same company by the invoices rules)',
    'invoices(converted_from_id) → invoices': 'checked (and same company by the invoices rules)',
    'invoices(voided_by_credit_note_id) → invoices':
      'within one company: the credit note a void issued, history with its void invoice (not blocking)',
    'journal_lines(contact_id) → contacts': 'checked: a journal entry of another company naming one',
    'recurring_invoices(contact_id) → contacts':
      'checked: a recurring schedule of another company for a sample customer',
    'open_items(contact_id) → contacts': 'derived from journal_lines',
    'contact_consents(contact_id) → contacts': "part of the contact's own record",
    'contact_bank_details(contact_id) → contacts': "part of the contact's own record (0039)",
    'contact_bank_detail_changes(contact_id) → contacts':
      "part of the contact's own record: its bank details' history",
    'invoice_lines(invoice_id) → invoices': "part of the document (the invoice's company)",
    'invoice_payments(invoice_id) → invoices': "part of the document (the invoice's company)",
    'invoice_write_offs(invoice_id) → invoices': "part of the document (the invoice's company)",
    'invoice_bad_debt_recoveries(invoice_id) → invoices': "part of the document (the invoice's company)",
    'payment_links(company_id, invoice_id) → invoices':
      "part of the document (the key names the invoice's company)",
    'payment_notifications(company_id, invoice_id) → invoices':
      "within one company: the invoice a gateway's notification was matched to (the key names the company)",
    'invoice_allocations(source_document_id) → invoices': 'within one company (the invoices rules)',
    'customer_credits(contact_id) → contacts':
      "checked: the document it came from, or its entry naming the customer (an advance payment's)",
    'customer_credits(document_id) → invoices': 'within one company: the invoice overpaid or the deposit',
    'customer_refunds(contact_id) → contacts': 'checked: its entry names the customer (journal entries)',
    'customer_refunds(source_document_id) → invoices': "within one company: the credit note's or deposit's",
    'deposit_forfeits(deposit_id) → invoices': "part of the deposit (the deposit's company)",
    'invoice_allocations(invoice_id) → invoices': 'within one company (the invoices rules)',
    'api_keys(contact_id) → contacts':
      "a key's integration partner (0032): samples are retired, not removed, so it names a retired one",
    'bills(contact_id) → contacts': 'checked: a live bill of another company from a sample contact',
    'bill_credit_notes(contact_id) → contacts': "the bill's supplier: its bill is checked",
    'expense_claims(contact_id) → contacts':
      'an EMPLOYEE contact (the claimant): the samples are customers, so none names one',
    'mileage_trips(contact_id) → contacts':
      'an EMPLOYEE contact (the driver): the samples are customers, so none names one',
    'purchase_orders(contact_id) → contacts':
      'checked: an open purchase order of another company to a sample contact',
    'bank_transactions(coded_contact_id) → contacts':
      "a bank line's coding (0044): samples are retired, not removed, so it names a retired one",
    'crm_leads(contact_id) → contacts':
      "a converted lead's contact (CRM is tenant-wide): samples are retired, not removed, so it names a retired one",
    'crm_opportunities(contact_id) → contacts':
      "a deal's customer (CRM is tenant-wide): samples are retired, not removed, so it names a retired one",
    'crm_opportunities(quote_company_id, quote_id) → invoices':
      'within one company: the quote a won deal became, in the company it was made for (the key names it)',
    'crm_opportunity_lines(product_id) → products':
      "a deal line's product: samples are retired, not removed, so it names a retired one",
    'crm_activities(contact_id) → contacts':
      'a call or task about a contact: samples are retired, not removed, so it names a retired one',
    'crm_campaign_members(contact_id) → contacts':
      "a campaign's member: samples are retired, not removed, so it names a retired one",
    'contact_transactions(contact_id) → contacts':
      'usage recorded against a contact: samples are retired, not removed, so it names a retired one',
    'contact_transactions(invoice_company_id, invoice_id) → invoices':
      'within one company: the draft invoice the usage was billed on (the key names its company)',
    'billing_aggregates(contact_id) → contacts':
      "a month's metered amount for a contact: samples are retired, not removed, so it names a retired one",
    'billing_aggregates(invoice_company_id, invoice_id) → invoices':
      'within one company: the draft invoice the month was rolled into (the key names its company)',
    'invoice_lines(product_id) → products':
      "a sales line's product (0049): samples are retired, not removed, so it names a retired one",
    'bill_credit_note_lines(product_id) → products':
      "a supplier return's product (0050): samples are retired, not removed, so it names a retired one",
    'price_list_items(product_id) → products':
      "a price list's price for a product: samples are retired, not removed, so it names a retired one",
    'product_units(product_id) → products': "part of the product's own record (its units of measure)",
    'product_variants(product_id) → products': "part of the product's own record (its variants)",
    'stock_batches(product_id) → products': "part of the product's stock record (its batches)",
    'stock_costs(product_id) → products':
      "a company's cost pool of the product: samples are retired, not removed, so it names a retired one",
    'stock_movements(product_id) → products':
      "a company's stock movement of the product: samples are retired, not removed, so it names a retired one",
    'stock_serials(product_id) → products': "part of the product's stock record (its serial numbers)",
    'employees(contact_id) → contacts':
      'an EMPLOYEE contact (0051): the samples are customers, so none names one',
    'sandbox_samples(contact_id) → contacts': "the sandbox's own record of its samples",
    'sandbox_samples(product_id) → products': "the sandbox's own record of its samples",
    'sandbox_samples(invoice_id) → invoices': "the sandbox's own record of its samples",
  };

  test('every foreign key to companies, contacts, products and invoices is accounted for', async () => {
    const r = await sql<{ fk: string }>`
      select format('%s(%s) → %s', c.conrelid::regclass,
               (select string_agg(a.attname, ', ' order by k.n)
                  from unnest(c.conkey) with ordinality k(attnum, n)
                  join pg_attribute a on a.attrelid = c.conrelid and a.attnum = k.attnum
                 where a.attname <> 'tenant_id'),
               c.confrelid::regclass) as fk
        from pg_constraint c
       where c.contype = 'f'
         and c.confrelid in ('companies'::regclass, 'contacts'::regclass, 'products'::regclass, 'invoices'::regclass)`.execute(
      t.database.db,
    );
    const found = r.rows.map((row) => row.fk).filter((fk) => !/^\w+\(company_id\) → companies$/.test(fk));
    assert.deepEqual(found.filter((fk) => !(fk in ACCOUNTED)).sort(), [], 'place these in ACCOUNTED');
    assert.deepEqual(
      Object.keys(ACCOUNTED).filter((fk) => !found.includes(fk)),
      [],
      'ACCOUNTED lists foreign keys that no longer exist',
    );
  });
});
