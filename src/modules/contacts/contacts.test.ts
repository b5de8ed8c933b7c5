// Contacts over HTTP: every field, clientId, validation, PATCH, soft delete, tenancy, the list.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertBadRequest, createContact as create } from './contacts.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Api = ReturnType<typeof as>;

/** Every field of the spec's Contact that a caller sets. */
const FULL = {
  contactType: 'SUPPLIER',
  name: 'Umhlanga Fresh Produce (Pty) Ltd',
  tradingName: 'Umhlanga Fresh',
  email: 'orders@umhlangafresh.co.za',
  phone: '+27 31 555 0199',
  mobile: '+27 83 555 0199',
  vatNumber: '4987654321',
  registrationNo: '2015/987654/07',
  addressLine1: 'Unit 4, Gateway Park',
  addressLine2: '1 Palm Boulevard',
  city: 'Umhlanga',
  province: 'KwaZulu-Natal',
  postalCode: '4319',
  country: 'South Africa',
  postalAddressLine1: 'PO Box 1234',
  postalAddressLine2: 'Umhlanga Rocks',
  postalCity: 'Durban',
  postalProvince: 'KwaZulu-Natal',
  postalPostalCode: '4320',
  postalCountry: 'South Africa',
  currency: 'USD',
  notes: 'Deliveries before 10:00 only.',
  creditLimit: 12500.5,
  paymentTerms: 45,
  isActive: false,
  tags: ['produce', 'kzn'],
};

async function list(api: Api, query: string) {
  const res = await api({ method: 'GET', url: `/api/contacts?${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json() as {
    items: Array<{ id: string; name: string; contactType: string }>;
    total: number;
    page: number;
    limit: number;
    totalPages: number;
  };
}

describe('contacts: create, read, change', () => {
  let a: Registered;
  let api: Api;
  before(async () => {
    a = await register(t.app);
    api = as(t.app, a.token);
  });

  test('every field of the spec round-trips through create, get and list', async () => {
    const created = await create(api, FULL);
    const expected = {
      ...FULL,
      id: created.id,
      tenantId: a.tenantId,
      creditUsed: 0,
      createdAt: created.createdAt,
      updatedAt: created.updatedAt,
      deletedAt: null,
    };
    assert.deepEqual(created, expected);
    assert.equal(typeof created.creditLimit, 'number');
    assert.match(String(created.createdAt), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const got = await api({ method: 'GET', url: `/api/contacts/${created.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), expected);

    const listed = await list(api, 'tag=produce');
    assert.deepEqual(listed.items, [expected]);
  });

  test('defaults: CUSTOMER, ZAR, 30 days, active, no credit limit, no tags; blank text is null', async () => {
    const c = await create(api, { name: '  Thandi Nkosi  ', email: null, city: '   ' });
    assert.equal(c.name, 'Thandi Nkosi');
    assert.equal(c.contactType, 'CUSTOMER');
    assert.equal(c.currency, 'ZAR');
    assert.equal(c.paymentTerms, 30);
    assert.equal(c.isActive, true);
    assert.equal(c.creditLimit, null);
    assert.equal(c.creditUsed, 0);
    assert.deepEqual(c.tags, []);
    assert.equal(c.email, null);
    assert.equal(c.city, null);
    assert.equal(c.tradingName, null);
  });

  test('contactType is one of the enum values exactly (another case is a 400); tags are trimmed and kept once', async () => {
    const c = await create(api, {
      name: 'Sipho Dlamini',
      contactType: 'TAX_PRACTITIONER',
      tags: [' VIP ', 'vip', 'Gauteng'],
    });
    assert.equal(c.contactType, 'TAX_PRACTITIONER');
    assert.deepEqual(c.tags, ['VIP', 'Gauteng']);
    assertBadRequest(
      await api({
        method: 'POST',
        url: '/api/contacts',
        payload: { name: 'X', contactType: 'tax_practitioner' },
      }),
      'contactType',
    );
  });

  test('clientId: 201 creates with that id, 200 answers the existing record unchanged, non-UUID is 400', async () => {
    const clientId = crypto.randomUUID();
    const first = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { clientId, name: 'Once Only' },
    });
    assert.equal(first.statusCode, 201, first.body);
    assert.equal(first.json().id, clientId);
    const again = await api({
      method: 'POST',
      url: '/api/contacts',
      payload: { clientId: clientId.toUpperCase(), name: 'Changed name' },
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().id, clientId);
    assert.equal(again.json().name, 'Once Only');
    assertBadRequest(
      await api({ method: 'POST', url: '/api/contacts', payload: { clientId: 'abc-123', name: 'X' } }),
      'clientId',
    );
  });

  test('two concurrent creates with one clientId make one contact', async () => {
    const clientId = crypto.randomUUID();
    const payload = { clientId, name: 'Twin Contact', tags: ['twin-test'] };
    const [r1, r2] = await Promise.all([
      api({ method: 'POST', url: '/api/contacts', payload }),
      api({ method: 'POST', url: '/api/contacts', payload }),
    ]);
    assert.deepEqual([r1.statusCode, r2.statusCode].sort(), [200, 201]);
    assert.equal(r1.json().id, clientId);
    assert.equal(r2.json().id, clientId);
    const listed = await list(api, 'tag=twin-test');
    assert.equal(listed.total, 1);
  });

  test('bad input is a 400 naming the field', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{}, 'name'],
      [{ name: 'X', contactType: 'VENDOR' }, 'contactType'],
      [{ name: 'X', email: 'not-an-address' }, 'email'],
      [{ name: 'X', creditLimit: 10.123 }, 'creditLimit'],
      [{ name: 'X', creditLimit: -1 }, 'creditLimit'],
      [{ name: 'X', creditLimit: 'lots' }, 'creditLimit'],
      [{ name: 'X', paymentTerms: 1.5 }, 'paymentTerms'],
      [{ name: 'X', currency: 'rand' }, 'currency'],
      [{ name: 'X', tags: [''] }, 'tags'],
      [{ name: 'X', tags: [{}] }, 'tags'],
    ];
    for (const [payload, field] of cases) {
      assertBadRequest(await api({ method: 'POST', url: '/api/contacts', payload }), field);
    }
    assertBadRequest(await api({ method: 'GET', url: '/api/contacts/not-a-uuid' }), 'id');
  });

  test('PATCH changes only what is sent; null clears; tags replace', async () => {
    const c = await create(api, { name: 'Patch Me', email: 'a@b.co.za', creditLimit: 100, tags: ['one'] });
    t.clock.advance(1000);
    const res = await api({
      method: 'PATCH',
      url: `/api/contacts/${c.id}`,
      payload: { email: null, creditLimit: null, contactType: 'SUPPLIER', tags: ['two'], city: 'Polokwane' },
    });
    assert.equal(res.statusCode, 200, res.body);
    const p = res.json();
    assert.equal(p.name, 'Patch Me');
    assert.equal(p.email, null);
    assert.equal(p.creditLimit, null);
    assert.equal(p.contactType, 'SUPPLIER');
    assert.deepEqual(p.tags, ['two']);
    assert.equal(p.city, 'Polokwane');
    assert.equal(p.createdAt, c.createdAt);
    assert.ok(p.updatedAt > String(c.updatedAt), 'updatedAt moves');
    // 0 is a limit of nothing, not "no limit"; "" is blank text (null)
    const zero = await api({
      method: 'PATCH',
      url: `/api/contacts/${c.id}`,
      payload: { creditLimit: 0, city: '' },
    });
    assert.equal(zero.json().creditLimit, 0);
    assert.equal(zero.json().city, null);
    assertBadRequest(
      await api({ method: 'PATCH', url: `/api/contacts/${c.id}`, payload: { name: null } }),
      'name',
    );
    assertBadRequest(
      await api({ method: 'PATCH', url: `/api/contacts/${c.id}`, payload: { contactType: 'friend' } }),
      'contactType',
    );
  });

  test('soft delete: 204, then 404 everywhere, gone from the list, the clientId is not reused', async () => {
    const clientId = crypto.randomUUID();
    const c = await create(api, { clientId, name: 'Short Lived', tags: ['delete-test'] });
    assert.equal((await list(api, 'tag=delete-test')).total, 1);
    const del = await api({ method: 'DELETE', url: `/api/contacts/${c.id}` });
    assert.equal(del.statusCode, 204);
    assert.equal(del.body, '');
    for (const [method, url] of [
      ['GET', `/api/contacts/${c.id}`],
      ['PATCH', `/api/contacts/${c.id}`],
      ['DELETE', `/api/contacts/${c.id}`],
      ['GET', `/api/contacts/${c.id}/consent`],
    ] as const) {
      const res = await api({ method, url, ...(method === 'PATCH' ? { payload: { name: 'Back' } } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    assert.equal((await list(api, 'tag=delete-test')).total, 0);
    const reuse = await api({ method: 'POST', url: '/api/contacts', payload: { clientId, name: 'Again' } });
    assert.equal(reuse.statusCode, 409, reuse.body);
    assert.match(reuse.json().detail, /clientId/);
    // The row is still there (history is not erased), marked deleted.
    const audit = await api({ method: 'GET', url: '/api/audit-log?resource=contacts' });
    assert.equal(audit.statusCode, 200, audit.body);
    const actions = (audit.json().items as Array<{ action: string; resourceId: string }>)
      .filter((e) => e.resourceId === c.id)
      .map((e) => e.action);
    assert.deepEqual(actions.sort(), ['DELETE /api/contacts/{id}', 'POST /api/contacts']);
  });

  test("another tenant's contact is a 404 and never listed; X-Company-Id is ignored", async () => {
    const c = await create(api, { name: 'Private To A', tags: ['tenant-a-only'] });
    const b = await register(t.app);
    const apiB = as(t.app, b.token, b.companyId);
    for (const [method, url] of [
      ['GET', `/api/contacts/${c.id}`],
      ['PATCH', `/api/contacts/${c.id}`],
      ['DELETE', `/api/contacts/${c.id}`],
      ['GET', `/api/contacts/${c.id}/consent`],
      ['POST', `/api/contacts/${c.id}/consent`],
    ] as const) {
      const payload =
        method === 'PATCH'
          ? { name: 'Hijack' }
          : method === 'POST'
            ? { channel: 'email', status: 'granted', method: 'verbal' }
            : undefined;
      const res = await apiB({ method, url, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
    assert.equal((await list(apiB, 'tag=tenant-a-only')).total, 0);
    // A's own list is the same with or without a company header.
    const withHeader = await list(as(t.app, a.token, a.companyId), 'tag=tenant-a-only');
    assert.equal(withHeader.total, 1);
    const untouched = await api({ method: 'GET', url: `/api/contacts/${c.id}` });
    assert.equal(untouched.json().name, 'Private To A');
  });
});

describe('contacts: the list', () => {
  let api: Api;
  const ids: Record<string, string> = {};
  before(async () => {
    const a = await register(t.app);
    api = as(t.app, a.token);
    const people: Array<Record<string, unknown>> = [
      { name: 'Aardvark Plumbing', contactType: 'SUPPLIER', phone: '011 555 1234', tags: ['trade', 'JHB'] },
      { name: 'bafana Bakery', contactType: 'CUSTOMER', email: 'hello@bafana.co.za', tags: ['jhb'] },
      {
        name: 'Cape Coffee Co',
        tradingName: 'Bean There',
        contactType: 'CUSTOMER',
        vatNumber: '4111222333',
        tags: ['trade'],
      },
      { name: 'Dineo Mokoena', contactType: 'EMPLOYEE', isActive: false },
      { name: 'Eagle Tax Advisors', contactType: 'TAX_PRACTITIONER', email: 'eagle@tax.co.za' },
      { name: '100% Pure Juice', contactType: 'CUSTOMER' },
    ];
    for (const p of people) ids[String(p.name)] = String((await create(api, p)).id);
  });

  const names = (page: { items: Array<{ name: string }> }) => page.items.map((i) => i.name);

  test('ordered by name in any case, then id; the envelope counts everything', async () => {
    const all = await list(api, '');
    assert.deepEqual(names(all), [
      '100% Pure Juice',
      'Aardvark Plumbing',
      'bafana Bakery',
      'Cape Coffee Co',
      'Dineo Mokoena',
      'Eagle Tax Advisors',
    ]);
    assert.equal(all.total, 6);
    assert.equal(all.page, 1);
    assert.equal(all.limit, 50);
    assert.equal(all.totalPages, 1);
  });

  test('type filter in any case (the spec: case-insensitive); anything else is a 400 naming type', async () => {
    const page = await list(api, 'type=CUSTOMER');
    assert.deepEqual(names(page), ['100% Pure Juice', 'bafana Bakery', 'Cape Coffee Co']);
    assert.ok(page.items.every((i) => i.contactType === 'CUSTOMER'));
    assert.deepEqual(names(await list(api, 'type=TAX_PRACTITIONER')), ['Eagle Tax Advisors']);
    assert.deepEqual(names(await list(api, 'type=EMPLOYEE')), ['Dineo Mokoena']);
    assert.deepEqual(names(await list(api, 'type=customer')), names(page));
    assert.deepEqual(names(await list(api, 'type=Employee')), ['Dineo Mokoena']);
    for (const bad of ['VENDOR', 'customers', '']) {
      const res = await api({ method: 'GET', url: `/api/contacts?type=${bad}` });
      assertBadRequest(res, 'type');
      assert.equal(res.json().field, 'type');
    }
  });

  test('q looks in name, tradingName, email, phone and vatNumber, in any case; % is literal', async () => {
    assert.deepEqual(names(await list(api, 'q=BAKERY')), ['bafana Bakery']);
    assert.deepEqual(names(await list(api, 'q=bean%20there')), ['Cape Coffee Co']);
    assert.deepEqual(names(await list(api, 'q=%40TAX.co')), ['Eagle Tax Advisors']);
    assert.deepEqual(names(await list(api, 'q=555%201234')), ['Aardvark Plumbing']);
    assert.deepEqual(names(await list(api, 'q=4111222')), ['Cape Coffee Co']);
    assert.deepEqual(names(await list(api, 'q=%25')), ['100% Pure Juice']);
    assert.deepEqual(names(await list(api, 'q=nobody-has-this')), []);
    // Filters combine.
    assert.deepEqual(names(await list(api, 'q=co&type=CUSTOMER')), ['bafana Bakery', 'Cape Coffee Co']);
  });

  test('tag filter in any case; several tags must all be carried; isActive filter', async () => {
    assert.deepEqual(names(await list(api, 'tag=JHB')), ['Aardvark Plumbing', 'bafana Bakery']);
    assert.deepEqual(names(await list(api, 'tag=trade')), ['Aardvark Plumbing', 'Cape Coffee Co']);
    assert.deepEqual(names(await list(api, 'tag=trade&tag=jhb')), ['Aardvark Plumbing']);
    assert.deepEqual(names(await list(api, 'tag=nothing')), []);
    assert.deepEqual(names(await list(api, 'isActive=false')), ['Dineo Mokoena']);
    assert.equal((await list(api, 'isActive=true')).total, 5);
    assertBadRequest(await api({ method: 'GET', url: '/api/contacts?isActive=maybe' }), 'isActive');
  });

  test('paging: limit and page apply after the filters; past the end is empty with the same total', async () => {
    const p1 = await list(api, 'limit=2');
    assert.deepEqual(names(p1), ['100% Pure Juice', 'Aardvark Plumbing']);
    assert.deepEqual([p1.total, p1.page, p1.limit, p1.totalPages], [6, 1, 2, 3]);
    const p3 = await list(api, 'limit=2&page=3');
    assert.deepEqual(names(p3), ['Dineo Mokoena', 'Eagle Tax Advisors']);
    const past = await list(api, 'limit=2&page=9');
    assert.deepEqual(past.items, []);
    assert.deepEqual([past.total, past.page, past.totalPages], [6, 9, 3]);
    const filtered = await list(api, 'type=CUSTOMER&limit=2&page=2');
    assert.deepEqual(names(filtered), ['Cape Coffee Co']);
    assert.deepEqual([filtered.total, filtered.totalPages], [3, 2]);
    assert.equal((await list(api, 'limit=0')).limit, 50);
    assert.equal((await list(api, 'limit=-5')).limit, 50);
    assert.equal((await list(api, 'limit=5000')).limit, 200);
    assert.equal((await list(api, 'page=0')).page, 1);
  });
});
