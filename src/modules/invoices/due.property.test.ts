// Issue 35, item 4: one statement of what is due. Random sequences of invoices, payments (some
// more than is due: a customer credit), credit notes, their allocations, reversals of both and
// voids, through the API (fast-check); after each sequence every document of the customer, as
// its list and its own answer show it, holds to the rule (amountDue = total − paid − credited −
// written off; a credit note's amountDue = amountRemaining = what is left of it) and to the
// ledger's open items (an invoice's debtors item is what is due on it; a credit note's is minus
// what is left of it). No step answers a 500, whatever it is refused for.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import fc from 'fast-check';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';
import { type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
let s: Sales;
let tenantId: string;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-03-20T10:00:00Z');
  const b = await register(t.app);
  tenantId = b.tenantId;
  s = await salesSetup(t, b);
});
after(() => t.close());

/** What the runs did that was accepted (the property is not vacuous). */
const done = { invoice: 0, credit: 0, pay: 0, apply: 0, unpay: 0, unapply: 0, void: 0, checked: 0 };

type Op =
  | { k: 'invoice'; units: number }
  | { k: 'credit'; units: number; of: number }
  | { k: 'pay'; doc: number; percent: number }
  | { k: 'apply'; note: number; doc: number; percent: number }
  | { k: 'unpay'; n: number }
  | { k: 'unapply'; n: number }
  | { k: 'void'; doc: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ k: fc.constant('invoice' as const), units: fc.integer({ min: 1, max: 2000 }) }),
  fc.record({ k: fc.constant('credit' as const), units: fc.integer({ min: 1, max: 800 }), of: fc.nat() }),
  fc.record({ k: fc.constant('pay' as const), doc: fc.nat(), percent: fc.integer({ min: 1, max: 150 }) }),
  fc.record({
    k: fc.constant('apply' as const),
    note: fc.nat(),
    doc: fc.nat(),
    percent: fc.integer({ min: 1, max: 120 }),
  }),
  fc.record({ k: fc.constant('unpay' as const), n: fc.nat() }),
  fc.record({ k: fc.constant('unapply' as const), n: fc.nat() }),
  fc.record({ k: fc.constant('void' as const), doc: fc.nat() }),
);

interface Doc {
  id: string;
  documentType: string;
  status: string;
  total: number;
  amountDue: number;
  amountPaid: number;
  amountCredited: number;
  amountWrittenOff: number;
  amountRemaining: number;
}

/** What the steps read of an answer: a record's id and figures, or a list's items. */
type Answer = Doc & { items: Doc[] };

const pick = <T>(list: T[], n: number): T | undefined => (list.length ? list[n % list.length] : undefined);

/** A step's answer: anything but a 500 (a refusal names why, and is fine here). */
function answered(res: { statusCode: number; body: string; json: () => unknown }, what: string) {
  assert.ok(res.statusCode < 500, `${what}: ${res.statusCode} ${res.body}`);
  return res.statusCode < 300 ? (res.json() as Answer) : undefined;
}

async function run(contactId: string, ops: Op[]) {
  const invoices: string[] = [];
  const notes: string[] = [];
  const payments: Array<[string, string]> = [];
  const allocations: Array<[string, string]> = [];
  const due = async (id: string) =>
    (await s.api({ method: 'GET', url: `/api/invoices/${id}` })).json().amountDue;
  for (const o of ops) {
    if (o.k === 'invoice' || o.k === 'credit') {
      // Half the credit notes credit an invoice (applied to it at once), half stand alone (applied later).
      const credited = o.k === 'credit' && o.of % 2 === 0 ? pick(invoices, o.of) : undefined;
      const made = answered(
        await s.api({
          method: 'POST',
          url: '/api/invoices',
          payload: {
            contactId,
            documentType: o.k === 'credit' ? 'credit_note' : 'invoice',
            issueDate: '2026-03-02',
            dueDate: '2026-04-01',
            ...(credited ? { creditedDocumentId: credited } : {}),
            lines: [{ description: 'Consulting', quantity: 1, unitPrice: o.units }],
          },
        }),
        o.k,
      );
      if (!made) continue;
      const released = answered(
        await s.api({ method: 'POST', url: `/api/invoices/${made.id}/release` }),
        `release ${o.k}`,
      );
      if (released) {
        (o.k === 'credit' ? notes : invoices).push(made.id);
        done[o.k]++;
      }
    } else if (o.k === 'pay') {
      const id = pick(invoices, o.doc);
      if (!id) continue;
      // A share of what is due, in cents; past 100% the excess becomes a customer credit.
      const amount = Math.max(0.01, Math.round((await due(id)) * o.percent) / 100);
      const paid = answered(
        await s.api({
          method: 'POST',
          url: `/api/invoices/${id}/payments`,
          payload: { amount, date: '2026-03-10' },
        }),
        'pay',
      );
      if (paid) {
        payments.push([id, paid.id]);
        done.pay++;
      }
    } else if (o.k === 'apply') {
      const note = pick(notes, o.note);
      const id = pick(invoices, o.doc);
      if (!note || !id) continue;
      const owed = await due(id);
      const payload = {
        sourceId: note,
        ...(owed > 1 ? { amount: Math.max(1, Math.floor((owed * o.percent) / 100)) } : {}),
      };
      const applied = answered(
        await s.api({ method: 'POST', url: `/api/invoices/${id}/allocations`, payload }),
        'apply',
      );
      if (applied) {
        allocations.push([id, applied.id]);
        done.apply++;
      }
    } else if (o.k === 'unpay' || o.k === 'unapply') {
      const list = o.k === 'unpay' ? payments : allocations;
      const found = pick(list, o.n);
      if (!found) continue;
      list.splice(list.indexOf(found), 1);
      const [id, child] = found;
      const undone = answered(
        await s.api({
          method: 'DELETE',
          url: `/api/invoices/${id}/${o.k === 'unpay' ? 'payments' : 'allocations'}/${child}`,
        }),
        o.k,
      );
      if (undone) done[o.k]++;
    } else {
      const id = pick(invoices, o.doc);
      if (id && answered(await s.api({ method: 'DELETE', url: `/api/invoices/${id}` }), 'void')) done.void++;
    }
  }
}

/** The debtors open item of each document: the ledger's own statement of what is due on it. */
async function openItems(ids: string[]): Promise<Map<string, string>> {
  if (!ids.length) return new Map();
  const rows = await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .selectFrom('open_items')
      .select(['item_id', (eb) => eb.fn.sum<string>('balance').as('balance')])
      .where('tenant_id', '=', tenantId)
      .where('item_id', 'in', ids)
      .groupBy('item_id')
      .execute(),
  );
  return new Map(rows.map((r) => [r.item_id, r.balance]));
}

describe("what is due is one statement (dueOf), the ledger's open items agreeing", () => {
  test('random sequences of documents, payments, credits, allocations, reversals and voids', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 6, maxLength: 16 }), async (ops) => {
        const contact = answered(
          await s.api({
            method: 'POST',
            url: '/api/contacts',
            payload: { name: `Customer ${crypto.randomUUID()}`, contactType: 'CUSTOMER' },
          }),
          'contact',
        );
        // Two invoices first, so that the steps after them have documents to work on.
        await run(contact!.id, [{ k: 'invoice', units: 1000 }, { k: 'invoice', units: 250 }, ...ops]);
        const list = answered(
          await s.api({ method: 'GET', url: `/api/invoices?contactId=${contact!.id}&limit=100` }),
          'list',
        );
        const docs: Doc[] = list!.items;
        const items = await openItems(docs.map((d) => d.id));
        for (const d of docs) {
          const own = answered(await s.api({ method: 'GET', url: `/api/invoices/${d.id}` }), 'get');
          assert.equal(own!.amountDue, d.amountDue, `${d.id}: the list and the document agree`);
          assert.equal(own!.amountRemaining, d.amountRemaining, `${d.id}: the list and the document agree`);
          const balance = money(items.get(d.id) ?? 0);
          done.checked++;
          if (d.documentType === 'credit_note') {
            assert.equal(
              d.amountDue,
              d.amountRemaining,
              `${d.id}: a credit note's due is what is left of it`,
            );
            assert.equal(
              money(d.amountRemaining).negated().toFixed(2),
              balance.toFixed(2),
              `${d.id}: left = −open item`,
            );
          } else {
            const rule =
              d.status === 'void'
                ? money(0)
                : money(d.total).minus(d.amountPaid).minus(d.amountCredited).minus(d.amountWrittenOff);
            assert.equal(
              money(d.amountDue).toFixed(2),
              rule.toFixed(2),
              `${d.id}: due = total − paid − credited − written off`,
            );
            assert.equal(money(d.amountDue).toFixed(2), balance.toFixed(2), `${d.id}: due = its open item`);
          }
        }
      }),
      { numRuns: 12 },
    );
    // Not vacuous: documents were made and checked, money and credit moved and moved back.
    assert.ok(
      done.checked >= 8 && done.pay > 0 && done.apply + done.unpay + done.unapply > 0,
      JSON.stringify(done),
    );
  });
});
