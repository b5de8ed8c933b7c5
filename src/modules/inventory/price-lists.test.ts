// Price lists over HTTP: CRUD with prices, a contact's list (own, else by tag) in the spec's shape,
// and a sales line naming a product without a unitPrice priced from it. Plans below Business have
// no price lists.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let capi: ReturnType<typeof as>;
let book: { id: string };
let large: { id: string };
let small: { id: string };

before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app, { plan: 'business' });
  api = as(t.app, a.token);
  capi = as(t.app, a.token, a.companyId);
  // VAT-registered, so that the invoices below charge 15%.
  const vat = await capi({
    method: 'PATCH',
    url: `/api/companies/${a.companyId}`,
    payload: { vatRegistered: true, vatRegisteredFrom: '2017-01-01', vatNumber: '4123456789' },
  });
  assert.equal(vat.statusCode, 200, vat.body);
  book = await post('/api/inventory/products', { sku: 'BOOK', name: 'Book', unitPrice: 100 });
  // Variants: Large has its own price (R120), Small takes the product's.
  large = await post(`/api/inventory/products/${book.id}/variants`, {
    sku: 'BOOK-L',
    name: 'Large',
    unitPrice: 120,
  });
  small = await post(`/api/inventory/products/${book.id}/variants`, { sku: 'BOOK-S', name: 'Small' });
});
after(() => t.close());

async function post(url: string, payload: Record<string, unknown>, as_ = api) {
  const res = await as_({ method: 'POST', url, payload });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

async function customer(name: string, tags: string[] = []) {
  return post('/api/contacts', { contactType: 'CUSTOMER', name, tags });
}

async function priceListOf(contactId: string, query = '') {
  const res = await api({ method: 'GET', url: `/api/contacts/${contactId}/price-list${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

describe('price lists', () => {
  test('create with prices, read, PATCH, PUT prices replaces the set, paged list, soft delete', async () => {
    const list = await post('/api/inventory/price-lists', {
      name: ' Retail ',
      contactTags: ['retail', ' retail'],
      prices: [
        { productId: book.id, unitPrice: 95.5 },
        { productId: book.id, variantId: large.id, unitPrice: 110 },
      ],
    });
    assert.deepEqual(
      [list.name, list.companyId, list.currency, list.contactTags, list.isActive, list.deletedAt],
      ['Retail', null, 'ZAR', ['retail'], true, null],
    );
    assert.deepEqual(list.prices, [
      { productId: book.id, variantId: null, unitPrice: 95.5 },
      { productId: book.id, variantId: large.id, unitPrice: 110 },
    ]);
    const url = `/api/inventory/price-lists/${list.id}`;
    assert.deepEqual((await api({ method: 'GET', url })).json(), list);

    const patched = await api({ method: 'PATCH', url, payload: { companyId: a.companyId, isActive: false } });
    assert.deepEqual([patched.json().companyId, patched.json().isActive], [a.companyId, false]);
    const put = await api({
      method: 'PUT',
      url: `${url}/prices`,
      payload: { prices: [{ productId: book.id, variantId: small.id, unitPrice: 90 }] },
    });
    assert.equal(put.statusCode, 200, put.body);
    assert.deepEqual(put.json().prices, [{ productId: book.id, variantId: small.id, unitPrice: 90 }]);

    // 400 naming the price: twice the same item, a variant of another product, an unknown product.
    const other = await post('/api/inventory/products', { sku: 'PEN', name: 'Pen', unitPrice: 5 });
    const bad: Array<[unknown[], string]> = [
      [
        [
          { productId: book.id, unitPrice: 1 },
          { productId: book.id, unitPrice: 2 },
        ],
        'prices[1]',
      ],
      [[{ productId: other.id, variantId: large.id, unitPrice: 1 }], 'prices[0].variantId'],
      [[{ productId: crypto.randomUUID(), unitPrice: 1 }], 'prices[0].productId'],
      [[{ productId: book.id, unitPrice: 1.00001 }], 'prices[0].unitPrice'],
    ];
    for (const [prices, field] of bad)
      assertProblem(await api({ method: 'PUT', url: `${url}/prices`, payload: { prices } }), 400, field);

    const dup = await api({ method: 'POST', url: '/api/inventory/price-lists', payload: { name: 'RETAIL' } });
    assert.equal(assertProblem(dup, 409).field, 'name');
    assertProblem(
      await api({
        method: 'POST',
        url: '/api/inventory/price-lists',
        payload: { name: 'X', companyId: crypto.randomUUID() },
      }),
      400,
      'companyId',
    );

    const page = (await api({ method: 'GET', url: '/api/inventory/price-lists?limit=1' })).json();
    assert.deepEqual([page.items.length, page.limit], [1, 1]);
    assert.ok(page.total >= 1);
    assert.equal((await api({ method: 'DELETE', url })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url }), 404);
    const all = (await api({ method: 'GET', url: '/api/inventory/price-lists' })).json();
    assert.ok(!all.items.some((i: { id: string }) => i.id === list.id));
  });

  test("a contact's list in the spec's shape: its own, else the first active by name whose tags meet, else null", async () => {
    const trade = await post('/api/inventory/price-lists', {
      name: 'Trade',
      contactTags: ['trade', 'wholesale'],
      prices: [{ productId: book.id, unitPrice: 80 }],
    });
    // Inactive, and first by name: not taken.
    await post('/api/inventory/price-lists', { name: 'Abandoned', contactTags: ['trade'], isActive: false });
    const vip = await post('/api/inventory/price-lists', { name: 'VIP', prices: [] });
    const tagged = await customer('Tagged Traders', ['wholesale']);
    const plain = await customer('Plain Customer');
    const own = await customer('Own List Ltd', ['trade']);

    assert.deepEqual(await priceListOf(tagged.id), {
      contactId: tagged.id,
      priceList: {
        id: trade.id,
        name: 'Trade',
        companyId: null,
        prices: [{ productId: book.id, variantId: null, unitPrice: 80 }],
      },
    });
    assert.deepEqual(await priceListOf(plain.id), { contactId: plain.id, priceList: null });

    // Its own list wins over its tag.
    const set = await api({
      method: 'PUT',
      url: `/api/inventory/price-lists/${vip.id}/contacts`,
      payload: { contactIds: [own.id] },
    });
    assert.deepEqual(set.json(), { priceListId: vip.id, contactIds: [own.id] });
    assert.equal((await priceListOf(own.id)).priceList.id, vip.id);
    assert.deepEqual(
      (await api({ method: 'GET', url: `/api/inventory/price-lists/${vip.id}/contacts` })).json().contactIds,
      [own.id],
    );
    assertProblem(
      await api({
        method: 'PUT',
        url: `/api/inventory/price-lists/${vip.id}/contacts`,
        payload: { contactIds: [own.id, crypto.randomUUID()] },
      }),
      400,
      'contactIds[1]',
    );
    // [] clears: back to its tag's list.
    await api({
      method: 'PUT',
      url: `/api/inventory/price-lists/${vip.id}/contacts`,
      payload: { contactIds: [] },
    });
    assert.equal((await priceListOf(own.id)).priceList.id, trade.id);

    assertProblem(await api({ method: 'GET', url: `/api/contacts/${crypto.randomUUID()}/price-list` }), 404);
    const b = await register(t.app, { plan: 'business' });
    assertProblem(
      await as(t.app, b.token)({ method: 'GET', url: `/api/contacts/${tagged.id}/price-list` }),
      404,
    );
  });

  test('a product line without unitPrice takes the list price: 3 × R80 = R240.00 + VAT 15% R36.00 = R276.00', async () => {
    const buyer = await customer('Trade Buyer', ['trade']);
    const walkIn = await customer('Walk-in');
    const invoice = async (contactId: string, lines: unknown[]) =>
      capi({
        method: 'POST',
        url: '/api/invoices',
        payload: {
          contactId,
          documentType: 'invoice',
          issueDate: '2026-06-02',
          dueDate: '2026-07-02',
          lines,
        },
      });
    // The Trade list (previous test) prices the book at R80 (the book's own price is R100).
    const res = await invoice(buyer.id, [{ description: 'Book', quantity: 3, productId: book.id }]);
    assert.equal(res.statusCode, 201, res.body);
    const inv = res.json();
    assert.deepEqual([inv.lines[0].unitPrice, inv.subtotal, inv.vatTotal, inv.total], [80, 240, 36, 276]);
    // Small (no item of its own in Trade) takes the product-level item, R80; Large too, as the
    // list's product item comes before the variant's own price.
    const variants = await invoice(buyer.id, [
      { description: 'Small', quantity: 1, productId: book.id, variantId: small.id },
      { description: 'Large', quantity: 1, productId: book.id, variantId: large.id },
    ]);
    assert.deepEqual(
      variants.json().lines.map((l: { unitPrice: number }) => l.unitPrice),
      [80, 80],
    );
    // No list: the book. Large's own R120, Small the product's R100; 1 × 120 + 2 × 100 = R320.00
    // + VAT R48.00 = R368.00. A price sent is kept as sent.
    const book_ = await invoice(walkIn.id, [
      { description: 'Large', quantity: 1, productId: book.id, variantId: large.id },
      { description: 'Small', quantity: 2, productId: book.id, variantId: small.id },
      { description: 'Sent', quantity: 1, productId: book.id, unitPrice: 1 },
    ]);
    assert.equal(book_.statusCode, 201, book_.body);
    assert.deepEqual(
      book_.json().lines.map((l: { unitPrice: number }) => l.unitPrice),
      [120, 100, 1],
    );
    assert.equal(book_.json().subtotal, 321);
    // Neither a unitPrice nor a productId: 400 naming the line's unitPrice.
    assertProblem(
      await invoice(walkIn.id, [{ description: 'Free text', quantity: 1 }]),
      400,
      'lines[0].unitPrice',
    );
  });

  test("a list of another company is not taken on this company's documents", async () => {
    const c2 = await api({ method: 'POST', url: '/api/companies', payload: { name: 'Branch (Pty) Ltd' } });
    assert.equal(c2.statusCode, 201, c2.body);
    await post('/api/inventory/price-lists', {
      name: 'Branch only',
      companyId: c2.json().id,
      contactTags: ['branch'],
      prices: [{ productId: book.id, unitPrice: 50 }],
    });
    const c = await customer('Branch Customer', ['branch']);
    assert.equal((await priceListOf(c.id, `?companyId=${c2.json().id}`)).priceList.name, 'Branch only');
    assert.equal((await priceListOf(c.id, `?companyId=${a.companyId}`)).priceList, null);
    const res = await capi({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: c.id,
        documentType: 'invoice',
        issueDate: '2026-06-02',
        dueDate: '2026-07-02',
        lines: [{ description: 'Book', quantity: 1, productId: book.id }],
      },
    });
    assert.equal(res.json().lines[0].unitPrice, 100);
  });

  test('a plan below Business has no price lists: MODULE_NOT_LICENSED', async () => {
    const s = await register(t.app, { plan: 'starter' });
    const res = await as(t.app, s.token)({ method: 'GET', url: '/api/inventory/price-lists' });
    assert.equal(assertProblem(res, 403).code, 'MODULE_NOT_LICENSED');
  });
});
