// Test keys: made with X-Company-Id naming the sandbox company, they start bpk_test_, say
// mode "test", and their tokens act on the sandbox company only: another company, or a write
// to the records the sandbox shares with the live companies, is 403 TEST_KEY_SANDBOX_ONLY.
// Live keys are unaffected.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { exchange, keyToken } from './api-keys.factories.ts';

let t: TestApp;
let a: Registered;
let sandbox: { id: string; customerIds: string[] };
before(async () => {
  t = await startTestApp({ jobsWork: false });
  // Enterprise: room for every key these tests make (business allows five).
  a = await register(t.app, { plan: 'enterprise', companyName: 'Live Co' });
  const res = await as(t.app, a.token)({ method: 'POST', url: '/api/sandbox' });
  assert.equal(res.statusCode, 201, res.body);
  sandbox = res.json();
});
after(() => t.close());

function createKey(companyId: string | undefined, payload: object = {}) {
  return as(
    t.app,
    a.token,
    companyId,
  )({
    method: 'POST',
    url: '/api/api-keys',
    payload: { name: 'Key', owner: 'business', scopes: ['full'], ...payload },
  });
}

const invoice = (contactId: string) => ({
  contactId,
  documentType: 'invoice',
  issueDate: '2026-03-02',
  dueDate: '2026-04-01',
  lines: [{ description: 'Consulting', quantity: 1, unitPrice: 100 }],
});

describe('making a test key', () => {
  test('X-Company-Id naming the sandbox makes a bpk_test_ key with mode "test"', async () => {
    const res = await createKey(sandbox.id);
    assert.equal(res.statusCode, 201, res.body);
    const made = res.json();
    assert.match(made.key, /^bpk_test_[0-9a-f-]{36}\.[0-9a-f-]{36}\.[\w-]{43}$/);
    assert.equal(made.mode, 'test');
    assert.equal(made.prefix, 'bpk_test_');
    const listed = await as(t.app, a.token)({ method: 'GET', url: `/api/api-keys/${made.id}` });
    assert.equal(listed.json().mode, 'test');
    assert.equal((await exchange(t.app, made.key)).statusCode, 200);
  });

  test('no X-Company-Id, or a live company, makes a live key (bpk_live_)', async () => {
    for (const companyId of [undefined, a.companyId]) {
      const res = await createKey(companyId);
      assert.equal(res.statusCode, 201, res.body);
      assert.match(res.json().key, /^bpk_live_/);
      assert.equal(res.json().mode, 'live');
    }
  });

  test("another business's company is a 404; a malformed X-Company-Id is a 400 naming it", async () => {
    const b = await register(t.app, { plan: 'business' });
    assertProblem(await createKey(b.companyId), 404);
    assert.equal(assertProblem(await createKey('not-a-uuid'), 400).field, 'X-Company-Id');
  });

  test("a test key's secret presented with the live prefix is not a key (401)", async () => {
    const made = (await createKey(sandbox.id)).json();
    assertProblem(await exchange(t.app, made.key.replace(/^bpk_test_/, 'bpk_live_')), 401);
  });
});

describe("a test key's token", () => {
  let token: string;
  before(async () => {
    const made = await createKey(sandbox.id);
    token = await keyToken(t.app, made.json().key);
  });

  test('creates and reads invoices in the sandbox company', async () => {
    const api = as(t.app, token, sandbox.id);
    const res = await api({
      method: 'POST',
      url: '/api/invoices',
      payload: invoice(sandbox.customerIds[0]!),
    });
    assert.equal(res.statusCode, 201, res.body);
    assert.equal((await api({ method: 'GET', url: '/api/invoices' })).statusCode, 200);
    assert.equal((await api({ method: 'GET', url: `/api/invoices/${res.json().id}` })).statusCode, 200);
  });

  test('cannot read or write another company: 403 TEST_KEY_SANDBOX_ONLY', async () => {
    const live = as(t.app, token, a.companyId);
    const read = assertProblem(await live({ method: 'GET', url: '/api/invoices' }), 403);
    assert.equal(read.code, 'TEST_KEY_SANDBOX_ONLY');
    const write = await live({
      method: 'POST',
      url: '/api/invoices',
      payload: invoice(sandbox.customerIds[0]!),
    });
    assert.equal(assertProblem(write, 403).code, 'TEST_KEY_SANDBOX_ONLY');
    // A company outside the business stays a 404, as for every caller.
    const b = await register(t.app, { plan: 'business' });
    assertProblem(await as(t.app, token, b.companyId)({ method: 'GET', url: '/api/invoices' }), 404);
  });

  test("cannot write the business's shared records (contacts, webhooks, companies, keys)", async () => {
    const api = as(t.app, token);
    const writes = [
      { method: 'POST', url: '/api/contacts', payload: { name: 'Test Stores', contactType: 'CUSTOMER' } },
      {
        method: 'POST',
        url: '/api/webhooks',
        payload: { url: 'https://hooks.example.com/in', eventTypes: ['invoice.created'] },
      },
      { method: 'POST', url: '/api/companies', payload: { name: 'From a test key' } },
      { method: 'DELETE', url: `/api/contacts/${sandbox.customerIds[0]}` },
    ] as const;
    for (const w of writes) {
      const res = await api(w);
      assert.equal(assertProblem(res, 403).code, 'TEST_KEY_SANDBOX_ONLY', `${w.method} ${w.url}`);
    }
  });

  test("reads the business's shared records (contacts, companies)", async () => {
    const api = as(t.app, token);
    const contacts = await api({ method: 'GET', url: '/api/contacts' });
    assert.equal(contacts.statusCode, 200, contacts.body);
    assert.ok(contacts.json().items.length > 0);
    assert.equal((await api({ method: 'GET', url: '/api/companies' })).statusCode, 200);
  });
});

test('a live key is unaffected: any company, and shared records, read and written', async () => {
  const made = await createKey(undefined);
  assert.equal(made.statusCode, 201, made.body);
  const token = await keyToken(t.app, made.json().key);
  const contact = await as(
    t.app,
    token,
  )({ method: 'POST', url: '/api/contacts', payload: { name: 'Live Stores', contactType: 'CUSTOMER' } });
  assert.equal(contact.statusCode, 201, contact.body);
  for (const companyId of [a.companyId, sandbox.id]) {
    const res = await as(
      t.app,
      token,
      companyId,
    )({ method: 'POST', url: '/api/invoices', payload: invoice(contact.json().id) });
    assert.equal(res.statusCode, 201, res.body);
  }
});
