// Reconciliation that posts or pays: create with VAT, a transfer between bank accounts, bills
// (and a bill's excess refused), and the report tying out to the cent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { approved, type Purchases } from '../bills/bills.factories.ts';
import { entryLines, fetched } from '../invoices/invoices.factories.ts';
import { invoiceOf, lineOf, match, type Recon, reconSetup, suggestions } from './reconciliation.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
});
after(async () => {
  await t.close();
});

const accountId = async (r: Recon, code: string) =>
  (await fetched(r.sales, '/api/accounts')).find((a: { code: string }) => a.code === code).id as string;

async function supplier(r: Recon): Promise<Purchases> {
  const c = await r.api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: 'Karoo Office Supplies CC', contactType: 'SUPPLIER', vatNumber: '4987654321' },
  });
  assert.equal(c.statusCode, 201, c.body);
  return { api: r.api, supplierId: c.json().id };
}

describe('reconciliation: posting', () => {
  test('create posts the bank line against the account with VAT by its tax code; undo reverses it', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    // Money out R115.00, input_standard at 15%: VAT 115 × 15/115 = 15.00, net 100.00.
    // Dr Bank charges (6100) 100.00, Dr VAT input (1300) 15.00, Cr the bank (1010) 115.00.
    const line = await lineOf(t, r, '-115.00', 'MONTHLY ACCOUNT FEE');
    const m = await match(r, {
      bankTransactionId: line,
      create: { accountId: await accountId(r, '6100'), taxCode: 'input_standard' },
    });
    assert.equal(m.kind, 'create');
    assert.deepEqual(await entryLines(r.sales, m.items[0].journalEntryId), [
      ['1010', 0, 115, null, null],
      ['6100', 100, 0, 'input_standard', 15],
      ['1300', 15, 0, 'input_standard', 15],
    ]);
    // Money in R115.00 with an input code is refused, naming the field.
    const inLine = await lineOf(t, r, '115.00', 'CASH SALE');
    const wrong = await r.api({
      method: 'POST',
      url: '/api/reconciliation/matches',
      payload: {
        bankTransactionId: inLine,
        create: { accountId: await accountId(r, '4000'), taxCode: 'input_standard' },
      },
    });
    assert.equal(wrong.statusCode, 400, wrong.body);
    assert.equal(wrong.json().field, 'create.taxCode');
    // Money in at standard: Dr bank 115.00, Cr Sales (4000) 100.00, Cr VAT output (2100) 15.00.
    const sale = await match(r, {
      bankTransactionId: inLine,
      create: { accountId: await accountId(r, '4000'), taxCode: 'standard', description: 'Cash sale' },
    });
    assert.deepEqual(await entryLines(r.sales, sale.items[0].journalEntryId), [
      ['1010', 115, 0, null, null],
      ['4000', 0, 100, 'standard', 15],
      ['2100', 0, 15, 'standard', 15],
    ]);
    const undo = await r.api({ method: 'POST', url: `/api/reconciliation/matches/${m.id}/undo` });
    assert.equal(undo.statusCode, 200, undo.body);
    const again = await suggestions(r, line); // unreconciled again: asked for suggestions
    assert.ok(Array.isArray(again));
  });

  test('a transfer posts between the two bank accounts; the other side’s line matches it as existing', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const savings = await r.api({
      method: 'POST',
      url: '/api/bank-accounts',
      payload: { name: 'FNB Savings', bank: 'fnb', accountNumber: '62899990000' },
    });
    assert.equal(savings.statusCode, 201, savings.body);
    const out = await lineOf(t, r, '-5000.00', 'TRANSFER TO SAVINGS');
    const m = await match(r, { bankTransactionId: out, transfer: { bankAccountId: savings.json().id } });
    // Dr savings 5,000.00, Cr cheque (1010) 5,000.00.
    const lines = await entryLines(r.sales, m.items[0].journalEntryId);
    assert.deepEqual(lines[0], ['1010', 0, 5000, null, null]);
    assert.deepEqual([lines[1][1], lines[1][2]], [5000, 0]);
    // The savings account's own line (money in) finds the same entry, unclaimed on that account.
    const other = { ...r, bankAccountId: savings.json().id };
    const inLine = await lineOf(t, other, '5000.00', 'TRANSFER FROM CHEQUE');
    const s = await suggestions(r, inLine);
    assert.deepEqual(s[0]!.accept, { existing: [{ journalEntryId: m.items[0].journalEntryId }] });
    const linked = await match(r, { bankTransactionId: inLine, ...s[0]!.accept });
    assert.equal(linked.kind, 'existing');
    // The transfer cannot be undone under the other side's match.
    const blocked = await r.api({ method: 'POST', url: `/api/reconciliation/matches/${m.id}/undo` });
    assert.equal(blocked.statusCode, 409, blocked.body);
  });

  test('matching a bill records its payment; more than is due is 422 (no supplier credit is kept)', async () => {
    const r = await reconSetup(t, await register(t.app, { plan: 'business' }));
    const p = await supplier(r);
    const bill = await approved(p); // 1,350.00 (bills.factories.ts)
    const line = await lineOf(t, r, '-1350.00', 'KAROO OFFICE SUPPLIES KOS-1001');
    // Exact amount and the bill number: certain, so the import paid it by itself.
    assert.equal((await fetched(r.sales, `/api/bills/${bill.id}`)).status, 'paid');
    assert.deepEqual(await suggestions(r, line), []);
    const bill2 = await approved(p, { billNumber: 'KOS-1002' });
    const over = await lineOf(t, r, '-1400.00', 'KAROO');
    const res = await r.api({
      method: 'POST',
      url: '/api/reconciliation/matches',
      payload: { bankTransactionId: over, bills: [{ billId: bill2.id }] },
    });
    assert.equal(res.statusCode, 422, res.body);
    const exact = await lineOf(t, r, '-1350.00', 'KAROO', '2026-04-05');
    const m = await match(r, { bankTransactionId: exact, bills: [{ billId: bill2.id }] });
    assert.equal(m.kind, 'bill');
    const payments = await fetched(r.sales, `/api/bills/${bill2.id}/payments`);
    assert.deepEqual(
      payments.map((x: { amount: number; date: string; bankAccountId: string }) => [
        x.amount,
        x.date,
        x.bankAccountId,
      ]),
      [[1350, '2026-04-05', r.bankAccountId]],
    );
  });

  test('the report ties out: statement - unreconciled + unmatched ledger = ledger, to the cent', async () => {
    const b = await register(t.app, { plan: 'business' });
    const r = await reconSetup(t, b);
    const inv = await invoiceOf(r, 100); // 115.00
    // In the ledger only: a payment of 57.50 recorded on 2026-04-01 into the account.
    const other = await invoiceOf(r, 50); // 57.50
    const paid = await r.sales.api({
      method: 'POST',
      url: `/api/invoices/${other.id}/payments`,
      payload: { amount: 57.5, date: '2026-04-01', bankAccountId: r.bankAccountId },
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const matched = await lineOf(t, r, '115.00', 'DEPOSIT', '2026-04-02');
    await match(r, { bankTransactionId: matched, invoices: [{ invoiceId: inv.id }] });
    await lineOf(t, r, '-33.33', 'FEE', '2026-04-03'); // on the statement only
    await lineOf(t, r, '-10.00', 'LATER', '2026-04-20'); // after asOf
    const rep = await fetched(
      r.sales,
      `/api/reconciliation/report?bankAccountId=${r.bankAccountId}&asOf=2026-04-10`,
    );
    // Statement: 0 + 115.00 - 33.33 = 81.67. Ledger: 57.50 + 115.00 = 172.50.
    // 81.67 - (-33.33) + 57.50 = 172.50.
    assert.equal(rep.statementLinesBalance, 81.67);
    assert.equal(rep.statementBalance, 81.67);
    assert.equal(rep.ledgerBalance, 172.5);
    assert.equal(rep.unreconciledTotal, -33.33);
    assert.equal(rep.unmatchedLedgerTotal, 57.5);
    assert.equal(rep.difference, 0);
    assert.deepEqual(
      rep.unreconciled.map((l: { amount: number }) => l.amount),
      [-33.33],
    );
    assert.deepEqual(
      rep.unmatchedLedger.map((l: { amount: number }) => l.amount),
      [57.5],
    );
    // Before the matched line's date: it is not on the statement yet, its payment is unmatched.
    const early = await fetched(
      r.sales,
      `/api/reconciliation/report?bankAccountId=${r.bankAccountId}&asOf=2026-04-01`,
    );
    assert.deepEqual([early.statementLinesBalance, early.ledgerBalance, early.difference], [0, 57.5, 0]);
  });
});
