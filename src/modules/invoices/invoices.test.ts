// Creating, reading, listing and changing sales documents: the create body of the spec, the
// VAT rule by registration on the issue date, numbering per type, idempotent create, the
// list's filters, drafts only change, delete and void, convert, quotes accepted or declined.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, release, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

async function setup(opts: { vatRegistered?: boolean } = {}): Promise<Sales> {
  return salesSetup(t, await register(t.app), opts);
}

describe('create', () => {
  test('3 × 333.33: net 999.99, VAT 150.00, total 1,149.99; a draft with a number', async () => {
    const s = await setup();
    const inv = await createDoc(s);
    assert.equal(inv.status, 'draft');
    assert.equal(inv.number, 'INV-0001');
    assert.equal(inv.documentType, 'invoice');
    assert.deepEqual([inv.subtotal, inv.vatTotal, inv.total, inv.amountDue], [999.99, 150, 1149.99, 1149.99]);
    assert.equal(inv.lines[0].vatRate, 15);
    assert.equal(inv.lines[0].netAmount, 999.99);
    assert.equal(inv.vatRegistered, true);
    assert.equal(inv.contactName, 'Thandi Stores (Pty) Ltd');
    assert.equal(inv.currency, 'ZAR');
  });

  test('14% before 2018-04-01, 15% from then; not registered on the issue date: no VAT', async () => {
    const s = await setup();
    const old = await createDoc(s, { issueDate: '2018-03-31', dueDate: '2018-04-30' });
    assert.deepEqual([old.lines[0].vatRate, old.vatTotal], [14, 140]);
    const before = await createDoc(s, { issueDate: '2016-12-31', dueDate: '2017-01-30' });
    assert.deepEqual([before.vatRegistered, before.vatTotal, before.total], [false, 0, 999.99]);
    const unregistered = await setup({ vatRegistered: false });
    const stated = await createDoc(unregistered, {
      lines: [{ description: 'x', quantity: 1, unitPrice: 100, vatRate: 15 }],
    });
    assert.deepEqual([stated.vatTotal, stated.total, stated.lines[0].vatRate], [0, 100, 0]);
  });

  test('lines: discountRate and a stated vatRate; zero-rated', async () => {
    const s = await setup();
    const inv = await createDoc(s, {
      lines: [
        { description: 'Discounted', quantity: 7, unitPrice: 14.99, discountRate: 12.5 },
        { description: 'Exported', quantity: 1, unitPrice: 500, vatRate: 0 },
      ],
    });
    assert.deepEqual(
      inv.lines.map((l: { netAmount: number; vatAmount: number; discountAmount: number }) => [
        l.netAmount,
        l.vatAmount,
        l.discountAmount,
      ]),
      [
        [91.81, 13.77, 13.12],
        [500, 0, 0],
      ],
    );
    assert.deepEqual(
      [inv.subtotal, inv.discountTotal, inv.vatTotal, inv.total],
      [591.81, 13.12, 13.77, 605.58],
    );
  });

  test('dueDate before issueDate is 400 naming dueDate; a non-UUID clientId 400 naming clientId', async () => {
    const s = await setup();
    const bad = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-03-01',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.equal(assertProblem(bad, 400).field, 'dueDate');
    const notUuid = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        clientId: 'abc',
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-03-02',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.match(String(assertProblem(notUuid, 400).detail), /clientId/);
    const unknownContact = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: crypto.randomUUID(),
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-03-02',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.equal(assertProblem(unknownContact, 400).field, 'contactId');
    const upper = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'INVOICE',
        issueDate: '2026-03-02',
        dueDate: '2026-03-02',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.match(String(assertProblem(upper, 400).detail), /documentType/);
    const tooPrecise = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-03-02',
        lines: [{ description: 'x', quantity: 1, unitPrice: 1.00001 }],
      },
    });
    assert.equal(assertProblem(tooPrecise, 400).field, 'lines[0].unitPrice');
  });

  test("the create's answer is the document as GET answers it (built from what was written)", async () => {
    const s = await setup();
    const created = await createDoc(s, {
      reference: 'PO-7',
      paymentTermsDays: 30,
      lines: [
        { description: 'One', quantity: 2, unitPrice: 10.5 },
        { description: 'Two', quantity: 1, unitPrice: 99.99, discountRate: 10, vatRate: 0 },
        { description: 'Three', quantity: 3, unitPrice: 0.3333 },
      ],
    });
    const read = await s.api({ method: 'GET', url: `/api/invoices/${created.id}` });
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(created, read.json());
    assert.deepEqual(
      created.lines.map((l: { lineNo: number }) => l.lineNo),
      [1, 2, 3],
    );
  });

  test('clientId: 201 then 200 with the same document, and two at once make one', async () => {
    const s = await setup();
    const clientId = crypto.randomUUID();
    const body = {
      clientId,
      contactId: s.customerId,
      documentType: 'invoice',
      issueDate: '2026-03-02',
      dueDate: '2026-04-01',
      lines: [{ description: 'x', quantity: 1, unitPrice: 10 }],
    };
    const [a, b] = await Promise.all([
      s.api({ method: 'POST', url: '/api/invoices', payload: body }),
      s.api({ method: 'POST', url: '/api/invoices', payload: body }),
    ]);
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 201]);
    assert.equal(a.json().id, clientId);
    assert.equal(a.json().number, b.json().number);
    const list = (await s.api({ method: 'GET', url: '/api/invoices' })).json();
    assert.equal(list.total, 1);
    // The replay took no number: the next invoice is 0002.
    assert.equal((await createDoc(s)).number, 'INV-0002');
  });

  test('numbering: per type, per company, gap-free under concurrency', async () => {
    const s = await setup();
    const made = await Promise.all(Array.from({ length: 12 }, () => createDoc(s)));
    assert.deepEqual(
      made.map((d) => d.number).sort(),
      Array.from({ length: 12 }, (_, i) => `INV-${String(i + 1).padStart(4, '0')}`),
    );
    const quote = await createDoc(s, { documentType: 'quote' });
    assert.equal(quote.number, 'QUO-0001');
    const cn = await createDoc(s, { documentType: 'credit_note' });
    assert.equal(cn.number, 'CN-0001');
  });
});

describe('read and list', () => {
  test('get; another tenant’s id is 404; X-Company-Id is required', async () => {
    const s = await setup();
    const inv = await createDoc(s);
    const got = await s.api({ method: 'GET', url: `/api/invoices/${inv.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), inv);
    const other = await setup();
    assertProblem(await other.api({ method: 'GET', url: `/api/invoices/${inv.id}` }), 404);
  });

  test('list: paged envelope, filters before paging, unknown status or type 400, overdue derived', async () => {
    const s = await setup();
    const a = await released(s, { issueDate: '2026-01-05', dueDate: '2026-02-04' }); // overdue on 2026-03-20
    const b = await released(s, { issueDate: '2026-03-10', dueDate: '2026-04-09' }); // open
    await createDoc(s, { documentType: 'quote' });
    await createDoc(s); // draft
    const all = (await s.api({ method: 'GET', url: '/api/invoices?limit=2' })).json();
    assert.deepEqual([all.total, all.items.length, all.page, all.limit, all.totalPages], [4, 2, 1, 2, 2]);
    const past = (await s.api({ method: 'GET', url: '/api/invoices?page=9' })).json();
    assert.deepEqual([past.total, past.items.length], [4, 0]);
    const overdue = (await s.api({ method: 'GET', url: '/api/invoices?status=overdue' })).json();
    assert.deepEqual(
      overdue.items.map((i: { id: string }) => i.id),
      [a.id],
    );
    assert.equal(overdue.items[0].status, 'overdue');
    const open = (await s.api({ method: 'GET', url: '/api/invoices?status=open' })).json();
    assert.deepEqual(
      open.items.map((i: { id: string }) => i.id),
      [b.id],
    );
    const quotes = (await s.api({ method: 'GET', url: '/api/invoices?documentType=quote' })).json();
    assert.equal(quotes.total, 1);
    const drafts = (
      await s.api({ method: 'GET', url: '/api/invoices?status=draft&documentType=invoice' })
    ).json();
    assert.equal(drafts.total, 1);
    assert.equal(
      assertProblem(await s.api({ method: 'GET', url: '/api/invoices?status=bogus' }), 400).field,
      'status',
    );
    assert.equal(
      assertProblem(await s.api({ method: 'GET', url: '/api/invoices?documentType=bill' }), 400).field,
      'documentType',
    );
    const range = (await s.api({ method: 'GET', url: '/api/invoices?from=2026-03-01&to=2026-03-31' })).json();
    assert.equal(
      range.items.some((i: { id: string }) => i.id === a.id),
      false,
    );
    assertProblem(await s.api({ method: 'GET', url: '/api/invoices?from=2026-13-01' }), 400);
    // Past the end: no items, the same total; an empty filter: none at all.
    const beyond = (await s.api({ method: 'GET', url: '/api/invoices?limit=2&page=9' })).json();
    assert.deepEqual([beyond.total, beyond.items.length, beyond.page, beyond.totalPages], [4, 0, 9, 2]);
    const none = (await s.api({ method: 'GET', url: '/api/invoices?documentType=deposit' })).json();
    assert.deepEqual([none.total, none.items.length], [0, 0]);
    // Every listed document is the document as GET answers it.
    for (const item of all.items) {
      assert.deepEqual(item, (await s.api({ method: 'GET', url: `/api/invoices/${item.id}` })).json());
    }
  });
});

describe('change, delete, void', () => {
  test('a draft changes (lines re-priced); a released document is 409', async () => {
    const s = await setup();
    const inv = await createDoc(s);
    const changed = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${inv.id}`,
      payload: { lines: [{ description: 'Two hours', quantity: 2, unitPrice: 450 }], reference: 'PO 77' },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(
      [changed.json().total, changed.json().lines.length, changed.json().reference],
      [1035, 1, 'PO 77'],
    );
    const redated = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${inv.id}`,
      payload: { issueDate: '2018-03-01' },
    });
    assert.equal(redated.json().vatTotal, 126);
    await release(s, inv.id);
    const refused = await s.api({ method: 'PATCH', url: `/api/invoices/${inv.id}`, payload: { notes: 'x' } });
    assert.equal(assertProblem(refused, 409).code, 'NOT_A_DRAFT');
    const again = await s.api({ method: 'POST', url: `/api/invoices/${inv.id}/release` });
    assert.equal(assertProblem(again, 409).code, 'ALREADY_RELEASED');
  });

  test('delete a draft: marked deleted (204, then 404, not listed); void a released one (200, status void)', async () => {
    const s = await setup();
    const draft = await createDoc(s);
    const del = await s.api({ method: 'DELETE', url: `/api/invoices/${draft.id}` });
    assert.equal(del.statusCode, 204);
    assertProblem(await s.api({ method: 'GET', url: `/api/invoices/${draft.id}` }), 404);
    const rel = await released(s);
    const voided = await s.api({ method: 'DELETE', url: `/api/invoices/${rel.id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    assert.equal(voided.json().status, 'void');
    assert.equal(voided.json().amountDue, 0);
    // A released invoice is voided by a credit note for the whole of it (s21), not a reversal.
    assert.equal(voided.json().voidEntryId, null);
    const note = voided.json().voidedByCreditNoteId;
    assert.ok(note);
    assert.equal(
      assertProblem(await s.api({ method: 'DELETE', url: `/api/invoices/${rel.id}` }), 409).code,
      'ALREADY_VOID',
    );
    const list = (await s.api({ method: 'GET', url: '/api/invoices' })).json();
    assert.deepEqual(new Set(list.items.map((i: { id: string }) => i.id)), new Set([rel.id, note]));
  });
});

describe('convert and answer', () => {
  test('quote → invoice: a new draft with the lines; the quote is converted; other pairs 400', async () => {
    const s = await setup();
    const quote = await createDoc(s, { documentType: 'quote' });
    assert.equal(
      assertProblem(
        await s.api({
          method: 'POST',
          url: `/api/invoices/${quote.id}/convert`,
          payload: { documentType: 'delivery_note' },
        }),
        400,
      ).field,
      'documentType',
    );
    const accepted = await s.api({ method: 'POST', url: `/api/invoices/${quote.id}/accept` });
    assert.equal(accepted.json().status, 'accepted');
    const conv = await s.api({
      method: 'POST',
      url: `/api/invoices/${quote.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    assert.equal(conv.statusCode, 201, conv.body);
    const inv = conv.json();
    assert.deepEqual(
      [inv.documentType, inv.status, inv.convertedFromId, inv.total],
      ['invoice', 'draft', quote.id, 1149.99],
    );
    assert.equal(
      (await s.api({ method: 'GET', url: `/api/invoices/${quote.id}` })).json().status,
      'converted',
    );
    assertProblem(
      await s.api({
        method: 'POST',
        url: `/api/invoices/${quote.id}/convert`,
        payload: { documentType: 'invoice' },
      }),
      409,
    );
    const order = await createDoc(s, { documentType: 'sales_order' });
    const dn = await s.api({
      method: 'POST',
      url: `/api/invoices/${order.id}/convert`,
      payload: { documentType: 'delivery_note' },
    });
    assert.equal(dn.json().documentType, 'delivery_note');
    const inv2 = await s.api({
      method: 'POST',
      url: `/api/invoices/${order.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    assert.equal(inv2.statusCode, 201);
    const pf = await createDoc(s, { documentType: 'pro_forma' });
    const fromPf = await s.api({
      method: 'POST',
      url: `/api/invoices/${pf.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    assert.equal(fromPf.json().documentType, 'invoice');
    const invoice = await createDoc(s);
    assertProblem(
      await s.api({
        method: 'POST',
        url: `/api/invoices/${invoice.id}/convert`,
        payload: { documentType: 'quote' },
      }),
      400,
    );
    const declined = await createDoc(s, { documentType: 'quote' });
    assert.equal(
      (await s.api({ method: 'POST', url: `/api/invoices/${declined.id}/decline` })).json().status,
      'declined',
    );
    assertProblem(await s.api({ method: 'POST', url: `/api/invoices/${invoice.id}/accept` }), 409);
  });
});
