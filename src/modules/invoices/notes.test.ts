// Credit and debit notes that name the document they adjust (issue 14, items 2, 3, 4 and 11):
// the VAT of the adjusted supply (VAT Act s21), what remains to credit, the date, `applied`,
// a debit note naming its invoice, and the reference line on the printed note.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfOf } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, release, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

/** A company VAT-registered since 2017-01-01 (both standard rates apply) and one customer. */
const setup = async (): Promise<Sales> => salesSetup(t, await register(t.app));

type JournalLine = { accountCode: string; debit: number; credit: number; taxCode: string | null };

async function entry(s: Sales, id: string | null) {
  assert.ok(id, 'the document posted an entry');
  const res = await s.api({ method: 'GET', url: `/api/ledger/journals/${id}` });
  assert.equal(res.statusCode, 200, res.body);
  return res.json().lines.map((l: JournalLine) => [l.accountCode, l.debit, l.credit, l.taxCode]);
}

const get = async (s: Sales, id: string) =>
  (await s.api({ method: 'GET', url: `/api/invoices/${id}` })).json();

function post(s: Sales, payload: object) {
  return s.api({
    method: 'POST',
    url: '/api/invoices',
    payload: {
      contactId: s.customerId,
      documentType: 'credit_note',
      issueDate: '2026-03-05',
      dueDate: '2026-03-05',
      ...payload,
    },
  });
}

const line = (unitPrice: number, description = 'Returned goods') => ({ description, quantity: 1, unitPrice });

describe('a note takes the VAT of the document it adjusts (VAT Act s21)', () => {
  test('a credit note of 2018-04-10 against a 14% invoice of 2018-03-15 charges 14%, not 15%', async () => {
    const s = await setup();
    // The invoice: net 1,000.00 at the standard rate of 2018-03-15, 14% (15% only from
    // 2018-04-01): VAT 1,000.00 × 14% = 140.00, total 1,140.00.
    const inv = await released(s, {
      issueDate: '2018-03-15',
      dueDate: '2018-04-14',
      lines: [line(1000, 'Stock')],
    });
    assert.deepEqual([inv.vatTotal, inv.total, inv.lines[0].vatRate], [140, 1140, 14]);
    // The credit note of 2018-04-10 for net 100.00 adjusts that supply: 14% of 100.00 = 14.00,
    // total 114.00 (at its own date's 15% it would be 15.00 and 115.00).
    const cn = await createDoc(s, {
      documentType: 'credit_note',
      issueDate: '2018-04-10',
      dueDate: '2018-04-10',
      creditedDocumentId: inv.id,
      lines: [line(100)],
    });
    assert.deepEqual([cn.lines[0].vatRate, cn.vatTotal, cn.total, cn.vatRegistered], [14, 14, 114, true]);
    // The same credit note naming no invoice takes its own date's 15%: 15.00, 115.00.
    const loose = await createDoc(s, {
      documentType: 'credit_note',
      issueDate: '2018-04-10',
      dueDate: '2018-04-10',
      lines: [line(100)],
    });
    assert.deepEqual([loose.vatTotal, loose.total], [15, 115]);
    // Released: Dr sales 100.00, Dr VAT output 14.00, Cr debtors 114.00, applied to the invoice
    // at once (1,140.00 − 114.00 = 1,026.00 still due).
    const done = await release(s, cn.id);
    assert.deepEqual(await entry(s, done.entryId), [
      ['1100', 0, 114, null],
      ['4000', 100, 0, 'standard'],
      ['2100', 14, 0, 'standard'],
    ]);
    assert.equal((await get(s, inv.id)).amountDue, 1026);
    // A debit note of 2018-04-10 against the same invoice: net 50.00 at 14% = 7.00, total 57.00.
    const dn = await createDoc(s, {
      documentType: 'debit_note',
      issueDate: '2018-04-10',
      dueDate: '2018-05-10',
      creditedDocumentId: inv.id,
      lines: [line(50, 'Freight not charged')],
    });
    assert.deepEqual([dn.lines[0].vatRate, dn.vatTotal, dn.total], [14, 7, 57]);
    // Moving the note's date does not move its rate: still the invoice's 14%.
    const moved = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${dn.id}`,
      payload: { issueDate: '2018-04-20', dueDate: '2018-05-20' },
    });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.deepEqual([moved.json().vatTotal, moved.json().total], [7, 57]);
  });

  test('a supply made before registration: its credit note carries no VAT though the note is dated after', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b, { vatRegistered: false });
    const reg = await s.api({
      method: 'PATCH',
      url: `/api/companies/${b.companyId}`,
      payload: { vatRegistered: true, vatRegisteredFrom: '2020-03-01', vatNumber: '4123456789' },
    });
    assert.equal(reg.statusCode, 200, reg.body);
    // Invoice of 2020-02-10, before registration: no VAT, total = net 500.00.
    const inv = await released(s, {
      issueDate: '2020-02-10',
      dueDate: '2020-03-11',
      lines: [line(500, 'Stock')],
    });
    assert.deepEqual([inv.vatRegistered, inv.vatTotal, inv.total], [false, 0, 500]);
    // Credit note of 2020-03-05 (registered by then) for net 200.00: the supply bore no output
    // tax, so the note adjusts none (s21 applies only to a supply by a vendor): VAT 0, total 200.00.
    const cn = await createDoc(s, {
      documentType: 'credit_note',
      issueDate: '2020-03-05',
      dueDate: '2020-03-05',
      creditedDocumentId: inv.id,
      lines: [line(200)],
    });
    assert.deepEqual([cn.vatRegistered, cn.lines[0].vatRate, cn.vatTotal, cn.total], [false, 0, 0, 200]);
    // An invoice of the same day does charge VAT: 15% of 200.00 = 30.00.
    const after = await createDoc(s, { issueDate: '2020-03-05', dueDate: '2020-04-04', lines: [line(200)] });
    assert.equal(after.vatTotal, 30);
    // Released: Dr sales 200.00, Cr debtors 200.00, no VAT line and no tax code.
    const done = await release(s, cn.id);
    assert.deepEqual(await entry(s, done.entryId), [
      ['1100', 0, 200, null],
      ['4000', 200, 0, null],
    ]);
  });
});

describe('a credit note cannot exceed what remains of what it credits', () => {
  test('1,725 against 1,150 refused; 1,000 then 150 accepted; 0.01 more refused at create and at release', async () => {
    const s = await setup();
    // The invoice: net 1,000.00 + 15% VAT 150.00 = 1,150.00.
    const inv = await released(s, { lines: [line(1000, 'Stock')] });
    assert.equal(inv.total, 1150);
    // Net 1,500.00 + 15% 225.00 = 1,725.00 > 1,150.00: refused, naming lines (the amount is the lines').
    const tooMuch = await post(s, { creditedDocumentId: inv.id, lines: [line(1500)] });
    assert.equal(assertProblem(tooMuch, 400).field, 'lines');
    // A total of exactly 1,000.00: 869.56 + VAT 130.434 → 130.43 = 999.99, plus a line of 0.01
    // (VAT 0.0015 → 0.00) = 1,000.00. Released, 150.00 remains.
    const a = (
      await post(s, { creditedDocumentId: inv.id, lines: [line(869.56), line(0.01, 'Rounding')] })
    ).json();
    assert.equal(a.total, 1000);
    await release(s, a.id);
    // Exactly 150.00: 130.43 + VAT 19.5645 → 19.56 = 149.99, plus 0.01 = 150.00 ≤ 150.00: accepted.
    const b = (
      await post(s, { creditedDocumentId: inv.id, lines: [line(130.43), line(0.01, 'Rounding')] })
    ).json();
    assert.equal(b.total, 150);
    // 0.01 more (VAT 0.00): accepted as a draft while b is a draft too (drafts do not count).
    const c = await post(s, { creditedDocumentId: inv.id, lines: [line(0.01)] });
    assert.equal(c.statusCode, 201, c.body);
    await release(s, b.id);
    // b released: 1,150.00 − 1,000.00 − 150.00 = 0.00 remains. c is refused at release, and a
    // new 0.01 at create; a draft changed to more than remains is refused too.
    const late = await s.api({ method: 'POST', url: `/api/invoices/${c.json().id}/release` });
    assert.equal(assertProblem(late, 400).field, 'lines');
    assert.equal((await get(s, c.json().id)).status, 'draft');
    assert.equal(
      assertProblem(await post(s, { creditedDocumentId: inv.id, lines: [line(0.01)] }), 400).field,
      'lines',
    );
    // A void credit note no longer counts: a's allocation reversed and a voided, 1,000.00
    // remains again, and c (0.01) releases.
    const [allocation] = (await s.api({ method: 'GET', url: `/api/invoices/${a.id}/allocations` })).json();
    const undone = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${inv.id}/allocations/${allocation.id}`,
    });
    assert.equal(undone.statusCode, 200, undone.body);
    assert.equal((await s.api({ method: 'DELETE', url: `/api/invoices/${a.id}` })).statusCode, 200);
    assert.equal((await release(s, c.json().id)).status, 'applied');
    const grown = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${(await post(s, { creditedDocumentId: inv.id, lines: [line(100)] })).json().id}`,
      // Net 900.00 + 135.00 = 1,035.00 > 1,000.00 − 0.01 = 999.99.
      payload: { lines: [line(900)] },
    });
    assert.equal(assertProblem(grown, 400).field, 'lines');
  });

  test('two credit notes released at once that together exceed the invoice: one is refused', async () => {
    const s = await setup();
    const inv = await released(s, { lines: [line(1000, 'Stock')] });
    // Each: net 800.00 + 120.00 = 920.00; together 1,840.00 > 1,150.00.
    const one = await createDoc(s, {
      documentType: 'credit_note',
      creditedDocumentId: inv.id,
      lines: [line(800)],
    });
    const two = await createDoc(s, {
      documentType: 'credit_note',
      creditedDocumentId: inv.id,
      lines: [line(800)],
    });
    const results = await Promise.all(
      [one, two].map((n) => s.api({ method: 'POST', url: `/api/invoices/${n.id}/release` })),
    );
    assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 400]);
    assert.equal((await get(s, inv.id)).amountDue, 230);
  });
});

describe('a note is not dated before the document it adjusts', () => {
  test('credit or debit note before the invoice: 400 naming issueDate, at create and at change', async () => {
    const s = await setup();
    const inv = await released(s, { issueDate: '2026-03-02', dueDate: '2026-04-01' });
    for (const documentType of ['credit_note', 'debit_note']) {
      const early = await post(s, {
        documentType,
        issueDate: '2026-03-01',
        dueDate: '2026-03-31',
        creditedDocumentId: inv.id,
        lines: [line(10)],
      });
      assert.equal(assertProblem(early, 400).field, 'issueDate', documentType);
    }
    // The same day is allowed; moved a day earlier it is refused.
    const same = await post(s, {
      issueDate: '2026-03-02',
      dueDate: '2026-03-02',
      creditedDocumentId: inv.id,
      lines: [line(10)],
    });
    assert.equal(same.statusCode, 201, same.body);
    const moved = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${same.json().id}`,
      payload: { issueDate: '2026-03-01' },
    });
    assert.equal(assertProblem(moved, 400).field, 'issueDate');
  });
});

describe('applied credit notes; a debit note names its invoice', () => {
  test('a credit note wholly applied is applied; reversing an allocation opens it again', async () => {
    const s = await setup();
    const inv = await released(s, { lines: [line(1000, 'Stock')] });
    // Net 100.00 + 15.00 = 115.00, applied at once to the invoice (1,150.00 due): nothing left.
    const cn = await released(s, {
      documentType: 'credit_note',
      issueDate: '2026-03-05',
      dueDate: '2026-03-05',
      creditedDocumentId: inv.id,
      lines: [line(100)],
    });
    assert.deepEqual([cn.status, cn.amountCredited, cn.amountDue], ['applied', 115, 0]);
    const listed = (await s.api({ method: 'GET', url: '/api/invoices?status=applied' })).json();
    assert.deepEqual(
      listed.items.map((d: { id: string }) => d.id),
      [cn.id],
    );
    const [allocation] = (await s.api({ method: 'GET', url: `/api/invoices/${inv.id}/allocations` })).json();
    const undone = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${inv.id}/allocations/${allocation.id}`,
    });
    assert.equal(undone.statusCode, 200, undone.body);
    assert.deepEqual([(await get(s, cn.id)).status, (await get(s, cn.id)).amountDue], ['open', 115]);
    // 50.00 applied: 65.00 left, still open; the other 65.00: applied.
    const apply = (amount: number) =>
      s.api({
        method: 'POST',
        url: `/api/invoices/${inv.id}/allocations`,
        payload: { sourceId: cn.id, amount },
      });
    assert.equal((await apply(50)).statusCode, 201);
    assert.deepEqual([(await get(s, cn.id)).status, (await get(s, cn.id)).amountDue], ['open', 65]);
    assert.equal((await apply(65)).statusCode, 201);
    assert.deepEqual([(await get(s, cn.id)).status, (await get(s, cn.id)).amountDue], ['applied', 0]);
    // The invoice: 1,150.00 − 115.00 = 1,035.00 due.
    assert.equal((await get(s, inv.id)).amountDue, 1035);
  });

  test('creditedDocumentId on both notes, creditedInvoiceId its alias; the PDF names the invoice', async () => {
    const s = await setup();
    const inv = await released(s, { lines: [line(1000, 'Stock')] });
    const dn = await createDoc(s, {
      documentType: 'debit_note',
      issueDate: '2026-03-05',
      dueDate: '2026-04-04',
      creditedDocumentId: inv.id,
      lines: [line(40, 'Freight')],
    });
    assert.deepEqual([dn.creditedDocumentId, dn.creditedInvoiceId], [inv.id, inv.id]);
    const dnDone = await release(s, dn.id);
    // A debit note is owed on its own (net 40.00 + 6.00 = 46.00); the invoice is untouched.
    assert.deepEqual([dnDone.status, dnDone.amountDue], ['open', 46]);
    assert.equal((await get(s, inv.id)).amountDue, 1150);
    // The old name still works, and answers both.
    const cn = await createDoc(s, {
      documentType: 'credit_note',
      issueDate: '2026-03-05',
      dueDate: '2026-03-05',
      creditedInvoiceId: inv.id,
      lines: [line(10)],
    });
    assert.deepEqual([cn.creditedDocumentId, cn.creditedInvoiceId], [inv.id, inv.id]);
    // Both names for different documents; an invoice naming one; a draft named: 400.
    const draft = await createDoc(s);
    const both = await post(s, {
      creditedDocumentId: inv.id,
      creditedInvoiceId: draft.id,
      lines: [line(10)],
    });
    assert.equal(assertProblem(both, 400).field, 'creditedInvoiceId');
    const onInvoice = await post(s, {
      documentType: 'invoice',
      creditedDocumentId: inv.id,
      lines: [line(10)],
    });
    assert.equal(assertProblem(onInvoice, 400).field, 'creditedDocumentId');
    const onDraft = await post(s, { creditedDocumentId: draft.id, lines: [line(10)] });
    assert.equal(assertProblem(onDraft, 400).field, 'creditedDocumentId');
    // Printed under the title.
    for (const [doc, words] of [
      [cn, ['Tax Credit Note', `Credit note for invoice ${inv.number}`]],
      [dnDone, ['Tax Debit Note', `Debit note for invoice ${inv.number}`]],
    ] as const) {
      const [text] = await pdfOf(
        await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` }),
        new RegExp(`${doc.number}\\.pdf`),
      );
      for (const w of words) assert.ok(text!.includes(w), `"${w}" is not in:\n${text}`);
    }
  });
});
