// Payslips on paper and by e-mail, through the real job worker to a real SMTP server (smtp-server):
// the PDF gives what the BCEA s33(1) asks (employer and address, employee and occupation, period,
// each line with its IRP5 code, deductions, net pay) with the bank account masked; a period not
// finalised prints DRAFT and is not e-mailed (409 PERIOD_NOT_FINALISED); a finalised payslip
// arrives encrypted, opening with the employee's ID number and not without it, and the message
// names no figure; a period's payslips go to each employee, one without an address is skipped.
//
// The figures (April 2026, tax year 2026/27; the same as pay-runs.test.ts's Sipho, whose PAYE
// paye.test.ts proves): R25 000 a month, aged 47 at 28 February 2027 (born 1 January 1980, from
// the ID number 800101 5009 08 7): 300 000 a year → tax 40 572 a year → PAYE 3 381.00 a month.
//   UIF: 25 000 is above the R17 712 ceiling → 1% × 17 712 = 177.12 (employee and employer each)
//   Net: 25 000.00 − 3 381.00 − 177.12 = 21 441.88
//   SDL: two employees at 25 000 → 600 000 a year, over the R500 000 exemption → 1% = 250.00 each
//   Year to date: April is the tax year's first month, so it is this payslip alone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { TestClock } from 'pg-boss';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfOf, pdfPages } from '../../../test/support/pdf.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { attachmentsOf, type SmtpReceiver, startSmtpReceiver } from '../../../test/support/smtp-receiver.ts';
import { fieldOf } from '../purchase-orders/purchase-orders.factories.ts';

let t: TestApp;
let a: Registered;
let api: ReturnType<typeof as>;
let clock: TestClock;
let smtp: SmtpReceiver;

before(async () => {
  clock = new TestClock(new Date('2026-04-27T10:00:00Z'));
  smtp = await startSmtpReceiver();
  t = await startTestApp({ config: { smtpUrl: smtp.url }, jobsClock: clock });
  t.clock.set('2026-04-27T10:00:00Z');
  a = await register(t.app, { plan: 'professional', companyName: 'Karoo Bookkeeping (Pty) Ltd' });
  api = as(t.app, a.token, a.companyId);
});
after(async () => {
  await t.close();
  await smtp.close();
});

/** Polls `fn`, moving the worker's clock a little each time (it polls on that clock). */
async function eventually<T>(what: string, fn: () => T | undefined): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = fn();
    if (v) return v;
    await clock.tick(250);
    await sleep(10);
  }
  throw new Error(`timed out waiting for ${what}`);
}

const ID_NUMBER = '8001015009087';
const email = `thandiwe.${crypto.randomUUID().slice(0, 8)}@karoo.example.co.za`;

/** A 400 problem answer to a POST. */
async function posted400(url: string, payload: Record<string, unknown>) {
  const res = await post(url, payload);
  assertProblem(res, 400);
  return res;
}

async function post(url: string, payload?: Record<string, unknown>) {
  return api({ method: 'POST', url, ...(payload === undefined ? {} : { payload }) });
}

describe('a payslip on paper and by e-mail', () => {
  let periodId: string;
  let thandiweSlip: string;
  let siphoSlip: string;

  before(async () => {
    const thandiwe = await post('/api/employees', {
      employeeNumber: 'E0001',
      firstName: 'Thandiwe',
      lastName: 'Mokoena',
      jobTitle: 'Bookkeeper',
      email,
      idNumber: ID_NUMBER,
      taxNumber: '0001339050',
      startDate: '2020-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 25000,
      bankAccount: {
        bankName: 'First National Bank',
        branchCode: '250655',
        accountHolder: 'T Mokoena',
        accountNumber: '62001234567',
      },
    });
    assert.equal(thandiwe.statusCode, 201, thandiwe.body);
    assert.equal(thandiwe.json().jobTitle, 'Bookkeeper');
    const sipho = await post('/api/employees', {
      employeeNumber: 'E0002',
      firstName: 'Sipho',
      lastName: 'Dlamini',
      passportNumber: 'ZW445566',
      passportCountry: 'ZW',
      dateOfBirth: '1985-07-15',
      startDate: '2020-03-01',
      payFrequency: 'monthly',
      payBasis: 'salary',
      rate: 25000,
    });
    assert.equal(sipho.statusCode, 201, sipho.body);
    const period = await post('/api/payroll-periods', {
      frequency: 'monthly',
      periodStart: '2026-04-01',
      periodEnd: '2026-04-30',
      payDate: '2026-04-25',
    });
    assert.equal(period.statusCode, 201, period.body);
    periodId = period.json().id;
    const calc = await post(`/api/payroll-periods/${periodId}/calculate`);
    assert.equal(calc.statusCode, 200, calc.body);
    const slips = (await api({ method: 'GET', url: `/api/payslips?periodId=${periodId}` })).json().items;
    thandiweSlip = slips.find((s: { employeeNumber: string }) => s.employeeNumber === 'E0001').id;
    siphoSlip = slips.find((s: { employeeNumber: string }) => s.employeeNumber === 'E0002').id;
  });

  test('a calculated payslip prints DRAFT and is not e-mailed (409 PERIOD_NOT_FINALISED)', async () => {
    const [page] = await pdfOf(
      await api({ method: 'GET', url: `/api/payslips/${thandiweSlip}/pdf` }),
      /payslip-E0001-2026-04-30\.pdf/,
    );
    assert.match(page!, /DRAFT: the period is not finalised/);
    assert.equal(
      assertProblem(await post(`/api/payslips/${thandiweSlip}/email`, {}), 409).code,
      'PERIOD_NOT_FINALISED',
    );
    assert.equal(
      assertProblem(await post(`/api/payroll-periods/${periodId}/email-payslips`, {}), 409).code,
      'PERIOD_NOT_FINALISED',
    );
  });

  test('the PDF: employer, employee and occupation, IRP5 lines, net pay, year to date, bank masked', async () => {
    const fin = await post(`/api/payroll-periods/${periodId}/finalise`);
    assert.equal(fin.statusCode, 200, fin.body);
    const pages = await pdfOf(
      await api({ method: 'GET', url: `/api/payslips/${thandiweSlip}/pdf` }),
      /payslip-E0001-2026-04-30\.pdf/,
    );
    assert.equal(pages.length, 1);
    const text = pages[0]!.replace(/\s+/g, ' ');
    for (const expected of [
      'Payslip 1 April 2026 to 30 April 2026',
      'Karoo Bookkeeping (Pty) Ltd',
      'Thandiwe Mokoena (E0001), paid 25 April 2026',
      'Employee: Thandiwe Mokoena, Bookkeeper, employed since 1 March 2020',
      'Income tax number 0001339050',
      'Tax year 2026/27',
      'Paid into First National Bank account ••••4567',
      // Basic salary, IRP5 3601; PAYE 4102; UIF 4141 (irp5.ts); the figures from the header.
      'Basic salary 3601',
      '25 000.00',
      'PAYE 4102 3 381.00',
      'UIF 4141 177.12',
      'Net pay 21 441.88',
      'SDL 4142 250.00',
    ])
      assert.ok(text.includes(expected), `${expected} in ${text}`);
    assert.ok(!text.includes('62001234567'), 'the account number never prints');
    assert.ok(!text.includes('DRAFT'));
    assert.ok(!/incentive/i.test(text), "the ETI is the employer's, not printed");
    // Year to date = this payslip: gross 25 000.00, taxable 25 000.00, PAYE 3 381.00, UIF 177.12, net 21 441.88.
    assert.ok(text.includes('25 000.00 25 000.00 3 381.00 177.12 21 441.88'), text);
  });

  test('e-mailed: 202, arrives encrypted, opens with the ID number only, the message names no figure', async () => {
    const res = await post(`/api/payslips/${thandiweSlip}/email`, { message: 'Thank you for April.' });
    assert.equal(res.statusCode, 202, res.body);
    const sent = res.json();
    assert.deepEqual(
      [sent.payslipId, sent.to, sent.status, sent.subject],
      [
        thandiweSlip,
        email,
        'queued',
        'Your payslip for 1 April 2026 to 30 April 2026 from Karoo Bookkeeping (Pty) Ltd',
      ],
    );
    const message = await eventually('the payslip e-mail', () =>
      smtp.received.find((m) => m.to.includes(email)),
    );
    // The text part is quoted-printable: soft line breaks (=CRLF) joined.
    const raw = message.raw.toString().replace(/=\r?\n/g, '');
    assert.ok(raw.includes('Thank you for April.'), raw.slice(0, 2000));
    assert.ok(raw.includes('It opens with your ID number.'));
    assert.ok(!raw.includes('21 441.88') && !raw.includes('25 000'), 'no figure in the message');
    const [file] = attachmentsOf(message.raw);
    assert.deepEqual(
      [file!.filename, file!.contentType],
      ['payslip-E0001-2026-04-30.pdf', 'application/pdf'],
    );
    assert.match(file!.content.toString('latin1'), /\/Encrypt/);
    await assert.rejects(pdfPages(file!.content), /password/i);
    await assert.rejects(pdfPages(file!.content, '8001015009088'), /password/i);
    const [page] = await pdfPages(file!.content, ID_NUMBER);
    assert.ok(page!.replace(/\s+/g, ' ').includes('Net pay 21 441.88'));
  });

  test("a period's payslips: each to its employee, one without an address skipped", async () => {
    const before = smtp.received.length;
    const res = await post(`/api/payroll-periods/${periodId}/email-payslips`, {});
    assert.equal(res.statusCode, 202, res.body);
    const out = res.json();
    assert.deepEqual(
      out.sent.map((s: { payslipId: string; to: string }) => [s.payslipId, s.to]),
      [[thandiweSlip, email]],
    );
    assert.deepEqual(out.skipped, [
      {
        payslipId: siphoSlip,
        employeeId: out.skipped[0].employeeId,
        employeeNumber: 'E0002',
        reason: 'no_email',
      },
    ]);
    await eventually('the second payslip e-mail', () => smtp.received.length > before || undefined);
    assert.equal(
      fieldOf(await posted400(`/api/payroll-periods/${periodId}/email-payslips`, { to: email })),
      'to',
    );
  });

  test('Sipho has no address: 400 naming to; a given address is used; another tenant 404', async () => {
    assert.equal(fieldOf(await posted400(`/api/payslips/${siphoSlip}/email`, {})), 'to');
    const to = `sipho.${crypto.randomUUID().slice(0, 8)}@karoo.example.co.za`;
    const res = await post(`/api/payslips/${siphoSlip}/email`, { to });
    assert.equal(res.statusCode, 202, res.body);
    const message = await eventually('the payslip e-mail to Sipho', () =>
      smtp.received.find((m) => m.to.includes(to)),
    );
    assert.ok(
      message.raw
        .toString()
        .replace(/=\r?\n/g, '')
        .includes('It opens with your passport number.'),
    );
    const [file] = attachmentsOf(message.raw);
    assert.ok((await pdfPages(file!.content, 'ZW445566'))[0]!.includes('Sipho Dlamini'));

    const b = await register(t.app, { plan: 'professional' });
    const other = as(t.app, b.token, b.companyId);
    assertProblem(await other({ method: 'GET', url: `/api/payslips/${thandiweSlip}/pdf` }), 404);
    assertProblem(
      await other({ method: 'POST', url: `/api/payslips/${thandiweSlip}/email`, payload: {} }),
      404,
    );
  });
});
