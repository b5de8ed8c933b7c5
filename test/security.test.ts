// The security suite, generated from the route catalogue: a route added to src/catalogue.ts
// gets these checks with no new test code.
//
// For every route that needs a signed-in user:
//   - no token → 401 problem; a garbage, foreign-signed or expired token → 401 problem;
//   - with a path parameter: tenant B calling it with tenant A's real id → 404 problem;
//   - with a permission: a user whose role lacks it → 403 { error, resource, action }.
// For every guarded /api route (a licensed module), with tokens exchanged from API keys:
//   - a key whose scopes lack the route's scope → 403 INSUFFICIENT_SCOPE naming it (routes
//     open to every key, GET /api/companies and the entitlements, answer instead);
//   - a read-only key (<module>:read) on a write route → 403 INSUFFICIENT_SCOPE;
//   - a tenant whose plan lacks the route's module (tenants.plan set in the database) →
//     403 MODULE_NOT_LICENSED for its users and its keys alike; where every plan has the
//     module, the lowest plan is not refused for the plan.
// For every guarded route of a person's own (sign-in module): a key's token → 403.
// For every route taking the API key itself (/external/leads): each check above is made with a
// key standing for the token it names (asPresented), and a person's token, an exchanged token
// (unless the route takes one) and a wrong key are 401.
//
// Real ids come from the catalogue itself: for /api/things/{id} the creator is
// POST /api/things, called as tenant A with its body's `examples[0]`; where nothing creates
// the thing (a session is made by signing in), GET /api/things as tenant A lists one. A path
// parameter with neither falls back to a random UUID (which must still be 404) and fails the
// "every id can be found" check unless it is in NO_REAL_ID below, with the reason, so nobody
// loses coverage without saying so.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { LightMyRequestResponse } from 'fastify';
import { catalogue } from '../src/catalogue.ts';
import type { Plan } from '../src/config.ts';
import { ingest } from '../src/modules/banking/banking.factories.ts';
import { lockBankAccount, planIngest, writeIngest } from '../src/modules/banking/ingest.ts';
import {
  locationForTest,
  mainForTest,
  productForTest,
  receiveForTest,
} from '../src/modules/inventory/ops.test-support.ts';
import { fileNotification } from '../src/modules/online-payments/notifications.service.ts';
import { leaveEmployee } from '../src/modules/payroll/leave.factories.ts';
import { keyTokenFor } from '../src/platform/auth/api-keys.factories.ts';
import { licensedModule } from '../src/platform/auth/limits.ts';
import { hashPassword } from '../src/platform/auth/passwords.ts';
import { modulesOf, PLAN_TABLE } from '../src/platform/auth/plans.ts';
import { signAccessToken } from '../src/platform/auth/tokens.ts';
import { withTenant } from '../src/platform/db/tenant.ts';
import type { AnyRoute } from '../src/platform/http/catalogue.ts';
import { encodeMultipart, fileFieldsOf, MULTIPART_CONTENT_TYPE } from '../src/platform/http/multipart.ts';
import { as, type Registered, register, sha256, startTestApp, type TestApp } from './support/app.ts';
import { type FakeInvestec, keysBody, startFakeInvestec } from './support/fake-investec.ts';
import { takesKeyItself } from './support/key-itself.ts';
import { assertPermissionDenied, assertProblem } from './support/problem.ts';

/**
 * Routes whose path parameter no catalogue route creates or lists, by "METHOD path" → why.
 * Each is still checked with a random UUID (404 expected); list a route here only when
 * there truly is no POST that makes, nor GET that lists, the thing its parameter names.
 */
const NO_REAL_ID: Record<string, string> = {
  'GET /api/reconciliation/transactions/{id}/suggestions':
    "a bank line's id: lines come in by import (POST /api/bank-statements or a feed), not on this collection",
  'PUT /api/payroll-periods/{id}/inputs/{employeeId}':
    "an employee's id (POST /api/employees), not a record of this collection: the inputs are keyed by it",
};

/**
 * Routes whose path parameter is a key every tenant has its own of, not a record id, by
 * "METHOD path" → why. Tenant B naming it acts on B's own; the test checks that tenant A's
 * record of that key (as A's list shows it) is left as it was.
 */
const OWN_KEYS: Record<string, string> = {
  'PUT /api/payment-gateways/{gateway}':
    "a gateway's name ('gatewaya'), not a record id: every company has its own credentials at each gateway",
  'DELETE /api/payment-gateways/{gateway}':
    "a gateway's name ('gatewaya'), not a record id: every company has its own credentials at each gateway",
  'POST /api/reports/vat/periods/{id}/submit':
    "a VAT period's id is its end month ('2026-04'): every company has its own period of that name",
};

/** Once per run: the lister is read by several suites, and a second period would overlap. */
let payslipSeed: Promise<void> | undefined;
async function seedPayslip(): Promise<void> {
  const api = as(t.app, a.token, a.companyId);
  const e = await api({
    method: 'POST',
    url: '/api/employees',
    payload: {
      firstName: 'Seed',
      lastName: 'Payslip',
      passportNumber: 'PSEC1',
      passportCountry: 'ZW',
      dateOfBirth: '1990-01-01',
      startDate: '2025-01-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 20000,
    },
  });
  assert.equal(e.statusCode, 201, e.body);
  const p = await api({
    method: 'POST',
    url: '/api/payroll-periods',
    payload: {
      frequency: 'monthly',
      periodStart: '2026-01-01',
      periodEnd: '2026-01-31',
      payDate: '2026-01-25',
    },
  });
  assert.equal(p.statusCode, 201, p.body);
  const c = await api({ method: 'POST', url: `/api/payroll-periods/${p.json().id}/calculate` });
  assert.equal(c.statusCode, 200, c.body);
}

/**
 * Lists whose items only come to be when something happens, by "GET path" → the API call that
 * makes one for tenant A before the list is read. Say why, as for NO_REAL_ID.
 */
const SEEDS: Record<string, (values: Record<string, string>) => Promise<void>> = {
  // A payslip is made by calculating a period with an employee in it (January 2026: apart from
  // the examples' April period).
  'GET /api/payslips': async () => {
    payslipSeed ??= seedPayslip();
    await payslipSeed;
  },
  // A stock movement is made by what moves stock: an adjustment bringing some in.
  'GET /api/inventory/movements': async () => {
    const res = await as(
      t.app,
      a.token,
      a.companyId,
    )({
      method: 'POST',
      url: '/api/inventory/adjustments',
      payload: {
        date: '2026-03-01',
        reason: 'Security seed',
        lines: [{ productId: await stockProductOfA(), quantity: 1, unitCost: 5 }],
      },
    });
    assert.equal(res.statusCode, 201, res.body);
  },
  // A lead import's record is left by a CSV upload (the body is the file, no JSON example).
  'GET /api/crm/leads/imports': async () => {
    const res = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/crm/leads/import',
      headers: { 'content-type': 'text/csv' },
      payload: 'Name,Email\nSecurity seed,seed@example.co.za\n',
    });
    assert.equal(res.statusCode, 200, res.body);
  },
  // Money is recovered only on a debt written off: release, write off 10, recover 1.
  'GET /api/invoices/{id}/write-off/recoveries': async (values) => {
    await releaseOfA(values.id!);
    const api = as(t.app, a.token, a.companyId);
    const url = `/api/invoices/${values.id}/write-off`;
    const w = await api({ method: 'POST', url, payload: { date: '2026-06-30', amount: 10, reason: 'Seed' } });
    assert.equal(w.statusCode, 201, w.body);
    const r = await api({
      method: 'POST',
      url: `${url}/recover`,
      payload: { date: '2026-06-30', amount: 1 },
    });
    assert.equal(r.statusCode, 201, r.body);
  },
  // A delivery exists once an event is sent to the webhook; the test event sends one. The
  // suite's job worker does not run, so nothing leaves the machine.
  'GET /api/webhooks/{id}/deliveries': async (values) => {
    const res = await as(t.app, a.token)({ method: 'POST', url: fill('/api/webhooks/{id}/test', values) });
    assert.equal(res.statusCode, 202, res.body);
  },
  // A customer credit arises from money received: an advance payment makes one. Dated before
  // anything else tenant A has, so that it is the list's first (oldest first) and the refund
  // creator's example (150) fits in it.
  'GET /api/customer-credits': async () => {
    if (advanceOfA) return;
    const res = await as(
      t.app,
      a.token,
      a.companyId,
    )({
      method: 'POST',
      url: '/api/invoices/advance-payments',
      payload: { contactId: await contactOfA(), date: '2020-01-02', amount: 1000 },
    });
    assert.equal(res.statusCode, 201, res.body);
    advanceOfA = res.json().id as string;
  },
  // A payment run pays approved bills of a supplier whose bank details are not a recent change
  // (a change waits for another person's confirmation): captured, then dated back as if long
  // ago, a bill approved, and a run made (POST /api/bills/payment-run, the spec's singular path).
  'GET /api/bills/payment-runs': async () => {
    if (runOfA) return;
    const api = as(t.app, a.token, a.companyId);
    const supplier = await supplierOfA();
    const put = await api({
      method: 'PUT',
      url: `/api/contacts/${supplier}/bank-details`,
      payload: {
        bankName: 'FNB',
        accountHolder: 'Security supplier',
        accountNumber: '62001234567',
        branchCode: '250655',
      },
    });
    assert.equal(put.statusCode, 200, put.body);
    await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .updateTable('contact_bank_details')
        .set({ changed_at: '2020-01-01T00:00:00Z' })
        .where('tenant_id', '=', a.tenantId)
        .where('contact_id', '=', supplier)
        .execute(),
    );
    const bill = await api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: supplier,
        billNumber: 'SEC-RUN-1',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [{ description: 'Paper', quantity: 1, unitPrice: 100 }],
      },
    });
    assert.equal(bill.statusCode, 201, bill.body);
    const approved = await api({ method: 'POST', url: `/api/bills/${bill.json().id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    const run = await api({
      method: 'POST',
      url: '/api/bills/payment-run',
      payload: { date: '2026-03-25', billIds: [bill.json().id] },
    });
    assert.equal(run.statusCode, 201, run.body);
    runOfA = run.json().id as string;
  },
  // Bank lines come only from an import (a statement or the feed): one line into tenant A's
  // chart Bank account, the way both add them (ingest.ts); the same line again adds nothing.
  // Gateway notifications come in from the gateways (/webhooks/*), not through this collection:
  // one filed straight into tenant A's inbox, waiting in the review queue.
  'GET /api/payment-notifications': async () => {
    await withTenant(t.database.db, a.tenantId, (tx) =>
      fileNotification(tx, a.tenantId, {
        gateway: 'gatewaya',
        rawBody: 'm_payment_id=seed&pf_payment_id=1',
        companyId: a.companyId,
        trusted: true,
        status: 'review',
        outcome: 'Security seed',
      }),
    );
  },
  'GET /api/bank-transactions': async () => {
    const accounts = await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/bank-accounts' });
    const bankAccountId = (accounts.json() as { id: string }[])[0]!.id;
    await withTenant(t.database.db, a.tenantId, async (tx) => {
      await lockBankAccount(tx, a.tenantId, bankAccountId);
      const line = { date: '2026-03-02', amount: '-50.00', description: 'SECURITY SEED' };
      const plan = await planIngest(tx, a.tenantId, bankAccountId, [line]);
      const origin = {
        tenantId: a.tenantId,
        companyId: a.companyId,
        deps: t.deps,
        principal: { type: 'system' },
      };
      await writeIngest(tx, plan, { ...origin, source: 'file' } as Parameters<typeof writeIngest>[2]);
    });
  },
};
let advanceOfA: string | undefined;
let runOfA: string | undefined;

/**
 * Creators whose example body names other records, or which need their parent in a state:
 * by "METHOD path" → what to do first for tenant A, answering fields that replace the
 * example's. Say why, as for NO_REAL_ID.
 */
const PREPARE: Record<string, (values: Record<string, string>) => Promise<Record<string, unknown>>> = {
  // A sales document is for one of the tenant's contacts.
  'POST /api/invoices': async () => ({ contactId: await contactOfA() }),
  // Leave is an employee's: one of tenant A's company (written directly; it started in 2020, so
  // the example's two days of annual leave in March 2026 are within its balance).
  'POST /api/leave-requests': async () => ({ employeeId: await employeeOfA() }),
  'POST /api/leave-adjustments': async () => ({ employeeId: await employeeOfA() }),
  // A bill is from one of the tenant's SUPPLIER contacts.
  'POST /api/bills': async () => ({ contactId: await supplierOfA() }),
  // So is a purchase order.
  'POST /api/purchase-orders': async () => ({ contactId: await supplierOfA() }),
  // A receipt is of a sent order's line (for .../receipts/{receiptId}/reverse). The receipt
  // answers its order, so the id found is the order's: tenant B still gets 404 for it.
  'POST /api/purchase-orders/{id}/receipts': async (values) => {
    const api = as(t.app, a.token, a.companyId);
    const sent = await api({
      method: 'POST',
      url: `/api/purchase-orders/${values.id}/send`,
      payload: { to: 'orders@karoo.example.co.za' },
    });
    assert.equal(sent.statusCode, 202, sent.body);
    return { lines: [{ lineId: sent.json().purchaseOrder.lines[0].id, quantity: 1 }] };
  },
  // A stock transfer moves stock tenant A has, between two of its locations: a product with 10
  // on hand at the default location, and a second location.
  'POST /api/inventory/transfers': async () => {
    const productId = await productForTest(t, a);
    await receiveForTest(t, a, { productId, quantity: 10, unitCost: 10 });
    return {
      fromLocationId: await mainForTest(t, a),
      toLocationId: await locationForTest(t, a, `SEC-${crypto.randomUUID().slice(0, 8)}`),
      lines: [{ productId, quantity: 5 }],
    };
  },
  // A landed cost spreads a line of an approved bill of tenant A over one of its stock receipts.
  'POST /api/landed-costs': async () => {
    const api = as(t.app, a.token, a.companyId);
    const bill = await api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: await supplierOfA(),
        billNumber: 'SEC-FREIGHT-1',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [{ description: 'Sea freight', quantity: 1, unitPrice: 200, taxCode: 'exempt' }],
      },
    });
    assert.equal(bill.statusCode, 201, bill.body);
    const approved = await api({ method: 'POST', url: `/api/bills/${bill.json().id}/approve` });
    assert.equal(approved.statusCode, 200, approved.body);
    const productId = await productForTest(t, a);
    const receipt = await receiveForTest(t, a, { productId, quantity: 10, unitCost: 100 });
    return {
      charges: [{ billId: approved.json().id, billLineId: approved.json().lines[0].id, amount: 200 }],
      receipts: [receipt],
    };
  },
  // A stock adjustment moves stock of one of the tenant's tracked products.
  'POST /api/inventory/adjustments': async () => ({
    lines: [{ productId: await stockProductOfA(), quantity: 10, unitCost: 12.5 }],
  }),
  // Payments are made on approved bills only.
  'POST /api/bills/{id}/payments': async (values) => {
    const api = as(t.app, a.token, a.companyId);
    for (const step of ['submit', 'approve']) {
      const res = await api({ method: 'POST', url: `/api/bills/${values.id}/${step}` });
      assert.ok(res.statusCode === 200 || res.statusCode === 409, res.body);
    }
    return {};
  },
  // A supplier credit note is against an approved bill of the tenant (a bill of its own here).
  'POST /api/bills/credit-notes': async () => {
    const api = as(t.app, a.token, a.companyId);
    const bill = await api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: await supplierOfA(),
        billNumber: 'SEC-CN-1',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        lines: [{ description: 'Paper', quantity: 1, unitPrice: 1000 }],
      },
    });
    assert.equal(bill.statusCode, 201, bill.body);
    const res = await api({ method: 'POST', url: `/api/bills/${bill.json().id}/approve` });
    assert.equal(res.statusCode, 200, res.body);
    return { billId: bill.json().id };
  },
  // So is a recurring schedule.
  'POST /api/recurring': async () => ({ contactId: await contactOfA() }),
  // A CRM activity is against one of the tenant's records (a contact here).
  'POST /api/crm/activities': async () => ({ contactId: await contactOfA() }),
  // A statement is of one of the tenant's bank accounts (the chart's Bank is one).
  'POST /api/bank-statements': async () => {
    const res = await as(t.app, a.token, a.companyId)({ method: 'GET', url: '/api/bank-accounts' });
    return { bankAccountId: res.json()[0].id };
  },
  // A match reconciles a bank line of the tenant's (imported here into Bank 1000), posted against
  // one of its accounts (Bank charges 6100).
  'POST /api/reconciliation/matches': async () => {
    const api = as(t.app, a.token, a.companyId);
    const accounts = (await api({ method: 'GET', url: '/api/accounts' })).json() as {
      id: string;
      code: string;
    }[];
    const bank = accounts.find((x) => x.code === '1000')!.id;
    const { ids } = await ingest(t, { api, b: a, bankAccountId: bank }, [
      { date: '2026-03-05', amount: '-12.34', description: 'Security fee' },
    ]);
    return { bankTransactionId: ids[0], create: { accountId: accounts.find((x) => x.code === '6100')!.id } };
  },
  // Payments are taken on released invoices only.
  'POST /api/invoices/{id}/payments': async (values) => {
    await releaseOfA(values.id!);
    return {};
  },
  // A payment link is for a released invoice, through a gateway with credentials (A's, set here).
  'POST /api/invoices/{id}/payment-links': async (values) => {
    await releaseOfA(values.id!);
    const res = await as(
      t.app,
      a.token,
      a.companyId,
    )({
      method: 'PUT',
      url: '/api/payment-gateways/gatewaya',
      payload: { merchantId: '10000100', merchantKey: '46f0cd694581a', passphrase: 'jt7NOE43FZPn' },
    });
    assert.equal(res.statusCode, 200, res.body);
    return { gateway: 'gatewaya' };
  },
  // A bad debt is written off a released invoice: 10 of it, so that more can be written off.
  'POST /api/invoices/{id}/write-off': async (values) => {
    await releaseOfA(values.id!);
    return { amount: 10 };
  },
  // An allocation applies a released credit note of the same customer to a released invoice.
  'POST /api/invoices/{id}/allocations': async (values) => {
    await releaseOfA(values.id!);
    const invoice = (
      await as(t.app, a.token, a.companyId)({ method: 'GET', url: `/api/invoices/${values.id}` })
    ).json();
    const note = await as(
      t.app,
      a.token,
      a.companyId,
    )({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: invoice.contactId,
        documentType: 'credit_note',
        issueDate: invoice.issueDate,
        dueDate: invoice.issueDate,
        lines: [{ description: 'Credit', quantity: 1, unitPrice: 10 }],
      },
    });
    assert.equal(note.statusCode, 201, note.body);
    await releaseOfA(note.json().id);
    return { sourceId: note.json().id };
  },
  // A bank feed connects a bank account of the tenant with keys the bank accepts (it asks the
  // bank first): a new bank account of A (one live feed each), and the local fake bank's keys.
  'POST /api/bank-feeds': async () => {
    feedBank ??= await startFakeInvestec();
    t.deps.config.bankFeedBaseUrl = feedBank.url;
    const res = await as(
      t.app,
      a.token,
      a.companyId,
    )({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: `Security feed ${crypto.randomUUID()}` },
    });
    assert.equal(res.statusCode, 201, res.body);
    return {
      bankAccountId: res.json().id,
      ...keysBody(feedBank.credentials),
      investecAccountId: feedBank.accounts[0]!.accountId,
    };
  },
};
let feedBank: FakeInvestec | undefined;

let contactA: string | undefined;
async function contactOfA(): Promise<string> {
  if (!contactA) {
    const res = await as(
      t.app,
      a.token,
    )({ method: 'POST', url: '/api/contacts', payload: { name: 'Security customer' } });
    assert.equal(res.statusCode, 201, res.body);
    contactA = res.json().id as string;
  }
  return contactA;
}

let employeeA: string | undefined;
async function employeeOfA(): Promise<string> {
  employeeA ??= await leaveEmployee(t, as(t.app, a.token), a.tenantId, a.companyId, {
    startDate: '2020-01-01',
  });
  return employeeA;
}

let supplierA: string | undefined;
async function supplierOfA(): Promise<string> {
  if (!supplierA) {
    const res = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Security supplier', contactType: 'SUPPLIER' },
    });
    assert.equal(res.statusCode, 201, res.body);
    supplierA = res.json().id as string;
  }
  return supplierA;
}

let stockProductA: string | undefined;
/** A tracked product of tenant A (stock can be moved for it). */
async function stockProductOfA(): Promise<string> {
  if (!stockProductA) {
    const res = await as(
      t.app,
      a.token,
    )({
      method: 'POST',
      url: '/api/inventory/products',
      payload: { sku: 'SEC-STOCK-1', name: 'Security stock item', unitPrice: 20, isTracked: true },
    });
    assert.equal(res.statusCode, 201, res.body);
    stockProductA = res.json().id as string;
  }
  return stockProductA;
}

async function releaseOfA(invoiceId: string) {
  const res = await as(
    t.app,
    a.token,
    a.companyId,
  )({ method: 'POST', url: `/api/invoices/${invoiceId}/release` });
  assert.ok(res.statusCode === 200 || res.statusCode === 409, res.body);
}

const name = (route: AnyRoute) => `${route.method} ${route.path}`;
const guarded = catalogue.filter((route) => route.auth !== 'none');
const withParams = guarded.filter((route) => paramNames(route.path).length > 0);
const withPermission = guarded.filter((route) => route.permission);
/** Routes a key's token may call: those of a licensed module. */
const keyRoutes = guarded.filter((route) => licensedModule(route.module));
const personalRoutes = guarded.filter((route) => !licensedModule(route.module));
const PLANS_LOW_TO_HIGH = Object.keys(PLAN_TABLE) as Plan[];

/** The highest plan without the route's module; undefined when every plan has it. */
function planLacking(route: AnyRoute): Plan | undefined {
  const m = licensedModule(route.module)!;
  return PLANS_LOW_TO_HIGH.filter((p) => !modulesOf(p).has(m)).at(-1);
}

function paramNames(path: string): string[] {
  return [...path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
}

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, p: string) => values[p] ?? crypto.randomUUID());
}

/** The first example the route's body schema carries; `{}` when it carries none. */
function exampleBody(route: AnyRoute): unknown {
  if (!route.body) return undefined;
  const examples = (route.body as { examples?: unknown[] }).examples;
  return structuredClone(examples?.[0] ?? {});
}

/** Required query parameters, each from its schema's examples[0] or default. */
function exampleQuery(route: AnyRoute): Record<string, string> {
  if (!route.query) return {};
  const schema = route.query as { properties?: Record<string, Record<string, unknown>>; required?: string[] };
  const out: Record<string, string> = {};
  for (const key of schema.required ?? []) {
    const prop = schema.properties?.[key] ?? {};
    const value = (prop.examples as unknown[] | undefined)?.[0] ?? prop.default;
    assert.notEqual(value, undefined, `${name(route)}: give query parameter ${key} examples or a default`);
    out[key] = String(value);
  }
  return out;
}

/** The route with this method on the collection the path parameter at `index` belongs to. */
function onCollection(route: AnyRoute, index: number, method: 'POST' | 'GET'): AnyRoute | undefined {
  const param = paramNames(route.path)[index]!;
  const collection = route.path.slice(0, route.path.indexOf(`/{${param}}`));
  return catalogue.find((r) => r.method === method && r.path === collection && r.auth !== 'none');
}

/** Path parameters for which tenant A can neither create nor list a real id. */
function unfindable(route: AnyRoute): string[] {
  return paramNames(route.path).filter(
    (_, i) => !onCollection(route, i, 'POST') && !onCollection(route, i, 'GET'),
  );
}

let t: TestApp;
let a: Registered;
let b: Registered;
/** A user of tenant A whose custom role grants nothing. */
let deniedToken: string;
const created = new Map<string, string>();

/** Tenant A's real ids for the route's path parameters (random UUIDs where nothing creates or lists them). */
async function idsOfTenantA(route: AnyRoute): Promise<Record<string, string>> {
  const values: Record<string, string> = {};
  const names = paramNames(route.path);
  for (const [i, param] of names.entries()) {
    // A path parameter that is one of a few names (an enum), not an id: its first name.
    const named = (route.params as { properties?: Record<string, { enum?: string[] }> } | undefined)
      ?.properties?.[param]?.enum;
    if (named?.length) {
      values[param] = named[0]!;
      continue;
    }
    const creator = onCollection(route, i, 'POST');
    const lister = onCollection(route, i, 'GET');
    if (!creator && lister) {
      values[param] = await listedId(lister, values, route);
      continue;
    }
    if (!creator) {
      values[param] = crypto.randomUUID();
      continue;
    }
    const url = fill(creator.path, values);
    if (!created.has(url)) {
      const overrides = (await PREPARE[name(creator)]?.(values)) ?? {};
      const res = await as(
        t.app,
        a.token,
        creator.companyScoped ? a.companyId : undefined,
      )({
        method: 'POST',
        url,
        query: exampleQuery(creator),
        ...encoded(creator, { ...(exampleBody(creator) as object), ...overrides }),
      });
      assert.ok(
        res.statusCode >= 200 && res.statusCode < 300,
        `${name(creator)} (creator for ${name(route)}) with its body's examples[0] answered ${res.statusCode} ${res.body}`,
      );
      const id = (res.json() as { id?: unknown }).id;
      assert.equal(typeof id, 'string', `${name(creator)} answered no id: ${res.body}`);
      created.set(url, id as string);
    }
    values[param] = created.get(url)!;
  }
  return values;
}

/** The first id tenant A's GET on the collection lists (a bare array or a paged envelope). */
async function listedId(lister: AnyRoute, values: Record<string, string>, route: AnyRoute): Promise<string> {
  await SEEDS[name(lister)]?.(values);
  const res = await as(
    t.app,
    a.token,
    lister.companyScoped ? a.companyId : undefined,
  )({
    method: 'GET',
    url: fill(lister.path, values),
    query: exampleQuery(lister),
  });
  assert.equal(res.statusCode, 200, `${name(lister)} (lister for ${name(route)}) answered ${res.body}`);
  const body = res.json() as { id?: unknown }[] | { items?: { id?: unknown }[] };
  const id = (Array.isArray(body) ? body : (body.items ?? []))[0]?.id;
  assert.equal(typeof id, 'string', `${name(lister)} lists nothing with an id for tenant A: ${res.body}`);
  return id as string;
}

function call(
  route: AnyRoute,
  headers: Record<string, string>,
  values: Record<string, string> = {},
): Promise<LightMyRequestResponse> {
  const body = encoded(route, exampleBody(route));
  return t.app.inject({
    method: route.method,
    url: fill(route.path, values),
    query: exampleQuery(route),
    headers: { ...body.headers, ...asPresented(route, headers) },
    ...(body.payload === undefined ? {} : { payload: body.payload }),
  });
}

/** A body as the route reads it: JSON, or multipart/form-data (its file properties as file parts). */
function encoded(
  route: AnyRoute,
  body: unknown,
): { payload?: string | Buffer; headers: Record<string, string> } {
  if (body === undefined) return { headers: {} };
  if (route.consumes === MULTIPART_CONTENT_TYPE)
    return encodeMultipart(body as Record<string, unknown>, fileFieldsOf(route.body));
  return { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } };
}

/**
 * Routes that take the API key itself (`security: 'apiKey'`, /external/leads): each check is
 * made with the key standing for the token the check names. A key's token stands for its key; a
 * person's token for a key acting as that person (tenant A's owner, B's owner, the user whose
 * role grants nothing, a tenant on a lower plan). Other routes get the headers as they are.
 */
const rawKeyOf = new Map<string, string>();

function asPresented(route: AnyRoute, headers: Record<string, string>): Record<string, string> {
  if (!takesKeyItself(route) || !headers.authorization) return headers;
  const token = headers.authorization.replace(/^Bearer\s+/i, '');
  const key = rawKeyOf.get(token);
  return key ? { ...headers, authorization: `Bearer ${key}` } : headers;
}

function claimsOf(token: string): { sub: string; tid: string; sid: string } {
  return JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString('utf8'));
}

before(async () => {
  t = await startTestApp({ jobsWork: false });
  // The top plan, so that no plan limit stands between a creator and its record.
  a = await register(t.app, { plan: 'enterprise', tenantName: 'Tenant A' });
  b = await register(t.app, { plan: 'enterprise', tenantName: 'Tenant B' });

  // A custom role with no permissions, and a user of tenant A holding it. Written straight
  // to the database so the suite does not depend on the users and roles API.
  const roleId = crypto.randomUUID();
  const userId = crypto.randomUUID();
  const email = `denied.${userId.slice(0, 8)}@example.co.za`;
  const password = `No permissions ${userId}`;
  const passwordHash = await hashPassword(sha256(password));
  await withTenant(t.database.db, a.tenantId, async (tx) => {
    await tx
      .insertInto('roles')
      .values({ tenant_id: a.tenantId, id: roleId, name: 'Nothing at all', permissions: [] })
      .execute();
    await tx
      .insertInto('users')
      .values({
        tenant_id: a.tenantId,
        id: userId,
        email,
        name: 'Denied',
        password_hash: passwordHash,
        role: roleId,
      })
      .execute();
    await tx.insertInto('user_logins').values({ email, tenant_id: a.tenantId, user_id: userId }).execute();
  });
  const login = await t.app.inject({
    method: 'POST',
    url: '/auth/login',
    payload: { email, password: sha256(password) },
  });
  assert.equal(login.statusCode, 200, login.body);
  deniedToken = login.json().accessToken;
  // The keys that stand for these people on routes taking the key itself (asPresented).
  rawKeyOf.set(a.token, (await keyTokenFor(t.app, a.token, { scopes: ['full'] })).key);
  rawKeyOf.set(b.token, (await keyTokenFor(t.app, b.token, { scopes: ['full'] })).key);
  const denied = await keyTokenFor(t.app, a.token, { scopes: ['full'], owner: 'business', roleId });
  rawKeyOf.set(deniedToken, denied.key);
});
after(async () => {
  await feedBank?.close();
  await t.close();
});

/** Tenant A's key tokens, one per scope list (user keys of A's owner: the role allows everything). */
const keyTokens = new Map<string, string>();
async function keyWith(scopes: string[]): Promise<string> {
  const k = scopes.join(' ');
  if (!keyTokens.has(k)) {
    const made = await keyTokenFor(t.app, a.token, { scopes });
    keyTokens.set(k, made.token);
    rawKeyOf.set(made.token, made.key);
  }
  return keyTokens.get(k)!;
}

/** A user token and a key token of a tenant whose plan is `plan` (set straight in the database). */
const onPlan = new Map<Plan, { user: string; key: string; companyId: string }>();
async function tenantOn(plan: Plan) {
  if (!onPlan.has(plan)) {
    const c = await register(t.app, { plan: 'enterprise', tenantName: `On ${plan}` });
    const made = await keyTokenFor(t.app, c.token, { scopes: ['full'] });
    const key = made.token;
    rawKeyOf.set(key, made.key);
    rawKeyOf.set(c.token, made.key);
    await withTenant(t.database.db, c.tenantId, (tx) =>
      tx.updateTable('tenants').set({ plan }).where('id', '=', c.tenantId).execute(),
    );
    onPlan.set(plan, { user: c.token, key, companyId: c.companyId });
  }
  return onPlan.get(plan)!;
}

describe('the catalogue', () => {
  test('declares no (method, path) twice', () => {
    const seen = new Set<string>();
    const twice = catalogue.map(name).filter((k) => seen.has(k) || !seen.add(k));
    assert.deepEqual(twice, []);
  });

  test('has no public /api route: every one needs a signed-in user', () => {
    const open = catalogue
      .filter((r) => r.path.startsWith('/api/') && !(r.auth === undefined || r.auth === 'user'))
      .map(name);
    assert.deepEqual(open, []);
  });

  test('can create or list every id a path names, or says why not (NO_REAL_ID)', () => {
    const uncovered = withParams
      .filter((r) => unfindable(r).length > 0 && !(name(r) in NO_REAL_ID))
      .map((r) => `${name(r)} (nothing creates or lists {${unfindable(r).join('}, {')}})`);
    assert.deepEqual(uncovered, [], 'add a POST creator with body examples, or list the route in NO_REAL_ID');
    const stale = Object.keys(NO_REAL_ID).filter(
      (k) => !withParams.some((r) => name(r) === k && unfindable(r).length > 0),
    );
    assert.deepEqual(stale, [], 'NO_REAL_ID entries that are no longer needed');
  });

  test('covers routes of each kind (the suite is not vacuous)', () => {
    assert.ok(guarded.length > 0 && withParams.length > 0 && withPermission.length > 0);
  });
});

describe('no token → 401', () => {
  for (const route of guarded) {
    test(name(route), async () => {
      assertProblem(await call(route, {}), 401, name(route));
    });
  }
});

describe('a garbage, foreign-signed or expired token → 401', () => {
  for (const route of guarded) {
    test(name(route), async () => {
      const claims = claimsOf(a.token);
      const foreign = await signAccessToken(new TextEncoder().encode('another-secret-'.repeat(4)), claims);
      const expired = await signAccessToken(t.deps.config.jwtSecret, claims, -60);
      const tokens = { garbage: 'not.a.token', foreign, expired };
      for (const [kind, token] of Object.entries(tokens)) {
        const res = await call(route, { authorization: `Bearer ${token}`, 'x-company-id': a.companyId });
        const body = assertProblem(res, 401, `${name(route)} with a ${kind} token`);
        // A route taking only the key itself refuses any access token before reading it.
        if (kind === 'expired' && !(takesKeyItself(route) && !route.keyTokenToo))
          assert.equal(body.detail, 'The token has expired');
      }
    });
  }
});

describe("another tenant's id → 404", () => {
  for (const route of withParams) {
    test(name(route), async () => {
      const ids = await idsOfTenantA(route);
      const asB = { authorization: `Bearer ${b.token}`, 'x-company-id': b.companyId };
      if (name(route) in OWN_KEYS) {
        const lister = onCollection(route, 0, 'GET')!;
        const listOfA = () =>
          as(
            t.app,
            a.token,
            a.companyId,
          )({ method: 'GET', url: fill(lister.path, ids), query: exampleQuery(lister) });
        const before = (await listOfA()).body;
        const res = await call(route, asB, ids);
        assert.ok(res.statusCode < 500, res.body);
        assert.equal((await listOfA()).body, before, `${name(route)} as tenant B changed tenant A's`);
        return;
      }
      const res = await call(route, asB, ids);
      assertProblem(res, 404, `${name(route)} as tenant B with tenant A's ${JSON.stringify(ids)}`);
    });
  }
});

// Issue 35: PATCH /api/cost-centres/{id} and /api/bills/{id} with {} answered 500 (an UPDATE with
// nothing to set). An empty patch changes nothing and answers the record, on every PATCH route.
describe('an empty PATCH ({}) on a record of tenant A → 200, the record unchanged', () => {
  for (const route of catalogue.filter((r) => r.method === 'PATCH' && r.auth !== 'none')) {
    test(name(route), async () => {
      const ids = await idsOfTenantA(route);
      const api = as(t.app, a.token, route.companyScoped ? a.companyId : undefined);
      const url = fill(route.path, ids);
      const reader = catalogue.find((r) => r.method === 'GET' && r.path === route.path);
      const before = reader ? await api({ method: 'GET', url }) : undefined;
      if (before) assert.equal(before.statusCode, 200, `GET ${url}: ${before.body}`);
      const res = await api({ method: 'PATCH', url, payload: {} });
      assert.equal(res.statusCode, 200, `${name(route)} with {}: ${res.body}`);
      if (!before) return;
      const after = await api({ method: 'GET', url });
      assert.deepEqual(after.json(), before.json(), `${name(route)}: the record is unchanged`);
      assert.deepEqual(res.json(), after.json(), `${name(route)} answers the record`);
    });
  }
});

describe('a role without the permission → 403 { error, resource, action }', () => {
  for (const route of withPermission) {
    test(name(route), async () => {
      const [resource, action] = route.permission!;
      const ids = await idsOfTenantA(route);
      const res = await call(
        route,
        { authorization: `Bearer ${deniedToken}`, 'x-company-id': a.companyId },
        ids,
      );
      assertPermissionDenied(res, resource, action, name(route));
    });
  }
});

describe("a key whose scopes lack the route's scope → 403 INSUFFICIENT_SCOPE", () => {
  for (const route of keyRoutes) {
    test(name(route), async () => {
      // A scope of another module: it admits nothing of this route's module.
      const other = route.module === 'contacts' ? 'invoices:write' : 'contacts:write';
      const ids = await idsOfTenantA(route);
      const res = await call(
        route,
        { authorization: `Bearer ${await keyWith([other])}`, 'x-company-id': a.companyId },
        ids,
      );
      if (route.anyKey) {
        assert.ok(res.statusCode < 300, `${name(route)} is open to every key: ${res.statusCode} ${res.body}`);
        return;
      }
      const body = assertProblem(res, 403, name(route));
      assert.equal(body.code, 'INSUFFICIENT_SCOPE', name(route));
      assert.equal(body.scope, `${route.module}:${route.access}`, name(route));
    });
  }
});

describe('a read-only key on a write route → 403 INSUFFICIENT_SCOPE', () => {
  for (const route of keyRoutes.filter((r) => r.access === 'write')) {
    test(name(route), async () => {
      const ids = await idsOfTenantA(route);
      const token = await keyWith([`${route.module}:read`]);
      const res = await call(route, { authorization: `Bearer ${token}`, 'x-company-id': a.companyId }, ids);
      const body = assertProblem(res, 403, name(route));
      assert.equal(body.code, 'INSUFFICIENT_SCOPE', name(route));
      assert.equal(body.scope, `${route.module}:write`, name(route));
    });
  }
});

describe("a plan without the route's module → 403 MODULE_NOT_LICENSED (users and keys)", () => {
  for (const route of keyRoutes) {
    const lacking = planLacking(route);
    const title = lacking ? `${name(route)} on ${lacking}` : `${name(route)}: every plan has ${route.module}`;
    test(title, async () => {
      const c = await tenantOn(lacking ?? PLANS_LOW_TO_HIGH[0]!);
      for (const [who, token] of Object.entries({ user: c.user, key: c.key })) {
        const res = await call(route, { authorization: `Bearer ${token}`, 'x-company-id': c.companyId });
        if (lacking) {
          assert.equal(assertProblem(res, 403, `${title} (${who})`).code, 'MODULE_NOT_LICENSED');
        } else if (res.statusCode === 403) {
          assert.notEqual(res.json().code, 'MODULE_NOT_LICENSED', `${title} (${who}): ${res.body}`);
        }
      }
    });
  }
});

describe("a key's token on a person's own route → 403 USER_TOKEN_REQUIRED", () => {
  for (const route of personalRoutes) {
    test(name(route), async () => {
      const res = await call(route, { authorization: `Bearer ${await keyWith(['full'])}` });
      assert.equal(assertProblem(res, 403, name(route)).code, 'USER_TOKEN_REQUIRED');
    });
  }
});

describe("a route taking the API key itself: a person's token → 401 API_KEY_REQUIRED, and an exchanged token unless it takes one", () => {
  const routes = guarded.filter(takesKeyItself);
  test('the catalogue has such routes (the suite is not vacuous)', () => {
    assert.ok(routes.length > 0);
  });
  for (const route of routes) {
    test(name(route), async () => {
      // Straight to inject, not call(): these are the tokens as they are, not the keys.
      const body = encoded(route, exampleBody(route));
      const present = (token: string) =>
        t.app.inject({
          method: route.method,
          url: fill(route.path, {}),
          query: exampleQuery(route),
          headers: { ...body.headers, authorization: `Bearer ${token}` },
          ...(body.payload === undefined ? {} : { payload: body.payload }),
        });
      const person = assertProblem(await present(a.token), 401, `${name(route)} with a person's token`);
      assert.equal(person.code, 'API_KEY_REQUIRED', name(route));
      const exchanged = await present(await keyWith(['full']));
      if (route.keyTokenToo) {
        assert.notEqual(
          exchanged.statusCode,
          401,
          `${name(route)} takes an exchanged token: ${exchanged.body}`,
        );
      } else {
        const refused = assertProblem(exchanged, 401, `${name(route)} with an exchanged token`);
        assert.equal(refused.code, 'API_KEY_REQUIRED', name(route));
      }
      const wrong = `${rawKeyOf.get(a.token)!.slice(0, -4)}AAAA`;
      assertProblem(await present(wrong), 401, `${name(route)} with a key whose secret is wrong`);
    });
  }
});

/** Inbound gateway notifications: public routes whose only credential is the signature. */
const inbound = catalogue.filter((route) => route.auth === 'none' && route.path.startsWith('/webhooks/'));

/** A body as a gateway would post it, naming tenant A's merchant, unsigned. */
function unsignedBody(route: AnyRoute): { payload: string; headers: Record<string, string> } {
  if (route.binaryBody?.includes('application/json'))
    return {
      payload: JSON.stringify({
        id: 'evt_unsigned',
        type: 'payment.succeeded',
        payload: { id: 'p_unsigned', amount: 115000, currency: 'ZAR', metadata: { tenantId: a.tenantId } },
      }),
      headers: { 'content-type': 'application/json' },
    };
  return {
    payload:
      'm_payment_id=x&pf_payment_id=unsigned&payment_status=COMPLETE&amount_gross=1150.00&merchant_id=10000100',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  };
}

describe('an inbound gateway route trusts nothing but the signature', () => {
  test('the catalogue has the inbound routes (the suite is not vacuous)', () => {
    assert.deepEqual(inbound.map(name).sort(), [
      'POST /webhooks/gatewaya/itn/{tenantId}',
      'POST /webhooks/gatewayb/invoice/{tenantId}',
    ]);
  });
  for (const route of inbound) {
    test(`${name(route)}: unsigned, it moves no money and is never trusted; an unknown tenant → 404`, async () => {
      const counts = () =>
        withTenant(t.database.db, a.tenantId, async (tx) => ({
          trusted: (
            await tx.selectFrom('payment_notifications').select('id').where('trusted', '=', true).execute()
          ).length,
          payments: (await tx.selectFrom('invoice_payments').select('id').execute()).length,
        }));
      const before = await counts();
      const { payload, headers } = unsignedBody(route);
      const res = await t.app.inject({
        method: 'POST',
        url: fill(route.path, { tenantId: a.tenantId }),
        payload,
        headers,
      });
      assert.ok(res.statusCode < 500, res.body);
      // Gateway A answers 200 at once (its checks run in the job worker, which refuses it);
      // gateway B refuses at once. Either way nothing is trusted or recorded now.
      assert.ok([200, 401].includes(res.statusCode), `${res.statusCode} ${res.body}`);
      assert.deepEqual(await counts(), before);
      const unknown = await t.app.inject({
        method: 'POST',
        url: fill(route.path, { tenantId: crypto.randomUUID() }),
        payload,
        headers,
      });
      assertProblem(unknown, 404, `${name(route)} for an unknown tenant`);
    });
  }
});

type Schema = {
  type?: unknown;
  maximum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

const takesNumber = (s: Schema): boolean =>
  [s.type].flat().some((t) => t === 'number' || t === 'integer') ||
  [...(s.anyOf ?? []), ...(s.oneOf ?? [])].some(takesNumber);

/** The largest value the schema declares it takes (undefined: no maximum). */
function declaredMaximum(s: Schema): number | undefined {
  if (typeof s.maximum === 'number') return s.maximum;
  if (typeof s.exclusiveMaximum === 'number') return s.exclusiveMaximum - 1;
  const branches = [...(s.anyOf ?? []), ...(s.oneOf ?? [])].filter(takesNumber);
  const maxima = branches.map(declaredMaximum);
  return maxima.length && maxima.every((m) => m !== undefined)
    ? Math.max(...(maxima as number[]))
    : undefined;
}

/**
 * Every number the body's schema takes (lines[0].quantity), where the example has a place for it
 * (its object, or its array's first element), with a setter on a copy of the example.
 */
function numbersIn(
  schema: Schema | undefined,
  example: unknown,
  at = '',
): Array<{ field: string; largest?: number; set: (copy: unknown, v: number) => void }> {
  if (!schema || !example || typeof example !== 'object' || Array.isArray(example)) return [];
  return Object.entries(schema.properties ?? {}).flatMap(([k, p]) => {
    const field = at ? `${at}.${k}` : k;
    if (takesNumber(p))
      return [
        {
          field,
          largest: declaredMaximum(p),
          set: (c: unknown, n: number) => {
            (c as Record<string, unknown>)[k] = n;
          },
        },
      ];
    const value = (example as Record<string, unknown>)[k];
    const inner =
      Array.isArray(value) && p.items
        ? numbersIn(p.items, value[0], `${field}[0]`).map((i) => ({
            ...i,
            set: (c: unknown, n: number) => i.set(((c as Record<string, unknown[]>)[k] ?? [])[0], n),
          }))
        : numbersIn(p, value, field).map((i) => ({
            ...i,
            set: (c: unknown, n: number) => i.set((c as Record<string, unknown>)[k], n),
          }));
    return inner;
  });
}

// Last in the file: these sends change tenant A's records (a payment of the largest amount pays
// an invoice), which the checks above must find as they were made.
// Issue 35: PUT /api/payroll-periods/{id}/inputs/{employeeId} with overtimeHours 1000000000 answered
// the database's "A number is out of range", naming no field (the column is numeric(10,2), the
// schema allowed more). Every number a body's example carries, sent far beyond any column
// (10^17), is refused naming its field (or taken): never the database's refusal, never a 500.
describe("a number beyond its column → 400 naming it, never the database's refusal", () => {
  const writes = catalogue.filter(
    (r) => r.auth !== 'none' && r.method !== 'GET' && r.body && r.consumes !== MULTIPART_CONTENT_TYPE,
  );
  // Every route's ids first: a create sent here with a large number must not take the name its
  // example gives before the route that needs that create for its path has made it.
  before(async () => {
    for (const route of writes) await idsOfTenantA(route);
  });
  for (const route of writes) {
    const numbers = numbersIn(route.body as Schema, exampleBody(route));
    if (!numbers.length) continue;
    test(name(route), async () => {
      const ids = await idsOfTenantA(route);
      const api = as(t.app, a.token, route.companyScoped ? a.companyId : undefined);
      const send = (body: unknown) =>
        api({
          method: route.method,
          url: fill(route.path, ids),
          query: exampleQuery(route),
          payload: body as object,
        });
      // A field the example itself is refused for (a state the record is not in) is not the number's.
      const plain = await send(exampleBody(route));
      const refusedAnyway = plain.statusCode === 400 ? String(plain.json().field ?? '') : undefined;
      for (const n of numbers) {
        // Far beyond any column, and the largest the schema declares: each is refused naming a
        // field the body has, or taken.
        for (const value of [1e17, ...(n.largest === undefined ? [] : [n.largest])]) {
          const body = exampleBody(route);
          n.set(body, value);
          const res = await send(body);
          const what = `${name(route)} ${n.field}=${value}`;
          assert.ok(res.statusCode < 500, `${what}: ${res.body}`);
          if (res.statusCode !== 400) continue;
          const field = String(res.json().field ?? '');
          assert.ok(field, `${what} names no field: ${res.body}`);
          if (field === refusedAnyway) continue;
          const top = field.split(/[.[]/)[0]!;
          assert.ok(top in (body as object), `${what} names ${field}, which the body does not have`);
        }
      }
    });
  }
});
