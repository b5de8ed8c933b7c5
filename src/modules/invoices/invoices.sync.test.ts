// Incremental sync of sales documents: createdAt and updatedAt on every record, updatedAt
// moving on every change; GET /api/invoices with updatedSince (voided documents and deleted
// drafts included), sort both ways with ties stable across pages, and q.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { createDoc, pay, release, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

interface Doc {
  id: string;
  number: string;
  issueDate: string;
  createdAt: string;
  updatedAt: string;
  deletedAt: string | null;
  status: string;
}

async function setup() {
  const b = await register(t.app);
  return { b, s: await salesSetup(t, b) };
}

async function list(s: Sales, query: string): Promise<{ items: Doc[]; total: number }> {
  const res = await s.api({ method: 'GET', url: `/api/invoices?${query}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const ids = (docs: Doc[]) => docs.map((d) => d.id);

/** A moment just after `iso`: changes made after it (in later transactions) are at or after it. */
function justAfter(iso: string): string {
  return new Date(new Date(iso).getTime() + 1).toISOString();
}

describe('createdAt and updatedAt', () => {
  test('every record carries both; a document’s updatedAt moves on release and on every payment', async () => {
    const { s } = await setup();
    const draft = await createDoc(s);
    assert.ok(draft.createdAt && draft.updatedAt, 'a new draft has both');
    assert.equal(draft.deletedAt, null);
    await sleep(5);
    const open = await release(s, draft.id);
    assert.equal(open.createdAt, draft.createdAt);
    assert.ok(open.updatedAt > draft.updatedAt, 'release moves updatedAt');
    await sleep(5);
    const first = await pay(s, draft.id, 100);
    assert.equal(first.statusCode, 201, first.body);
    const payment = first.json();
    assert.ok(payment.createdAt && payment.updatedAt);
    const afterFirst = (await s.api({ method: 'GET', url: `/api/invoices/${draft.id}` })).json();
    assert.equal(afterFirst.status, 'partially_paid');
    assert.ok(afterFirst.updatedAt > open.updatedAt, 'a payment moves updatedAt');
    await sleep(5);
    // Still partly paid: the status does not change, what is due does, and so does updatedAt.
    assert.equal((await pay(s, draft.id, 50)).statusCode, 201);
    const afterSecond = (await s.api({ method: 'GET', url: `/api/invoices/${draft.id}` })).json();
    assert.equal(afterSecond.status, 'partially_paid');
    assert.ok(afterSecond.updatedAt > afterFirst.updatedAt, 'a second partial payment moves it too');
    await sleep(5);
    const reversed = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${draft.id}/payments/${payment.id}`,
    });
    assert.equal(reversed.statusCode, 200, reversed.body);
    assert.equal(reversed.json().createdAt, payment.createdAt);
    assert.ok(reversed.json().updatedAt > payment.updatedAt, "a reversal moves the payment's updatedAt");
  });

  test('allocations, recurring schedules, settings and templates carry both; changes move updatedAt', async () => {
    const { s } = await setup();
    const invoice = await released(s);
    const note = await released(s, {
      documentType: 'credit_note',
      lines: [{ description: 'Returned', quantity: 1, unitPrice: 100 }],
    });
    await sleep(5);
    const allocated = await s.api({
      method: 'POST',
      url: `/api/invoices/${invoice.id}/allocations`,
      payload: { sourceId: note.id },
    });
    assert.equal(allocated.statusCode, 201, allocated.body);
    assert.ok(allocated.json().createdAt && allocated.json().updatedAt);
    const noteAfter = (await s.api({ method: 'GET', url: `/api/invoices/${note.id}` })).json();
    assert.ok(noteAfter.updatedAt > note.updatedAt, 'the credit note applied changed too');

    const schedule = await s.api({
      method: 'POST',
      url: '/api/recurring',
      payload: {
        contactId: s.customerId,
        frequency: 'monthly',
        startDate: '2026-05-01',
        lines: [{ description: 'Retainer', quantity: 1, unitPrice: 100 }],
      },
    });
    assert.equal(schedule.statusCode, 201, schedule.body);
    assert.ok(schedule.json().createdAt && schedule.json().updatedAt);
    assert.equal(schedule.json().deletedAt, null);
    await sleep(5);
    const paused = await s.api({
      method: 'PATCH',
      url: `/api/recurring/${schedule.json().id}`,
      payload: { active: false },
    });
    assert.ok(paused.json().updatedAt > schedule.json().updatedAt);

    const settings = (await s.api({ method: 'GET', url: '/api/invoice-settings' })).json();
    assert.ok(settings.createdAt && settings.updatedAt);
    await sleep(5);
    const changed = await s.api({
      method: 'PATCH',
      url: '/api/invoice-settings',
      payload: { defaultPaymentTermsDays: 14 },
    });
    assert.ok(changed.json().updatedAt > settings.updatedAt);

    const template = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Plain' },
    });
    assert.equal(template.statusCode, 201, template.body);
    await sleep(5);
    const renamed = await s.api({
      method: 'PATCH',
      url: `/api/invoice-templates/${template.json().id}`,
      payload: { name: 'Plainer' },
    });
    assert.equal(renamed.json().createdAt, template.json().createdAt);
    assert.ok(renamed.json().updatedAt > template.json().updatedAt);
  });
});

describe('updatedSince', () => {
  test('changed documents only; a voided invoice and a deleted draft (with deletedAt) included', async () => {
    const { s } = await setup();
    const untouched = await released(s);
    const toVoid = await released(s);
    const toDelete = await createDoc(s);
    const toEdit = await createDoc(s);
    const mark = justAfter(
      [untouched, toVoid, toDelete, toEdit].map((d) => d.updatedAt as string).sort()[3]!,
    );
    await sleep(5);
    const voided = await s.api({ method: 'DELETE', url: `/api/invoices/${toVoid.id}` });
    assert.equal(voided.json().status, 'void');
    assert.equal((await s.api({ method: 'DELETE', url: `/api/invoices/${toDelete.id}` })).statusCode, 204);
    const edited = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${toEdit.id}`,
      payload: { reference: 'PO 77' },
    });
    assert.equal(edited.statusCode, 200, edited.body);

    const since = await list(s, `updatedSince=${encodeURIComponent(mark)}&sort=updatedAt`);
    // The void of a released invoice issued a credit note (s21): a new document, listed too.
    const note = voided.json().voidedByCreditNoteId;
    assert.deepEqual(new Set(ids(since.items)), new Set([toVoid.id, toDelete.id, toEdit.id, note]));
    assert.equal(since.total, 4);
    const byId = new Map(since.items.map((d) => [d.id, d]));
    assert.equal(byId.get(toVoid.id)!.status, 'void');
    assert.equal(byId.get(toVoid.id)!.deletedAt, null);
    const deleted = byId.get(toDelete.id)!;
    assert.ok(deleted.deletedAt, 'a deleted draft says when it was deleted');
    assert.equal(deleted.status, 'draft');
    assert.ok(deleted.updatedAt >= mark);
    // In order of change, each at or after the mark.
    assert.deepEqual(
      since.items.map((d) => d.updatedAt),
      since.items.map((d) => d.updatedAt).sort(),
    );

    // Without updatedSince a deleted draft is listed nowhere, and GET answers 404.
    const everything = await list(s, 'limit=200');
    assert.deepEqual(
      new Set(ids(everything.items)),
      new Set([untouched.id, toVoid.id, toEdit.id, note]),
      'deleted drafts are not in an ordinary list; voided documents are',
    );
    assertProblem(await s.api({ method: 'GET', url: `/api/invoices/${toDelete.id}` }), 404);
    // From the beginning: every document, the deleted draft included.
    const all = await list(s, 'updatedSince=2000-01-01T00:00:00Z');
    assert.equal(all.total, 5);
    // Filters still apply; an instant without an offset is a 400 naming updatedSince.
    const drafts = await list(s, `updatedSince=${encodeURIComponent(mark)}&status=draft`);
    assert.deepEqual(new Set(ids(drafts.items)), new Set([toDelete.id, toEdit.id]));
    assert.equal(
      assertProblem(await s.api({ method: 'GET', url: '/api/invoices?updatedSince=yesterday' }), 400).field,
      'updatedSince',
    );
  });

  test('recurring schedules: updatedSince lists changed ones, a deleted one with deletedAt', async () => {
    const { s } = await setup();
    const make = async () => {
      const r = await s.api({
        method: 'POST',
        url: '/api/recurring',
        payload: {
          contactId: s.customerId,
          frequency: 'monthly',
          startDate: '2026-06-01',
          lines: [{ description: 'Retainer', quantity: 1, unitPrice: 100 }],
        },
      });
      assert.equal(r.statusCode, 201, r.body);
      return r.json();
    };
    const kept = await make();
    const gone = await make();
    const mark = justAfter([kept.updatedAt, gone.updatedAt].sort()[1]);
    await sleep(5);
    assert.equal((await s.api({ method: 'DELETE', url: `/api/recurring/${gone.id}` })).statusCode, 204);
    const res = await s.api({
      method: 'GET',
      url: `/api/recurring?updatedSince=${encodeURIComponent(mark)}`,
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.deepEqual(
      res.json().items.map((r: { id: string; deletedAt: string | null }) => [r.id, Boolean(r.deletedAt)]),
      [[gone.id, true]],
    );
    const plain = (await s.api({ method: 'GET', url: '/api/recurring' })).json();
    assert.deepEqual(
      plain.items.map((r: { id: string }) => r.id),
      [kept.id],
    );
    const newest = (await s.api({ method: 'GET', url: '/api/recurring?sort=-createdAt' })).json();
    assert.deepEqual(
      newest.items.map((r: { id: string }) => r.id),
      [kept.id],
    );
  });
});

describe('sort', () => {
  /** The values a sort key orders by, then the id. */
  const keyOf: Record<string, (d: Doc) => string[]> = {
    date: (d) => [d.issueDate, d.createdAt, d.id],
    number: (d) => [d.number, d.id],
    createdAt: (d) => [d.createdAt, d.id],
    updatedAt: (d) => [d.updatedAt, d.id],
  };
  const compare = (a: string[], b: string[]) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! < b[i]! ? -1 : 1;
    return 0;
  };

  test('each key both ways: ordered, ties broken by id, and pages neither repeat nor skip', async () => {
    const { b, s } = await setup();
    const docs: Doc[] = [];
    for (const [i, issueDate] of ['2026-03-01', '2026-02-01', '2026-03-05', '2026-01-15'].entries())
      docs.push(await createDoc(s, { issueDate, dueDate: '2026-04-30', reference: `R${i}` }));
    docs.push(await createDoc(s, { documentType: 'quote' }));
    for (let i = 0; i < 4; i++) docs.push(await createDoc(s));
    // Four documents that tie on every key but number: one statement gives them the same issue
    // date and creation, and the same updatedAt (the trigger's now() is the statement's).
    const tied = docs.slice(5).map((d) => d.id);
    await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .updateTable('invoices')
        .set({ issue_date: '2026-03-02', created_at: sql`'2026-03-02T08:00:00Z'::timestamptz` })
        .where('tenant_id', '=', b.tenantId)
        .where('id', 'in', tied)
        .execute(),
    );
    for (const key of Object.keys(keyOf)) {
      for (const sort of [key, `-${key}`]) {
        const whole = (await list(s, `sort=${sort}&limit=200`)).items;
        assert.equal(whole.length, docs.length);
        const direction = sort.startsWith('-') ? -1 : 1;
        for (let i = 1; i < whole.length; i++) {
          const order = compare(keyOf[key]!(whole[i - 1]!), keyOf[key]!(whole[i]!)) * direction;
          assert.equal(order, -1, `${sort}: ${whole[i - 1]!.id} before ${whole[i]!.id}`);
        }
        const paged: Doc[] = [];
        for (let page = 1; page <= 5; page++)
          paged.push(...(await list(s, `sort=${sort}&limit=2&page=${page}`)).items);
        assert.deepEqual(ids(paged), ids(whole), `${sort}: pages of 2 give the whole list`);
        // Asked again, the same order: nothing depends on chance.
        assert.deepEqual(ids((await list(s, `sort=${sort}&limit=200`)).items), ids(whole));
      }
    }
    // The default is -date, newest first.
    assert.deepEqual(
      ids((await list(s, 'limit=200')).items),
      ids((await list(s, 'sort=-date&limit=200')).items),
    );
    assert.equal(
      assertProblem(await s.api({ method: 'GET', url: '/api/invoices?sort=total' }), 400).field,
      'sort',
    );
  });
});

describe('q', () => {
  test('number, reference or customer name contains it, any case; wildcards are literal', async () => {
    const { s } = await setup();
    const other = await s.api({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Mokoena Hardware CC', contactType: 'CUSTOMER' },
    });
    assert.equal(other.statusCode, 201, other.body);
    const first = await createDoc(s, { reference: 'Order 50% deposit' });
    const second = await createDoc(s, { reference: 'PO-ALPHA-7' });
    const third = await createDoc(s, { contactId: other.json().id });
    const quote = await createDoc(s, { documentType: 'quote' });
    const found = async (q: string) => new Set(ids((await list(s, `q=${encodeURIComponent(q)}`)).items));
    assert.deepEqual(await found('inv-0002'), new Set([second.id]), 'by number');
    assert.deepEqual(await found('QUO-'), new Set([quote.id]));
    assert.deepEqual(await found('alpha'), new Set([second.id]), 'by reference, any case');
    assert.deepEqual(await found('MOKOENA'), new Set([third.id]), "by the customer's name");
    assert.deepEqual(await found('thandi'), new Set([first.id, second.id, quote.id]));
    assert.deepEqual(await found('50%'), new Set([first.id]), 'a % is a percent sign');
    assert.deepEqual(await found('%'), new Set([first.id]));
    assert.deepEqual(await found('_'), new Set(), 'an underscore is an underscore');
    assert.deepEqual(await found('nothing like it'), new Set());
    // With other filters, and the total counts the matches.
    const quotes = await list(s, 'q=thandi&documentType=quote');
    assert.deepEqual([quotes.total, ids(quotes.items)], [1, [quote.id]]);
  });
});
