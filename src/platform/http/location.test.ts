// Location on 201 through the real catalogue: a contact, an invoice, a payment (no GET of its
// own: its invoice), a conversion (the new document), a consent (the record it adds to); and
// the template every 201 route gets from the catalogue.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { catalogue } from '../../catalogue.ts';
import {
  createDoc,
  pay,
  release,
  type Sales,
  salesSetup,
} from '../../modules/invoices/invoices.factories.ts';
import { locationTemplate } from './location.ts';

let t: TestApp;
let a: Registered;
let s: Sales;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app);
  s = await salesSetup(t, a, { vatRegistered: false });
});
after(() => t.close());

/** The Location of a 201, which a GET with the same credentials answers with 200. */
async function followed(res: { statusCode: number; body: string; headers: Record<string, unknown> }) {
  assert.equal(res.statusCode, 201, res.body);
  const location = res.headers.location;
  assert.equal(typeof location, 'string', 'a 201 carries Location');
  const got = await s.api({ method: 'GET', url: location as string });
  assert.equal(got.statusCode, 200, `GET ${location}: ${got.body}`);
  return { location: location as string, record: got.json() };
}

describe('Location on 201', () => {
  test('a contact: its own address', async () => {
    const res = await s.api({ method: 'POST', url: '/api/contacts', payload: { name: 'Kagiso Hardware' } });
    const { location, record } = await followed(res);
    assert.equal(location, `/api/contacts/${res.json().id}`);
    assert.equal(record.name, 'Kagiso Hardware');
  });

  test('an invoice: its own address; the 200 of a clientId replay has none', async () => {
    const clientId = crypto.randomUUID();
    const body = {
      clientId,
      contactId: s.customerId,
      documentType: 'invoice',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'Pallets', quantity: 2, unitPrice: 150 }],
    };
    const res = await s.api({ method: 'POST', url: '/api/invoices', payload: body });
    const { location, record } = await followed(res);
    assert.equal(location, `/api/invoices/${clientId}`);
    assert.equal(record.id, clientId);
    const again = await s.api({ method: 'POST', url: '/api/invoices', payload: body });
    assert.equal(again.statusCode, 200);
    assert.equal(again.headers.location, undefined);
  });

  test('a payment, which has no address of its own: its invoice', async () => {
    const doc = await release(s, (await createDoc(s)).id);
    const res = await pay(s, doc.id, 100);
    const { location, record } = await followed(res);
    assert.equal(location, `/api/invoices/${doc.id}`);
    assert.equal(record.id, doc.id);
  });

  test('a conversion: the new document, not the quote it came from', async () => {
    const quote = await createDoc(s, { documentType: 'quote' });
    const res = await s.api({
      method: 'POST',
      url: `/api/invoices/${quote.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    const { location, record } = await followed(res);
    assert.notEqual(record.id, quote.id);
    assert.equal(location, `/api/invoices/${res.json().id}`);
  });

  test('a consent: the contact consent it joins', async () => {
    const res = await s.api({
      method: 'POST',
      url: `/api/contacts/${s.customerId}/consent`,
      payload: { channel: 'email', status: 'granted', method: 'written' },
    });
    const { location } = await followed(res);
    assert.equal(location, `/api/contacts/${s.customerId}/consent`);
  });
});

describe('locationTemplate(route)', () => {
  test('every 201 of an authenticated route points somewhere; nested creates at their item or parent', () => {
    const created = catalogue.filter((r) => r.response[201] && r.auth !== 'none');
    for (const route of created) {
      assert.ok(locationTemplate(route, catalogue), `${route.method} ${route.path} has a Location`);
    }
    const of = (path: string) =>
      locationTemplate(catalogue.find((r) => r.method === 'POST' && r.path === path)!, catalogue);
    assert.deepEqual(of('/api/contacts'), { path: '/api/contacts/{id}', idParam: 'id', parent: false });
    assert.deepEqual(of('/api/inventory/products'), {
      path: '/api/inventory/products/{id}',
      idParam: 'id',
      parent: false,
    });
    assert.deepEqual(of('/api/invoices/{id}/convert'), {
      path: '/api/invoices/{id}',
      idParam: 'id',
      parent: false,
    });
    assert.deepEqual(of('/api/invoices/{id}/payments'), { path: '/api/invoices/{id}', parent: true });
    assert.deepEqual(of('/api/invoices/{id}/allocations'), { path: '/api/invoices/{id}', parent: true });
    assert.deepEqual(of('/api/sandbox'), { path: '/api/sandbox', parent: false });
    // Not a create: no Location.
    assert.equal(of('/api/invoices/{id}/release'), undefined);
  });
});
