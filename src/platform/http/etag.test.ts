// ETag and conditional requests through the real catalogue: contacts (the tenant's book) and
// invoices (company-scoped): the ETag of a single-record GET, 304 on If-None-Match, 412 on a
// stale If-Match (nothing written), the new ETag on a PATCH's answer.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { catalogue } from '../../catalogue.ts';
import { createDoc, salesSetup } from '../../modules/invoices/invoices.factories.ts';
import type { AnyRoute } from './catalogue.ts';
import { conditional } from './etag.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  a = await register(t.app);
  api = as(t.app, a.token);
});
after(() => t.close());

async function newContact(name = 'Sipho Motors'): Promise<string> {
  const res = await api({ method: 'POST', url: '/api/contacts', payload: { name } });
  assert.equal(res.statusCode, 201, res.body);
  return res.json().id;
}

async function etagOf(url: string, call = api): Promise<string> {
  const res = await call({ method: 'GET', url });
  assert.equal(res.statusCode, 200, res.body);
  const etag = res.headers.etag;
  assert.equal(typeof etag, 'string', `${url} answers an ETag`);
  return etag as string;
}

describe('ETag on a single-record GET', () => {
  test('is strong, stable while the record is, and changes after a PATCH; the PATCH answers the new one', async () => {
    const id = await newContact();
    const url = `/api/contacts/${id}`;
    const first = await etagOf(url);
    assert.match(first, /^"[A-Za-z0-9_-]+"$/, 'a strong tag (no W/)');
    assert.equal(await etagOf(url), first, 'the same representation, the same tag');

    const patched = await api({ method: 'PATCH', url, payload: { name: 'Sipho Motors (Pty) Ltd' } });
    assert.equal(patched.statusCode, 200, patched.body);
    const after = await etagOf(url);
    assert.notEqual(after, first, 'a changed record has a new tag');
    assert.equal(patched.headers.etag, after, "the PATCH's answer carries the record's new ETag");
  });

  test('lists and bare arrays carry none', async () => {
    const list = await api({ method: 'GET', url: '/api/contacts' });
    assert.equal(list.statusCode, 200);
    assert.equal(list.headers.etag, undefined);
    const s = await salesSetup(t, a, { vatRegistered: false });
    const doc = await createDoc(s);
    const payments = await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/payments` });
    assert.equal(payments.statusCode, 200);
    assert.equal(payments.headers.etag, undefined);
  });

  test('If-None-Match naming it (or *, or in a list, weak or not) answers 304 with the ETag and no body', async () => {
    const id = await newContact('Nomsa Bakery');
    const url = `/api/contacts/${id}`;
    const etag = await etagOf(url);
    for (const ifNoneMatch of [etag, '*', `"other", ${etag}`, `W/${etag}`]) {
      const res = await api({ method: 'GET', url, headers: { 'if-none-match': ifNoneMatch } });
      assert.equal(res.statusCode, 304, `If-None-Match: ${ifNoneMatch}`);
      assert.equal(res.headers.etag, etag);
      assert.equal(res.body, '');
    }
    const stale = await api({ method: 'GET', url, headers: { 'if-none-match': '"not-this-one"' } });
    assert.equal(stale.statusCode, 200);
    assert.equal(stale.json().id, id);
  });
});

describe('If-Match on PATCH and DELETE', () => {
  test('a stale If-Match is 412 PRECONDITION_FAILED and changes nothing; the current one writes', async () => {
    const id = await newContact('Lerato Logistics');
    const url = `/api/contacts/${id}`;
    const old = await etagOf(url);
    const changed = await api({ method: 'PATCH', url, payload: { city: 'Polokwane' } });
    assert.equal(changed.statusCode, 200);
    const current = changed.headers.etag as string;

    const stale = await api({
      method: 'PATCH',
      url,
      headers: { 'if-match': old },
      payload: { name: 'Lost update' },
    });
    const body = assertProblem(stale, 412, 'stale If-Match');
    assert.equal(body.code, 'PRECONDITION_FAILED');
    const unchanged = await api({ method: 'GET', url });
    assert.equal(unchanged.json().name, 'Lerato Logistics', 'nothing written');
    assert.equal(unchanged.headers.etag, current);

    const ok = await api({
      method: 'PATCH',
      url,
      headers: { 'if-match': current },
      payload: { name: 'Lerato Freight' },
    });
    assert.equal(ok.statusCode, 200, ok.body);
    assert.equal(ok.json().name, 'Lerato Freight');
    assert.equal(ok.headers.etag, await etagOf(url));
  });

  test('strong comparison: a list naming the current tag matches, * matches, a weak tag does not', async () => {
    const id = await newContact('Zanele Crafts');
    const url = `/api/contacts/${id}`;
    let etag = await etagOf(url);
    const weak = await api({
      method: 'PATCH',
      url,
      headers: { 'if-match': `W/${etag}` },
      payload: { notes: 'a' },
    });
    assertProblem(weak, 412, 'a weak tag never matches If-Match');

    const listed = await api({
      method: 'PATCH',
      url,
      headers: { 'if-match': `"x", ${etag}` },
      payload: { notes: 'b' },
    });
    assert.equal(listed.statusCode, 200, listed.body);
    etag = listed.headers.etag as string;
    const any = await api({ method: 'PATCH', url, headers: { 'if-match': '*' }, payload: { notes: 'c' } });
    assert.equal(any.statusCode, 200, any.body);
  });

  test('a malformed If-Match is a 400 naming it; a missing record stays a 404', async () => {
    const id = await newContact('Bongani Builders');
    const url = `/api/contacts/${id}`;
    const bad = await api({
      method: 'PATCH',
      url,
      headers: { 'if-match': 'no-quotes' },
      payload: { notes: 'x' },
    });
    const body = assertProblem(bad, 400, 'malformed If-Match');
    assert.equal(body.field, 'If-Match');
    const missing = await api({
      method: 'PATCH',
      url: `/api/contacts/${crypto.randomUUID()}`,
      headers: { 'if-match': '*' },
      payload: { notes: 'x' },
    });
    assertProblem(missing, 404, 'If-Match on no record');
  });

  test('DELETE with a stale If-Match is 412 and the record stays; with the current one it goes', async () => {
    const id = await newContact('Thabo Tyres');
    const url = `/api/contacts/${id}`;
    const old = await etagOf(url);
    await api({ method: 'PATCH', url, payload: { city: 'Mthatha' } });
    const stale = await api({ method: 'DELETE', url, headers: { 'if-match': old } });
    assertProblem(stale, 412, 'stale DELETE');
    const still = await api({ method: 'GET', url });
    assert.equal(still.statusCode, 200, 'not deleted');
    const gone = await api({ method: 'DELETE', url, headers: { 'if-match': still.headers.etag as string } });
    assert.equal(gone.statusCode, 204, gone.body);
    assert.equal((await api({ method: 'GET', url })).statusCode, 404);
  });

  test('two writers with the same If-Match at once: one writes, the other is 412', async () => {
    const id = await newContact('Ayanda Appliances');
    const url = `/api/contacts/${id}`;
    const etag = await etagOf(url);
    const [x, y] = await Promise.all(
      ['Ayanda One', 'Ayanda Two'].map((name) =>
        api({ method: 'PATCH', url, headers: { 'if-match': etag }, payload: { name } }),
      ),
    );
    assert.deepEqual([x!.statusCode, y!.statusCode].sort(), [200, 412], `${x!.body} ${y!.body}`);
    const winner = x!.statusCode === 200 ? x! : y!;
    const now = await api({ method: 'GET', url });
    assert.equal(now.json().name, winner.json().name);
  });

  test('an invoice (company-scoped): its ETag, 304, and a stale If-Match on its PATCH', async () => {
    const s = await salesSetup(t, a, { vatRegistered: false });
    const doc = await createDoc(s);
    const url = `/api/invoices/${doc.id}`;
    const etag = await etagOf(url, s.api);
    const notModified = await s.api({ method: 'GET', url, headers: { 'if-none-match': etag } });
    assert.equal(notModified.statusCode, 304);

    const changed = await s.api({
      method: 'PATCH',
      url,
      headers: { 'if-match': etag },
      payload: { reference: 'PO-1' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.notEqual(changed.headers.etag, etag);
    const stale = await s.api({
      method: 'PATCH',
      url,
      headers: { 'if-match': etag },
      payload: { reference: 'PO-2' },
    });
    assertProblem(stale, 412, 'stale invoice PATCH');
    assert.equal((await s.api({ method: 'GET', url })).json().reference, 'PO-1');
  });
});

describe('conditional(route): what the document declares', () => {
  const route = (method: string, path: string): AnyRoute => {
    const found = catalogue.find((r) => r.method === method && r.path === path);
    assert.ok(found, `${method} ${path}`);
    return found;
  };
  test('item GETs, their PATCH and DELETE; not lists, files, or writes without an item GET', () => {
    assert.deepEqual(conditional(route('GET', '/api/contacts/{id}'), catalogue), {
      etag: true,
      ifNoneMatch: true,
      ifMatch: false,
    });
    assert.deepEqual(conditional(route('PATCH', '/api/contacts/{id}'), catalogue), {
      etag: true,
      ifNoneMatch: false,
      ifMatch: true,
    });
    assert.deepEqual(conditional(route('DELETE', '/api/contacts/{id}'), catalogue), {
      etag: false,
      ifNoneMatch: false,
      ifMatch: true,
    });
    const none = { etag: false, ifNoneMatch: false, ifMatch: false };
    assert.deepEqual(conditional(route('GET', '/api/contacts'), catalogue), none);
    assert.deepEqual(conditional(route('GET', '/api/invoices/{id}/payments'), catalogue), none);
    assert.deepEqual(conditional(route('GET', '/api/invoices/{id}/pdf'), catalogue), none);
    assert.deepEqual(conditional(route('GET', '/api/recurring/{id}/invoices'), catalogue), none);
    assert.deepEqual(
      conditional(route('DELETE', '/api/invoices/{id}/payments/{paymentId}'), catalogue),
      none,
    );
  });
});
