// Reconciliation: ranked suggestions with their reasons, auto-reconcile only when exactly one
// candidate is certain, matching invoices (one, several, an excess), an existing payment, undo.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { fetched } from '../invoices/invoices.factories.ts';
import { ingest } from './banking.factories.ts';
import { invoiceOf, lineOf, match, reconSetup, suggestions } from './reconciliation.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

describe('reconciliation', () => {
  test('suggestions are ranked, each with its score and reasons in words', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    // 1,000.00 + 15% = 1,150.00 due on each, one due 2026-04-01, the other 2026-03-20. The line
    // names the customer but no number: both are suggested, the nearer due date first, neither
    // certain (so the import leaves it for a person).
    const a = await invoiceOf(r, 1000);
    const b = await invoiceOf(r, 1000, { dueDate: '2026-03-20' });
    const line = await lineOf(t, r, '1150.00', 'THANDI STORES PAYMENT');
    const s = await suggestions(r, line);
    assert.deepEqual(
      s.map((x) => [x.label, x.score, x.certain, x.reasons]),
      [
        // 0.5 + 0.1 + 0.05 × (1 - 2/30) = 0.6467 → 0.65
        [
          `${a.number} Thandi Stores (Pty) Ltd`,
          0.65,
          false,
          ['amount equals the amount due', "the customer's name appears", '2 days after the due date'],
        ],
        // 0.5 + 0.1 + 0.05 × (1 - 14/30) = 0.6267 → 0.63
        [
          `${b.number} Thandi Stores (Pty) Ltd`,
          0.63,
          false,
          ['amount equals the amount due', "the customer's name appears", '14 days after the due date'],
        ],
      ],
    );
    // The number in the reference ranks that invoice first, with the reason said.
    const withRef = await lineOf(t, r, '1000.00', 'THANDI STORES', '2026-04-03', `REF ${b.number}`);
    const w = await suggestions(r, withRef);
    assert.equal(w[0]!.label, `${b.number} Thandi Stores (Pty) Ltd`);
    assert.ok(w[0]!.reasons.includes(`${b.number} appears in the reference`), w[0]!.reasons.join('; '));
    assert.ok(w[0]!.reasons.includes('part of the amount due (1000.00 of 1150.00)'));
  });

  test('auto-reconcile takes exactly one certain candidate; two certain ones wait', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const one = await invoiceOf(r, 100); // 115.00
    // The import reconciles what is certain by itself (ingest.hooks.ts): exact amount and number.
    const { ids } = await ingest(t, r, [
      { date: '2026-04-02', amount: '115.00', description: 'EFT CREDIT', reference: one.number },
    ]);
    const paid = await fetched(r.sales, `/api/invoices/${one.id}`);
    assert.equal(paid.status, 'paid');
    const s = await r.api({ method: 'GET', url: `/api/reconciliation/transactions/${ids[0]}/suggestions` });
    assert.deepEqual(s.json().suggestions, []); // reconciled: nothing to suggest
    // Two invoices whose numbers both appear with the same amount: neither is certain alone.
    const x = await invoiceOf(r, 200); // 230.00
    const y = await invoiceOf(r, 200);
    const two = await lineOf(t, r, '230.00', `PAYMENT ${x.number} ${y.number}`);
    const certain = (await suggestions(r, two)).filter((q) => q.certain);
    assert.equal(certain.length, 2);
    const res = await r.api({
      method: 'POST',
      url: '/api/reconciliation/auto',
      payload: { bankAccountId: r.bankAccountId },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().reconciled, 0);
    assert.notEqual((await fetched(r.sales, `/api/invoices/${x.id}`)).status, 'paid');
  });

  test('matching an invoice records its payment, dated as the bank line into its account; undo reverses it', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const inv = await invoiceOf(r, 1000); // 1,150.00
    const line = await lineOf(t, r, '1150.00', 'DEPOSIT');
    const m = await match(r, { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] });
    assert.equal(m.kind, 'invoice');
    assert.equal(m.items.length, 1);
    const payments = await fetched(r.sales, `/api/invoices/${inv.id}/payments`);
    assert.deepEqual(
      payments.map((p: { amount: number; date: string; bankAccountId: string }) => [
        p.amount,
        p.date,
        p.bankAccountId,
      ]),
      [[1150, '2026-04-03', r.bankAccountId]],
    );
    assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}`)).status, 'paid');
    assert.deepEqual(await fetched(r.sales, `/api/reconciliation/matches/${m.id}`), m);
    // The line is taken: a second match is 409.
    const again = await r.api({
      method: 'POST',
      url: '/api/reconciliation/matches',
      payload: { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] },
    });
    assert.equal(again.statusCode, 409, again.body);
    const undo = await r.api({ method: 'POST', url: `/api/reconciliation/matches/${m.id}/undo` });
    assert.equal(undo.statusCode, 200, undo.body);
    assert.equal(undo.json().status, 'undone');
    assert.notEqual((await fetched(r.sales, `/api/invoices/${inv.id}`)).status, 'paid');
    const after = await fetched(r.sales, `/api/invoices/${inv.id}/payments`);
    assert.equal(after[0].status, 'reversed');
    const twice = await r.api({ method: 'POST', url: `/api/reconciliation/matches/${m.id}/undo` });
    assert.equal(twice.statusCode, 409, twice.body);
    // Unreconciled again: it can be matched anew.
    await match(r, { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] });
  });

  test('an already-recorded payment is suggested and linked, nothing recorded again', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const inv = await invoiceOf(r, 100); // 115.00
    const paid = await r.sales.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/payments`,
      payload: { amount: 115, date: '2026-04-01', bankAccountId: r.bankAccountId, reference: 'EFT-7781' },
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const line = await lineOf(t, r, '115.00', 'EFT-7781 THANDI');
    const s = await suggestions(r, line);
    assert.equal(s[0]!.kind, 'existing');
    assert.deepEqual(s[0]!.accept, { existing: [{ journalEntryId: paid.json().entryId }] });
    assert.ok(s[0]!.reasons.includes('EFT-7781 appears in the bank line'), s[0]!.reasons.join('; '));
    const m = await match(r, { bankTransactionId: line, ...s[0]!.accept });
    assert.equal(m.kind, 'existing');
    assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}/payments`)).length, 1);
    // Another bank line of the same amount cannot claim the same entry.
    const other = await lineOf(t, r, '115.00', 'EFT-7781 THANDI', '2026-04-04');
    assert.equal((await suggestions(r, other)).filter((q) => q.kind === 'existing').length, 0);
    await match(r, { bankTransactionId: other, ...s[0]!.accept }, 409);
    // Undoing an existing match only unlinks: the payment stays.
    const undo = await r.api({ method: 'POST', url: `/api/reconciliation/matches/${m.id}/undo` });
    assert.equal(undo.statusCode, 200, undo.body);
    assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}/payments`))[0].status, 'received');
  });

  test('several invoices of one customer at once; amounts must add up to the line exactly', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const a = await invoiceOf(r, 100); // 115.00
    const b = await invoiceOf(r, 200); // 230.00
    await invoiceOf(r, 1000); // 1,150.00: not part of it
    // 115.00 + 230.00 = 345.00
    const line = await lineOf(t, r, '345.00', 'THANDI STORES (PTY) LTD');
    const s = await suggestions(r, line);
    const group = s.find((q) => q.kind === 'invoices')!;
    assert.deepEqual(group.accept, {
      invoices: [
        { invoiceId: a.id, amount: 115 },
        { invoiceId: b.id, amount: 230 },
      ],
    });
    const short = await r.api({
      method: 'POST',
      url: '/api/reconciliation/matches',
      payload: { bankTransactionId: line, invoices: [{ invoiceId: a.id }, { invoiceId: b.id, amount: 200 }] },
    });
    assert.equal(short.statusCode, 400, short.body);
    assert.equal(short.json().field, 'invoices');
    const m = await match(r, { bankTransactionId: line, ...group.accept });
    assert.equal(m.items.length, 2);
    assert.equal((await fetched(r.sales, `/api/invoices/${a.id}`)).status, 'paid');
    assert.equal((await fetched(r.sales, `/api/invoices/${b.id}`)).status, 'paid');
  });

  test("an excess over the invoice becomes the customer's unapplied credit", async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const inv = await invoiceOf(r, 100); // 115.00 due
    const line = await lineOf(t, r, '200.00', `PAYMENT ${inv.number}`);
    const m = await match(r, { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] });
    // 200.00 - 115.00 = 85.00 credit
    assert.ok(m.items[0].customerCreditId);
    const credit = await fetched(r.sales, `/api/customer-credits/${m.items[0].customerCreditId}`);
    assert.equal(credit.amount, 85);
    assert.equal((await fetched(r.sales, `/api/invoices/${inv.id}`)).status, 'paid');
  });

  test("another tenant's ids answer 404", async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const o = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const inv = await invoiceOf(r, 100);
    const line = await lineOf(t, r, '115.00', 'X');
    const m = await match(r, { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] });
    const theirs = await lineOf(t, o, '115.00', 'X');
    for (const [method, url, payload] of [
      ['GET', `/api/reconciliation/matches/${m.id}`],
      ['POST', `/api/reconciliation/matches/${m.id}/undo`],
      ['GET', `/api/reconciliation/transactions/${line}/suggestions`],
      ['GET', `/api/reconciliation/suggestions?bankAccountId=${r.bankAccountId}`],
      ['GET', `/api/reconciliation/report?bankAccountId=${r.bankAccountId}`],
      ['POST', '/api/reconciliation/matches', { bankTransactionId: line, invoices: [{ invoiceId: inv.id }] }],
      [
        'POST',
        '/api/reconciliation/matches',
        { bankTransactionId: theirs, invoices: [{ invoiceId: inv.id }] },
      ],
    ] as const) {
      const res = await o.api({ method, url, ...(payload ? { payload } : {}) });
      assert.equal(res.statusCode, 404, `${method} ${url}: ${res.body}`);
    }
  });
});
