// GET /api/invoices/{id}/pdf, the file parsed back with unpdf: a tax invoice shows what SARS asks
// of one (the words "Tax Invoice", supplier and recipient names, addresses and VAT numbers, number,
// date, descriptions, quantities, values, VAT) with the totals as printed, the banking details and
// the template's footer; without VAT registration it is an "Invoice" without VAT; every type has
// its title, a delivery note no prices; a draft says DRAFT; 60 lines break over pages that repeat
// the column headings; another tenant's id is a 404. The embedded Unicode font prints a Venda and
// a Polish name as written; a document that mixes VAT rates adds a breakdown per rate that sums to
// its totals, and one of a single rate keeps the totals alone.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { after, before, describe, test } from 'node:test';
import { register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { JPEG, png } from '../../../test/support/images.ts';
import { pdfOf } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { money } from '../../platform/money/money.ts';
import { BUILT_IN_LOOK, type Paper, type PaperLine } from './document-paper.ts';
import { vatBreakdown } from './document-pdf.ts';
import { createDoc, release, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

/** A VAT-registered company with its address, a customer with theirs, banking details and a template. */
async function fullSetup(opts: { vatRegistered?: boolean } = {}): Promise<Sales & { templateId: string }> {
  const b = await register(t.app, { companyName: 'Protea Trading (Pty) Ltd' });
  const s = await salesSetup(t, b, opts);
  const company = await s.api({
    method: 'PATCH',
    url: `/api/companies/${b.companyId}`,
    payload: {
      addressLine1: '12 Long Street',
      city: 'Cape Town',
      postalCode: '8001',
      province: 'Western Cape',
      registrationNo: '2015/123456/07',
      email: 'accounts@protea.example.com',
      phone: '021 555 0100',
    },
  });
  assert.equal(company.statusCode, 200, company.body);
  const customer = await s.api({
    method: 'PATCH',
    url: `/api/contacts/${s.customerId}`,
    payload: {
      vatNumber: '4987654321',
      addressLine1: '3 Church Square',
      city: 'Pretoria',
      postalCode: '0002',
    },
  });
  assert.equal(customer.statusCode, 200, customer.body);
  const settings = await s.api({
    method: 'PATCH',
    url: '/api/invoice-settings',
    payload: {
      bankName: 'First National Bank',
      bankAccountName: 'Protea Trading (Pty) Ltd',
      bankAccountNumber: '62000000001',
      bankBranchCode: '250655',
      bankAccountType: 'Cheque',
    },
  });
  assert.equal(settings.statusCode, 200, settings.body);
  const template = await s.api({
    method: 'POST',
    url: '/api/invoice-templates',
    payload: {
      name: 'Green',
      primaryColour: '#2e7d32',
      accentColour: '#e8f5e9',
      footer: 'Protea Trading: directors A. Dlamini, B. Naidoo.',
      logo: { contentType: 'image/png', data: png(90, 30).toString('base64') },
    },
  });
  assert.equal(template.statusCode, 201, template.body);
  return { ...s, templateId: template.json().id };
}

async function pdfPagesOf(s: Sales, id: string, filename: RegExp): Promise<string[]> {
  const res = await s.api({ method: 'GET', url: `/api/invoices/${id}/pdf` });
  if (process.env.KEEP_PDF) writeFileSync(`${process.env.KEEP_PDF}/${id}.pdf`, res.rawPayload);
  return pdfOf(res, filename);
}

function includesAll(text: string, expected: string[]) {
  for (const s of expected) assert.ok(text.includes(s), `"${s}" is not in:\n${text}`);
}

describe('a tax invoice', () => {
  test('shows what a tax invoice must, the totals as printed, banking details, the template', async () => {
    const s = await fullSetup();
    const doc = await createDoc(s, {
      templateId: s.templateId,
      reference: 'PO 7781',
      notes: 'Delivered to the Pretoria store.',
      terms: 'Payment within 30 days.',
    });
    await release(s, doc.id);
    const pages = await pdfPagesOf(s, doc.id, /filename="INV-0001\.pdf"/);
    assert.equal(pages.length, 1);
    const text = pages[0]!;
    includesAll(text, [
      'Tax Invoice',
      // Supplier: name, address, VAT and registration numbers.
      'Protea Trading (Pty) Ltd',
      '12 Long Street',
      'Cape Town 8001',
      'VAT No. 4123456789',
      'Reg. No. 2015/123456/07',
      // Recipient: name, address and VAT number.
      'BILL TO',
      'Thandi Stores (Pty) Ltd',
      '3 Church Square',
      'Pretoria 0002',
      'VAT No. 4987654321',
      // Serial number, dates, reference.
      'INV-0001',
      '2 March 2026',
      '1 April 2026',
      'PO 7781',
      // The line: description, quantity, unit price, VAT rate, net, VAT, total.
      'Description',
      'Qty',
      'Unit price',
      'VAT rate',
      'Consulting',
      '333.33',
      '15%',
      '999.99',
      '150.00',
      '1 149.99',
      // Totals as printed.
      'Total excl. VAT',
      'R 999.99',
      'VAT at 15%',
      'R 150.00',
      'Total incl. VAT',
      'R 1 149.99',
      'Amount paid',
      'R 0.00',
      'Amount due',
      // Banking details from the settings, the number as the reference.
      'Banking details',
      'First National Bank',
      '62000000001',
      '250655',
      'Cheque',
      'Payment reference',
      // Notes, terms, the template's footer, the page footer.
      'Delivered to the Pretoria store.',
      'Payment within 30 days.',
      'Protea Trading: directors A. Dlamini, B. Naidoo.',
      'Page 1 of 1',
    ]);
    assert.ok(!text.includes('DRAFT'), 'a released invoice is no draft');
    // The template's logo is in the file, its transparency as a soft mask.
    const bytes = (await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` })).rawPayload;
    assert.ok(bytes.includes('/Subtype /Image') && bytes.includes('/SMask'), 'the logo is printed');
  });

  test('a payment shows as paid, and what is left due', async () => {
    const s = await fullSetup();
    const doc = await createDoc(s);
    await release(s, doc.id);
    const paid = await s.api({
      method: 'POST',
      url: `/api/invoices/${doc.id}/payments`,
      payload: { amount: 149.99, date: '2026-03-10' },
    });
    assert.equal(paid.statusCode, 201, paid.body);
    const [text] = await pdfPagesOf(s, doc.id, /INV-0001/);
    includesAll(text!, ['Amount paid', 'R 149.99', 'Amount due', 'R 1 000.00']);
  });

  test('a discount shows on its line and in the totals', async () => {
    const s = await fullSetup();
    const doc = await createDoc(s, {
      lines: [
        { description: 'Discounted', quantity: 7, unitPrice: 14.99, discountRate: 12.5 },
        { description: 'Exported', quantity: 1, unitPrice: 500, vatRate: 0 },
      ],
    });
    const [text] = await pdfPagesOf(s, doc.id, /INV-0001/);
    includesAll(text!, [
      '12.5%',
      '91.81',
      'Before discount',
      'R 604.93',
      'Discount',
      '-R 13.12',
      'Total excl. VAT',
      'R 591.81',
      'R 13.77',
      'R 605.58',
    ]);
    // The zero-rated line carries no VAT: all of it is at 15%.
    assert.ok(text!.includes('VAT at 15%'), text);
  });

  test("the settings' default template dresses documents that name none, until it is deleted", async () => {
    const s = await fullSetup();
    const doc = await createDoc(s);
    const [before] = await pdfPagesOf(s, doc.id, /INV-0001/);
    assert.ok(!before!.includes('Protea Trading: directors'), 'the built-in look has no footer');
    const set = await s.api({
      method: 'PATCH',
      url: '/api/invoice-settings',
      payload: { defaultTemplateId: s.templateId },
    });
    assert.equal(set.statusCode, 200, set.body);
    const [dressed] = await pdfPagesOf(s, doc.id, /INV-0001/);
    assert.ok(dressed!.includes('Protea Trading: directors'), dressed);
    assert.equal(
      (await s.api({ method: 'DELETE', url: `/api/invoice-templates/${s.templateId}` })).statusCode,
      204,
    );
    const [after] = await pdfPagesOf(s, doc.id, /INV-0001/);
    assert.ok(!after!.includes('Protea Trading: directors'), after);
  });

  test('a JPEG logo is printed as it is (DCT)', async () => {
    const s = await fullSetup();
    const tpl = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Photo', logo: { contentType: 'image/jpeg', data: JPEG.toString('base64') } },
    });
    assert.equal(tpl.statusCode, 201, tpl.body);
    const doc = await createDoc(s, { templateId: tpl.json().id });
    const res = await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` });
    assert.equal(res.statusCode, 200);
    assert.ok(res.rawPayload.includes('/DCTDecode'), 'the JPEG is embedded');
    const [text] = await pdfOf(res, /INV-0001/);
    assert.ok(text!.includes('Tax Invoice'));
  });

  test('without VAT registration: an Invoice, no VAT number, no VAT', async () => {
    const s = await fullSetup({ vatRegistered: false });
    const doc = await createDoc(s);
    await release(s, doc.id);
    const [text] = await pdfPagesOf(s, doc.id, /INV-0001/);
    includesAll(text!, [
      'Invoice',
      'Protea Trading (Pty) Ltd',
      'Consulting',
      'Total',
      'R 999.99',
      'Amount due',
    ]);
    assert.ok(!text!.includes('Tax Invoice'), text);
    assert.ok(!text!.includes('VAT No. 41'), 'no VAT number of the supplier');
    assert.ok(!/\bVAT at\b|Total incl\. VAT/.test(text!), text);
  });

  test('registered later than the issue date: the earlier document is no tax invoice', async () => {
    const s = await fullSetup();
    const old = await createDoc(s, { issueDate: '2016-12-01', dueDate: '2016-12-31' });
    const [text] = await pdfPagesOf(s, old.id, /INV-0001/);
    assert.ok(!text!.includes('Tax Invoice'));
    assert.ok(text!.includes('Invoice'));
  });
});

describe('names in any script', () => {
  test('a customer named Ṱhohoyanḓou Traders in Łódź prints intact, in the embedded font only', async () => {
    const s = await fullSetup();
    // U+1E70 (T with circumflex below) and U+1E13 (d with circumflex below); Ł, ó, ź.
    const contact = await s.api({
      method: 'PATCH',
      url: `/api/contacts/${s.customerId}`,
      payload: {
        name: 'Ṱhohoyanḓou Traders',
        addressLine1: 'ul. Piotrkowska 104',
        city: 'Łódź',
        postalCode: '90-001',
        country: 'Poland',
      },
    });
    assert.equal(contact.statusCode, 200, contact.body);
    const doc = await createDoc(s, {
      lines: [{ description: 'Maize delivered to Ṱhohoyanḓou and Łódź', quantity: 1, unitPrice: 100 }],
    });
    await release(s, doc.id);
    const res = await s.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` });
    const [text] = await pdfOf(res, /INV-0001/);
    includesAll(text!, ['Ṱhohoyanḓou Traders', 'ul. Piotrkowska 104', 'Łódź 90-001']);
    // The description wraps in its column: read it across the break.
    assert.ok(text!.replace(/\s+/g, ' ').includes('Maize delivered to Ṱhohoyanḓou and Łódź'), text);
    assert.ok(!text!.includes('?'), `no character was replaced:\n${text}`);
    // DejaVu Sans, embedded as subsets; no standard font (Helvetica) is named in the file.
    const bytes = res.rawPayload.toString('latin1');
    assert.match(bytes, /\/BaseFont \/[A-Z]{6}\+DejaVuSans\b/);
    assert.match(bytes, /\/BaseFont \/[A-Z]{6}\+DejaVuSans-Bold\b/);
    assert.doesNotMatch(bytes, /Helvetica|Times-|Courier|\/Subtype \/Type1/);
  });
});

describe('VAT breakdown', () => {
  test('a document mixing 15% and zero-rated lines prints a row per rate that sums to the totals', async () => {
    const s = await fullSetup();
    // VAT Act: the standard rate is 15% (s7(1)(a), from 1 April 2018); zero-rated supplies
    // (s11: basic foodstuffs, exports) are taxed at 0%. DECISIONS.md: each line's net and VAT
    // are rounded half-up to cents; the totals are sums of the rounded lines.
    //   Consulting   3 x 333.33          net   999.99  VAT 149.9985 -> 150.00  total 1 149.99
    //   Delivery     1 x 85.50 less 10%  net    76.95  VAT  11.5425 ->  11.54  total    88.49
    //   Courier      1 x 12.30           net    12.30  VAT   1.845  ->   1.85  total    14.15
    //   Stamp        1 x 2.30            net     2.30  VAT   0.345  ->   0.35  total     2.65
    //   Maize meal   7 x 14.99 at 0%     net   104.93  VAT   0.00            total   104.93
    //   Exported     1 x 500.00 at 0%    net   500.00  VAT   0.00            total   500.00
    // Standard rate 15%: excl. 999.99 + 76.95 + 12.30 + 2.30 = 1 091.54
    //                    VAT   150.00 + 11.54 + 1.85 + 0.35 =   163.74 (not 1 091.54 x 15% =
    //                    163.731 -> 163.73: the VAT is rounded per line, then summed)
    //                    incl. 1 091.54 + 163.74            = 1 255.28
    // Zero-rated 0%:     excl. 104.93 + 500.00 = 604.93, VAT 0.00, incl. 604.93
    // Total:             excl. 1 696.47, VAT 163.74, incl. 1 860.21: the document's totals.
    const doc = await createDoc(s, {
      lines: [
        { description: 'Consulting', quantity: 3, unitPrice: 333.33, vatRate: 15 },
        { description: 'Delivery', quantity: 1, unitPrice: 85.5, discountRate: 10 },
        { description: 'Courier', quantity: 1, unitPrice: 12.3 },
        { description: 'Stamp', quantity: 1, unitPrice: 2.3 },
        { description: 'Maize meal 10 kg', quantity: 7, unitPrice: 14.99, vatRate: 0 },
        { description: 'Exported goods', quantity: 1, unitPrice: 500, vatRate: 0 },
      ],
    });
    assert.deepEqual(
      [doc.subtotal, doc.vatTotal, doc.total],
      [1696.47, 163.74, 1860.21],
      'the stored totals are the figures worked out above',
    );
    const [text] = await pdfPagesOf(s, doc.id, /INV-0001/);
    includesAll(text!, [
      'VAT breakdown Excl. VAT VAT Incl. VAT',
      'Standard rate 15% 1 091.54 163.74 1 255.28',
      'Zero-rated 0% 604.93 0.00 604.93',
      'Total 1 696.47 163.74 1 860.21',
      // The totals block as before, the same figures.
      'Total excl. VAT R 1 696.47',
      'R 163.74',
      'Total incl. VAT R 1 860.21',
    ]);
    // Standard first, then zero-rated, then their sums.
    const at = (s: string) => text!.indexOf(s);
    assert.ok(at('Standard rate 15%') < at('Zero-rated 0%') && at('Zero-rated 0%') < at('Total 1 696.47'));
  });

  test('a document of one rate has no breakdown; nor has one wholly zero-rated', async () => {
    const s = await fullSetup();
    const standard = await createDoc(s, {
      lines: [
        { description: 'Consulting', quantity: 3, unitPrice: 333.33 },
        { description: 'Courier', quantity: 1, unitPrice: 12.3 },
      ],
    });
    const [one] = await pdfPagesOf(s, standard.id, /INV-0001/);
    includesAll(one!, ['VAT at 15%', 'Total excl. VAT R 1 012.29', 'Total incl. VAT R 1 164.14']);
    assert.ok(!one!.includes('VAT breakdown') && !one!.includes('Standard rate'), one);
    const zero = await createDoc(s, {
      lines: [
        { description: 'Maize meal 10 kg', quantity: 7, unitPrice: 14.99, vatRate: 0 },
        { description: 'Exported goods', quantity: 1, unitPrice: 500, vatRate: 0 },
      ],
    });
    const [none] = await pdfPagesOf(s, zero.id, /INV-0002/);
    assert.ok(!none!.includes('VAT breakdown') && !none!.includes('Zero-rated'), none);
  });

  test('bands per tax code and rate (standard, zero-rated, exempt) add up to the totals', () => {
    // A paper made by hand: lines as a document stores them (each already rounded), with the
    // tax codes DECISIONS.md names, so an exempt line gets its own band beside a 0% one.
    const line = (taxCode: PaperLine['taxCode'], rate: string, net: string, vat: string): PaperLine => ({
      description: taxCode ?? 'none',
      quantity: money(1),
      unitPrice: money(net),
      discountRate: money(0),
      vatRate: money(rate),
      taxCode,
      net: money(net),
      vat: money(vat),
      total: money(net).plus(vat),
    });
    const lines = [
      line('zero', '0', '104.93', '0'),
      line('standard', '15', '999.99', '150.00'),
      line('exempt', '0', '700.00', '0'),
      line('standard', '15', '76.95', '11.54'),
      line('standard', '14', '100.00', '14.00'),
    ];
    const paper = {
      type: 'invoice',
      vatRegistered: true,
      lines,
      look: BUILT_IN_LOOK,
    } as unknown as Paper;
    const bands = vatBreakdown(paper)!;
    assert.deepEqual(
      bands.map((b) => [
        b.taxCode,
        b.rate.toString(),
        b.net.toFixed(2),
        b.vat.toFixed(2),
        b.total.toFixed(2),
      ]),
      [
        ['standard', '15', '1076.94', '161.54', '1238.48'],
        ['standard', '14', '100.00', '14.00', '114.00'],
        ['zero', '0', '104.93', '0.00', '104.93'],
        ['exempt', '0', '700.00', '0.00', '700.00'],
      ],
    );
    // The bands add up to the lines, and so to the document's totals (sums of the same lines).
    type Amounts = Pick<PaperLine, 'net' | 'vat' | 'total'>;
    const sum = (xs: Amounts[], k: keyof Amounts) =>
      xs.reduce((acc, x) => acc.plus(x[k]), money(0)).toFixed(2);
    for (const k of ['net', 'vat', 'total'] as const) assert.equal(sum(bands, k), sum(lines, k), k);
    // One band, or a company not registered for VAT: no breakdown.
    assert.equal(vatBreakdown({ ...paper, lines: lines.filter((l) => l.vatRate.eq(15)) }), null);
    assert.equal(
      vatBreakdown({ ...paper, vatRegistered: false, lines: lines.map((l) => ({ ...l, taxCode: null })) }),
      null,
    );
    assert.equal(vatBreakdown({ ...paper, type: 'delivery_note' }), null);
  });
});

describe('every type its title', () => {
  test('quote, pro forma, sales order, credit note, debit note, cash sale, deposit; a delivery note without prices', async () => {
    const s = await fullSetup();
    const expected: Array<[string, string[], Array<string | RegExp>]> = [
      [
        'quote',
        ['Quote', 'QUO-0001', 'Valid until', 'QUOTE FOR', 'R 1 149.99'],
        ['Tax Invoice', 'Banking details'],
      ],
      ['pro_forma', ['Pro Forma Invoice', 'Not a tax invoice', 'PRO-0001', 'Banking details'], []],
      ['sales_order', ['Sales Order', 'SO-0001'], ['Tax Invoice']],
      ['credit_note', ['Tax Credit Note', 'CN-0001', 'Credit remaining'], ['Banking details']],
      ['debit_note', ['Tax Debit Note', 'DBN-0001', 'Amount due'], []],
      ['cash_sale', ['Tax Invoice', 'Cash sale', 'CS-0001'], ['Banking details']],
      // A deposit is no supply until applied or forfeited (VAT Act s1): it prints no VAT.
      ['deposit', ['Deposit', 'DEP-0001'], ['Total excl. VAT', 'VAT breakdown', 'VAT rate', 'Tax Invoice']],
      [
        'delivery_note',
        ['Delivery Note', 'DN-0001', 'DELIVER TO', 'Consulting', 'Quantity', 'Received in good order'],
        ['Unit price', '333.33', /R \d/, 'Total'],
      ],
    ];
    for (const [documentType, present, absent] of expected) {
      const doc = await createDoc(s, { documentType });
      const [text] = await pdfPagesOf(s, doc.id, new RegExp(`${doc.number}\\.pdf`));
      includesAll(text!, present);
      for (const word of absent) {
        const found = typeof word === 'string' ? text!.includes(word) : word.test(text!);
        assert.ok(!found, `${documentType}: "${word}" in\n${text}`);
      }
    }
  });

  test('a draft says DRAFT; a voided document VOID', async () => {
    const s = await fullSetup();
    const draft = await createDoc(s);
    const [draftText] = await pdfPagesOf(s, draft.id, /INV-0001/);
    assert.ok(draftText!.includes('DRAFT'), draftText);
    const voided = await createDoc(s);
    await release(s, voided.id);
    assert.equal((await s.api({ method: 'DELETE', url: `/api/invoices/${voided.id}` })).statusCode, 200);
    const [voidText] = await pdfPagesOf(s, voided.id, /INV-0002/);
    assert.ok(voidText!.includes('VOID'), voidText);
  });
});

describe('long documents', () => {
  test('60 lines break over pages that repeat the headings; every line and the totals are printed', async () => {
    const s = await fullSetup();
    const lines = Array.from({ length: 60 }, (_, i) => ({
      description:
        i === 7
          ? 'Site visit, Stellenbosch: inspection of the three cold rooms, the compressor housings and the ' +
            'loading bay doors, with a written report for each and photographs on request'
          : `Item ${String(i + 1).padStart(2, '0')} supplied`,
      quantity: 1 + (i % 3),
      unitPrice: 10 + i,
    }));
    const doc = await createDoc(s, { lines, templateId: s.templateId });
    await release(s, doc.id);
    const pages = await pdfPagesOf(s, doc.id, /INV-0001/);
    assert.ok(pages.length >= 2, `${pages.length} pages`);
    for (const [i, page] of pages.entries()) {
      assert.ok(page.includes(`Page ${i + 1} of ${pages.length}`), page);
      assert.ok(page.includes('Description') && page.includes('Unit price'), `headings on page ${i + 1}`);
      assert.ok(page.includes('Protea Trading: directors'), `the template's footer on page ${i + 1}`);
      if (i > 0) assert.ok(page.includes('Tax Invoice INV-0001 (continued)'), page);
    }
    const all = pages.join('\n');
    for (let i = 1; i <= 60; i++) {
      if (i === 8) continue;
      assert.ok(all.includes(`Item ${String(i).padStart(2, '0')} supplied`), `line ${i}`);
    }
    // The long description wraps: all of it is printed, wherever its lines break.
    assert.ok(
      all.replace(/\s+/g, ' ').includes('photographs on request'),
      'the end of a wrapped description',
    );
    const invoice = (await s.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json();
    const total = invoice.total.toFixed(2).replace(/\B(?=(\d{3})+(?!\d))/g, ' ');
    assert.ok(pages.at(-1)!.includes(`R ${total}`), `total R ${total} on the last page`);
  });
});

describe('access', () => {
  test("another tenant's id is a 404; so is a deleted draft", async () => {
    const a = await fullSetup();
    const b = await fullSetup();
    const doc = await createDoc(a);
    assertProblem(await b.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` }), 404);
    assert.equal((await a.api({ method: 'DELETE', url: `/api/invoices/${doc.id}` })).statusCode, 204);
    assertProblem(await a.api({ method: 'GET', url: `/api/invoices/${doc.id}/pdf` }), 404);
  });
});
