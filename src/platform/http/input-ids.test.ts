// Ids typed in capitals (input-rules.ts): a `format: uuid` value is lower-cased where requests
// are validated, for every route, so the handler, its SQL and the Maps services key by id all
// see the one form. Issue 15, defect 2: GET /api/invoices/{ID}/pdf, …/release, …/send and
// …/payments answered 500 (a Map keyed by the id as typed, invoices.queries.ts).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Type } from 'typebox';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { catalogue } from '../../catalogue.ts';
import { createDoc, release, type Sales, salesSetup } from '../../modules/invoices/invoices.factories.ts';
import { defineRoute } from './catalogue.ts';

// A route that answers its parameters as the handler sees them.
const echo = defineRoute({
  method: 'GET',
  path: '/test/echo/{id}',
  module: 'platform',
  access: 'read',
  auth: 'none',
  summary: 'Answers its parameters',
  params: Type.Object({ id: Type.String({ format: 'uuid' }) }),
  query: Type.Object({ other: Type.Optional(Type.String({ format: 'uuid' })) }),
  response: { 200: Type.Object({ id: Type.String(), other: Type.Optional(Type.String()) }) },
  handler: async ({ params, query }) => ({ id: params.id, ...query }),
});

let t: TestApp;
let b: Registered;
let s: Sales;
before(async () => {
  t = await startTestApp({ extraRoutes: [echo] });
  b = await register(t.app);
  s = await salesSetup(t, b);
});
after(() => t.close());

const upper = (id: string) => id.toUpperCase();

describe('ids in capitals', () => {
  test('the handler sees a path id (and a query id) in lower case', async () => {
    const id = crypto.randomUUID();
    const res = await t.app.inject({ method: 'GET', url: `/test/echo/${upper(id)}?other=${upper(id)}` });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(res.json(), { id, other: id });
  });

  test("the issue's routes answer an id in capitals as the id in lower case", async () => {
    const draft = await createDoc(s);
    const released = await release(s, upper(draft.id));
    assert.equal(released.id, draft.id);
    assert.notEqual(released.status, 'draft');

    const pdf = await s.api({ method: 'GET', url: `/api/invoices/${upper(draft.id)}/pdf` });
    assert.equal(pdf.statusCode, 200, pdf.body);
    assert.equal(pdf.headers['content-type'], 'application/pdf');

    const sent = await s.api({ method: 'POST', url: `/api/invoices/${upper(draft.id)}/send`, payload: {} });
    assert.equal(sent.statusCode, 202, sent.body);

    const paid = await s.api({
      method: 'POST',
      url: `/api/invoices/${upper(draft.id)}/payments`,
      payload: { amount: 100, date: '2026-03-10' },
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const after = await s.api({ method: 'GET', url: `/api/invoices/${draft.id}` });
    assert.equal(after.json().amountPaid, 100);
  });

  test('an id in a body in capitals is stored in lower case', async () => {
    const doc = await createDoc(s, { contactId: upper(s.customerId) });
    assert.equal(doc.contactId, s.customerId);
  });

  test('the urn:uuid: form is not an id: a 400 naming the parameter', async () => {
    const res = await s.api({ method: 'GET', url: `/api/invoices/urn:uuid:${crypto.randomUUID()}` });
    assert.equal(res.statusCode, 400, res.body);
    assert.equal(res.json().field, 'id');
  });
});

/**
 * Path parameters that are opaque, case-sensitive tokens (a capability in the address), by
 * "METHOD path" → why: there is nothing to normalise, and changing a letter's case makes
 * another token.
 */
const OPAQUE_TOKENS: Record<string, string> = {
  'GET /pay/{token}': "a payment link's token (base64url: the tenant's id and 18 random bytes)",
};

describe('every path parameter of the catalogue', () => {
  test('is an id (format uuid, so normalised), one of a closed list, a key of digits, or a union of those', () => {
    type Param = { format?: string; enum?: unknown; anyOf?: Param[]; pattern?: string };
    // A key of digits and punctuation only (a VAT period's YYYY-MM) has no case to normalise.
    const digitsOnly = (p: Param) =>
      typeof p.pattern === 'string' && !/[a-zA-Z]/.test(p.pattern.replaceAll('\\d', ''));
    const closed = (p: Param): boolean =>
      p.format === 'uuid' ||
      Array.isArray(p.enum) ||
      digitsOnly(p) ||
      (Array.isArray(p.anyOf) && p.anyOf.every(closed));
    for (const route of catalogue) {
      if (`${route.method} ${route.path}` in OPAQUE_TOKENS) continue;
      for (const name of route.path.match(/\{(\w+)\}/g) ?? []) {
        const param = (route.params as { properties?: Record<string, Param> })?.properties?.[
          name.slice(1, -1)
        ];
        assert.ok(param, `${route.method} ${route.path}: ${name} has no schema`);
        assert.ok(closed(param), `${route.method} ${route.path}: ${name}`);
      }
    }
  });

  test('an unknown id in capitals is answered as in lower case, never a 5xx', async () => {
    const api = as(t.app, b.token, b.companyId);
    for (const route of catalogue) {
      if (!/\{\w+\}/.test(route.path) || route.auth === 'none') continue;
      const id = crypto.randomUUID();
      const at = (value: string) => route.path.replace(/\{\w+\}/g, value);
      const payload = route.method === 'GET' || route.method === 'DELETE' ? {} : { payload: {} };
      const lower = await api({ method: route.method, url: at(id), ...payload });
      const capitals = await api({ method: route.method, url: at(upper(id)), ...payload });
      const where = `${route.method} ${route.path}`;
      assert.ok(capitals.statusCode < 500, `${where}: ${capitals.statusCode} ${capitals.body}`);
      assert.equal(capitals.statusCode, lower.statusCode, `${where}: ${capitals.body} / ${lower.body}`);
    }
  });
});
