// Undoing a bad-debt write-off or recovery, and the s22(1) condition that only a vendor claims
// the VAT back, through the API. Figures by hand in the comments.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp();
  t.clock.set('2026-04-20T10:00:00Z');
});
after(() => t.close());

const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

/** 1,000 + 15% VAT 150 = 1,150, issued 2026-03-02 (s7(1)(a): 15% since 2018-04-01). */
const INVOICE = {
  issueDate: '2026-03-02',
  dueDate: '2026-03-16',
  lines: [{ description: 'Stock sold on credit', quantity: 1, unitPrice: 1000 }],
};

type Line = { accountCode: string; debit: number; credit: number; taxCode: string | null };

async function entry(s: Sales, id: string) {
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: Line) => [l.accountCode, l.debit, l.credit, l.taxCode]);
}

const writeOff = (s: Sales, id: string, payload: object) =>
  s.api({ method: 'POST', url: `/api/invoices/${id}/write-off`, payload });
const recover = (s: Sales, id: string, payload: object) =>
  s.api({ method: 'POST', url: `/api/invoices/${id}/write-off/recover`, payload });
const undo = (s: Sales, id: string, writeOffId: string) =>
  s.api({ method: 'DELETE', url: `/api/invoices/${id}/write-off/${writeOffId}` });
const undoRecovery = (s: Sales, id: string, recoveryId: string) =>
  s.api({ method: 'DELETE', url: `/api/invoices/${id}/write-off/recoveries/${recoveryId}` });
const invoice = async (s: Sales, id: string) =>
  (await s.api({ method: 'GET', url: `/api/invoices/${id}` })).json();
const vat201 = async (s: Sales, from = '2026-03-01', to = '2026-04-30') =>
  (await s.api({ method: 'GET', url: `/api/reports/vat?from=${from}&to=${to}` })).json().vat201;

describe('undoing a write-off', () => {
  test('the 1,150 written off is due again; the reversal cancels the 150 claimed in field 17', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const w = (await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Customer liquidated' })).json();
    assert.equal(w.status, 'posted');
    assert.equal((await invoice(s, inv.id)).status, 'written_off');

    const res = await undo(s, inv.id, w.id);
    assert.equal(res.statusCode, 200, res.body);
    const undone = res.json();
    assert.equal(undone.status, 'reversed');
    assert.ok(undone.reversedAt);
    // The reversal mirrors the write-off (Dr 6800 1,000, Dr 1300 150, Cr 1100 1,150) line by line,
    // on the write-off's own date: Cr bad debts 1,000, Cr VAT input 150, Dr debtors 1,150.
    assert.deepEqual(await entry(s, undone.reversalEntryId), [
      ['6800', 0, 1000, 'input_bad_debt'],
      ['1300', 0, 150, 'input_bad_debt'],
      ['1100', 1150, 0, null],
    ]);
    // Due again: 1,150, overdue since 2026-03-16 (stored open); nothing counts as written off.
    const doc = await invoice(s, inv.id);
    assert.deepEqual([doc.status, doc.amountDue, doc.amountWrittenOff], ['overdue', 1150, 0]);
    // Field 17 = 150 − 150 = 0; field 20 = 13 − 19 = 150 − 0 = 150, as before the write-off.
    const v = await vat201(s);
    assert.deepEqual([v.field17, v.field19, v.field20], [0, 0, 150]);

    // Once only; the list shows it, undone.
    assert.equal(assertProblem(await undo(s, inv.id, w.id), 409).code, 'ALREADY_REVERSED');
    const list = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/write-off` })).json();
    assert.deepEqual(
      list.map((x: { id: string; status: string }) => [x.id, x.status]),
      [[w.id, 'reversed']],
    );
    const recoveries = await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/write-off/recoveries` });
    assert.deepEqual(recoveries.json(), []);

    // Written off again: the undone one no longer counts, so the claim is 1,150 × 150/1,150 = 150.
    const again = await writeOff(s, inv.id, { date: '2026-04-18', reason: 'Liquidated after all' });
    assert.equal(again.statusCode, 201, again.body);
    assert.equal(again.json().vatAmount, 150);
    assert.equal((await vat201(s)).field17, 150);
  });

  test('a write-off with money recovered on it: 409 WRITE_OFF_RECOVERED until the recovery is undone', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const w = (await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Liquidated' })).json();
    const r = (await recover(s, inv.id, { date: '2026-04-18', amount: 575 })).json();
    // 575 recovered > 0 that would stay written off.
    assert.equal(assertProblem(await undo(s, inv.id, w.id), 409).code, 'WRITE_OFF_RECOVERED');

    const res = await undoRecovery(s, inv.id, r.id);
    assert.equal(res.statusCode, 200, res.body);
    // The recovery was Dr bank 575, Cr 4950 500, Cr VAT output 75 (575 × 150/1,150): reversed.
    assert.deepEqual(await entry(s, res.json().reversalEntryId), [
      ['1000', 0, 575, null],
      ['4950', 500, 0, 'bad_debt_recovered'],
      ['2100', 75, 0, 'bad_debt_recovered'],
    ]);
    const listed = (
      await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/write-off/recoveries` })
    ).json();
    assert.deepEqual(
      listed.map((x: { id: string; status: string }) => [x.id, x.status]),
      [[r.id, 'reversed']],
    );
    // Field 12 = 75 − 75 = 0. The document stays written off until the write-off itself goes.
    assert.equal((await vat201(s)).field12, 0);
    assert.equal((await invoice(s, inv.id)).status, 'written_off');
    assert.equal(assertProblem(await undoRecovery(s, inv.id, r.id), 409).code, 'ALREADY_REVERSED');
    assert.equal((await undo(s, inv.id, w.id)).statusCode, 200);
    assert.equal((await invoice(s, inv.id)).amountDue, 1150);
  });

  test("another document's write-off, or another tenant's, is 404", async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const other = await released(s, INVOICE);
    const w = (await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Liquidated' })).json();
    assertProblem(await undo(s, other.id, w.id), 404);
    const stranger = await setup();
    assertProblem(await undo(stranger, inv.id, w.id), 404);
    assertProblem(await s.api({ method: 'GET', url: `/api/invoices/${crypto.randomUUID()}/write-off` }), 404);
    assert.equal((await invoice(s, inv.id)).status, 'written_off');
  });

  test('a write-off on or before the lock date cannot be undone (409 PERIOD_LOCKED)', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    const w = (await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Liquidated' })).json();
    const lock = await s.api({
      method: 'PATCH',
      url: '/api/ledger/settings',
      payload: { lockDate: '2026-04-15' },
    });
    assert.equal(lock.statusCode, 200, lock.body);
    assert.equal(assertProblem(await undo(s, inv.id, w.id), 409).code, 'PERIOD_LOCKED');
    assert.equal((await invoice(s, inv.id)).status, 'written_off');
  });
});

describe('s22(1): only a vendor claims the VAT of a bad debt', () => {
  test('registered when it invoiced, deregistered on 2026-04-01: a write-off on 2026-04-15 claims nothing', async () => {
    const s = await setup();
    const inv = await released(s, INVOICE);
    // The company stops being a vendor from 2026-04-01 (the invoice of 2026-03-02 charged 150).
    const companyId = (await s.api({ method: 'GET', url: '/api/companies' })).json()[0].id;
    const dereg = await s.api({
      method: 'PATCH',
      url: `/api/companies/${companyId}`,
      payload: { vatRegistered: false, vatRegisteredFrom: '2026-04-01' },
    });
    assert.equal(dereg.statusCode, 200, dereg.body);
    const res = await writeOff(s, inv.id, { date: '2026-04-15', reason: 'Liquidated' });
    assert.equal(res.statusCode, 201, res.body);
    // No deduction without being a vendor on the write-off date: VAT 0, the whole 1,150 is the
    // bad debt expense, untagged; field 17 stays 0.
    assert.deepEqual([res.json().vatAmount, res.json().netAmount], [0, 1150]);
    assert.deepEqual(await entry(s, res.json().entryId), [
      ['6800', 1150, 0, null],
      ['1100', 0, 1150, null],
    ]);
    assert.equal((await vat201(s)).field17, 0);
  });
});
