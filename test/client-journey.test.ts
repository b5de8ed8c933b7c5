// The generated TypeScript client (clients/typescript) against the app on a real port, typed
// end to end: every body and answer below is checked by tsc against the OpenAPI document the
// service generates. A bookkeeping month: register, VAT registration, a customer, an invoice
// of three lines, release, two payments, the PDF, the income statement and the VAT report; then
// an API key exchanged for a token, a webhook verified with standardwebhooks, and the client's
// token refresh when a token has expired.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt, SignJWT } from 'jose';
import { Webhook } from 'standardwebhooks';
import {
  apiKeySession,
  createPlatformClient,
  type PlatformClient,
  userSession,
} from '../clients/typescript/src/index.ts';
import { sha256, startTestApp, type TestApp } from './support/app.ts';
import { type Receiver, startReceiver } from './support/http-receiver.ts';

let t: TestApp;
let baseUrl: string;
let receiver: Receiver;

before(async () => {
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true } });
  baseUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
  receiver = await startReceiver((_req, res) => res.writeHead(204).end());
});
after(async () => {
  await receiver?.close();
  await t?.close();
});

/** The first value, or a failure naming what was missing (narrows without a cast). */
function present<T>(value: T | undefined | null, what: string): T {
  assert.ok(value !== undefined && value !== null, `${what} is missing`);
  return value;
}

describe('the generated client, a month of bookkeeping', () => {
  let api: PlatformClient;
  let session: ReturnType<typeof userSession>;
  let companyId: string;
  let contactId: string;
  let invoiceId: string;
  let webhookSecret: string;
  let apiKey: string;

  test('register: the password goes as its lowercase hex SHA-256', async () => {
    const anonymous = createPlatformClient({ baseUrl });
    const { data, error, response } = await anonymous.POST('/auth/register', {
      body: {
        tenantName: 'Karoo Traders',
        name: 'Thandi Mokoena',
        email: 'thandi@karoo-traders.co.za',
        password: sha256('Correct horse battery staple'),
        companyName: 'Karoo Traders (Pty) Ltd',
      },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    const registered = present(data, 'the registration');
    assert.match(registered.accessToken, /^ey/);
    session = userSession(baseUrl, registered);
    // No company yet: the client learns it below and sends it from then on.
    api = createPlatformClient({ baseUrl, ...session });
    companyId = registered.companyId;
  });

  test("the company's VAT registration, from 1 March 2026", async () => {
    const list = await api.GET('/api/companies');
    assert.deepEqual(
      present(list.data, 'the companies').map((c) => c.id),
      [companyId],
    );
    api.setCompanyId(companyId);
    assert.equal(api.getCompanyId(), companyId);
    const { data, error } = await api.PATCH('/api/companies/{id}', {
      params: { path: { id: companyId } },
      body: {
        vatRegistered: true,
        vatRegisteredFrom: '2026-03-01',
        vatNumber: '4123456789',
        addressLine1: '12 Long Street',
        city: 'Cape Town',
        postalCode: '8001',
      },
    });
    const company = present(data, `the company (${JSON.stringify(error)})`);
    assert.equal(company.vatRegistered, true);
    assert.equal(company.vatRegisteredFrom, '2026-03-01');
    assert.equal(company.vatNumber, '4123456789');
  });

  test('a customer', async () => {
    const { data, error, response } = await api.POST('/api/contacts', {
      body: {
        contactType: 'CUSTOMER',
        name: 'Karoo Kitchens (Pty) Ltd',
        email: 'accounts@karookitchens.co.za',
        vatNumber: '4987654321',
      },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    contactId = present(data, 'the contact').id;
  });

  test('an invoice of three lines: 15% VAT rounded half-up per line, totals summed from the lines', async () => {
    const { data, error, response } = await api.POST('/api/invoices', {
      body: {
        contactId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        // Due far ahead: overdue is derived from today's date, and this journey reads its status
        // whatever day it runs.
        dueDate: '2099-12-31',
        reference: 'PO 7781',
        lines: [
          // 3 × 333.33 = 999.99; VAT 15% = 149.9985 → 150.00
          { description: 'Consulting, March', quantity: 3, unitPrice: 333.33 },
          // 2.5 × 99.99 = 249.975, less 10% = 224.9775 → 224.98; VAT 33.747 → 33.75
          { description: 'Site visits', quantity: 2.5, unitPrice: 99.99, discountRate: 10 },
          // 1 × 120.005 → 120.01; zero-rated: no VAT
          { description: 'Export freight', quantity: 1, unitPrice: 120.005, vatRate: 0 },
        ],
      },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    const invoice = present(data, 'the invoice');
    invoiceId = invoice.id;
    assert.equal(invoice.status, 'draft');
    assert.deepEqual(
      invoice.lines.map((l) => [l.netAmount, l.vatRate, l.vatAmount, l.totalAmount]),
      [
        [999.99, 15, 150, 1149.99],
        [224.98, 15, 33.75, 258.73],
        [120.01, 0, 0, 120.01],
      ],
    );
    // Subtotal 999.99 + 224.98 + 120.01 = 1344.98; VAT 150.00 + 33.75 = 183.75; total 1528.73.
    // The discount: 249.975 → 249.98 before it, 224.98 after: 25.00.
    assert.deepEqual(
      [invoice.subtotal, invoice.discountTotal, invoice.vatTotal, invoice.total, invoice.amountDue],
      [1344.98, 25, 183.75, 1528.73, 1528.73],
    );
  });

  test('release: open, and posted', async () => {
    const { data, error } = await api.POST('/api/invoices/{id}/release', {
      params: { path: { id: invoiceId } },
    });
    const invoice = present(data, `the released invoice (${JSON.stringify(error)})`);
    assert.equal(invoice.status, 'open');
    assert.match(present(invoice.entryId, 'the journal entry'), /^[0-9a-f-]{36}$/);
  });

  test('a webhook on invoice.paid, to a local receiver', async () => {
    const { data, error, response } = await api.POST('/api/webhooks', {
      body: { url: `http://127.0.0.1:${receiver.port}/hooks`, eventTypes: ['invoice.paid'] },
    });
    assert.equal(response.status, 201, JSON.stringify(error));
    webhookSecret = present(data, 'the webhook').secret;
  });

  test('two payments: 500.00, then the rest (1528.73 − 500.00 = 1028.73)', async () => {
    const first = await api.POST('/api/invoices/{id}/payments', {
      params: { path: { id: invoiceId } },
      body: { amount: 500, date: '2026-03-10', method: 'eft', reference: 'EFT 1' },
    });
    assert.equal(first.response.status, 201, JSON.stringify(first.error));
    assert.equal(present(first.data, 'the first payment').amount, 500);
    const partly = await api.GET('/api/invoices/{id}', { params: { path: { id: invoiceId } } });
    const halfway = present(partly.data, 'the invoice');
    assert.equal(halfway.status, 'partially_paid');
    assert.equal(halfway.amountDue, 1028.73);

    const rest = await api.POST('/api/invoices/{id}/payments', {
      params: { path: { id: invoiceId } },
      body: { amount: 1028.73, date: '2026-03-20', method: 'eft', reference: 'EFT 2' },
    });
    assert.equal(rest.response.status, 201, JSON.stringify(rest.error));
    const paid = present(
      (await api.GET('/api/invoices/{id}', { params: { path: { id: invoiceId } } })).data,
      'the invoice',
    );
    assert.equal(paid.status, 'paid');
    assert.equal(paid.amountPaid, 1528.73);
    assert.equal(paid.amountDue, 0);
    const payments = await api.GET('/api/invoices/{id}/payments', { params: { path: { id: invoiceId } } });
    assert.deepEqual(
      present(payments.data, 'the payments').map((p) => [p.amount, p.date, p.status]),
      [
        [500, '2026-03-10', 'received'],
        [1028.73, '2026-03-20', 'received'],
      ],
    );
  });

  test('the PDF', async () => {
    const { data, response } = await api.GET('/api/invoices/{id}/pdf', {
      params: { path: { id: invoiceId } },
      parseAs: 'arrayBuffer',
    });
    assert.equal(response.status, 200);
    assert.match(String(response.headers.get('content-type')), /^application\/pdf/);
    const bytes = Buffer.from(present(data, 'the PDF'));
    assert.equal(bytes.subarray(0, 5).toString('latin1'), '%PDF-');
  });

  test('the income statement for March 2026: the three nets are the revenue', async () => {
    const { data, error } = await api.GET('/api/reports/income-statement', {
      params: { query: { from: '2026-03-01', to: '2026-03-31' } },
    });
    const statement = present(data, `the income statement (${JSON.stringify(error)})`);
    // Revenue = the nets, VAT excluded: 999.99 + 224.98 + 120.01 = 1344.98. Payments move
    // money between bank and debtors and are not income. Nothing else happened: profit = revenue.
    assert.equal(statement.revenue.total, 1344.98);
    assert.equal(statement.costOfSales.total, 0);
    assert.equal(statement.grossProfit, 1344.98);
    assert.equal(statement.expenses.total, 0);
    assert.equal(statement.netProfit, 1344.98);
  });

  test('the VAT report for March 2026: standard and zero-rated output, the VAT201 fields', async () => {
    const { data, error } = await api.GET('/api/reports/vat', {
      params: { query: { from: '2026-03-01', to: '2026-03-31' } },
    });
    const report = present(data, `the VAT report (${JSON.stringify(error)})`);
    // Standard: nets 999.99 + 224.98 = 1224.97, VAT 150.00 + 33.75 = 183.75; zero: 120.01.
    assert.deepEqual(
      report.output.lines.map((l) => [l.taxCode, l.rate, l.net, l.vat]),
      [
        ['standard', 15, 1224.97, 183.75],
        ['zero', 0, 120.01, 0],
      ],
    );
    assert.equal(report.output.totalNet, 1344.98);
    assert.equal(report.output.totalVat, 183.75);
    assert.equal(report.input.totalVat, 0);
    // field1 = standard net + VAT = 1224.97 + 183.75 = 1408.72; field4 = 183.75;
    // field2 = zero net = 120.01; field13 = 4 + 4A = 183.75; no input tax: field19 = 0;
    // field20 = 13 − 19 = 183.75 payable.
    const f = report.vat201;
    assert.deepEqual(
      [f.field1, f.field2, f.field2A, f.field3, f.field4, f.field13, f.field19, f.field20],
      [1408.72, 120.01, 0, 0, 183.75, 183.75, 0, 183.75],
    );
  });

  test('the webhook: invoice.paid arrived, signed (verified with standardwebhooks)', async () => {
    const deadline = Date.now() + 30_000;
    while (receiver.received.length === 0) {
      assert.ok(Date.now() < deadline, 'no delivery arrived within 30 s');
      await sleep(100);
    }
    const [delivery] = receiver.received;
    const h = present(delivery, 'the delivery').headers;
    const headers = {
      'webhook-id': String(h['webhook-id']),
      'webhook-timestamp': String(h['webhook-timestamp']),
      'webhook-signature': String(h['webhook-signature']),
    };
    // The event's payload is not in today's document (no `webhooks` object): compared as JSON.
    const payload: unknown = new Webhook(webhookSecret).verify(delivery!.body, headers);
    assert.partialDeepStrictEqual(payload, {
      type: 'invoice.paid',
      data: { id: invoiceId, status: 'paid', total: 1528.73, amountDue: 0 },
    });
    assert.throws(
      () => new Webhook(webhookSecret).verify(`${delivery!.body} `, headers),
      'a changed body fails',
    );
  });

  test('an API key, exchanged at POST /auth/token, reads with its token', async () => {
    const created = await api.POST('/api/api-keys', {
      body: {
        name: 'Bookkeeping sync',
        owner: 'business',
        roleId: 'accountant',
        scopes: ['invoices:read', 'reports:read'],
      },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    apiKey = present(created.data, 'the key').key;

    const anonymous = createPlatformClient({ baseUrl });
    const exchanged = await anonymous.POST('/auth/token', { headers: { authorization: `Bearer ${apiKey}` } });
    const token = present(exchanged.data, `the token (${JSON.stringify(exchanged.error)})`);
    assert.equal(token.tokenType, 'Bearer');
    assert.equal(token.expiresIn, 3600);
    assert.deepEqual(token.scope.split(' ').sort(), ['invoices:read', 'reports:read']);

    const asKey = createPlatformClient({ baseUrl, companyId, getAccessToken: () => token.accessToken });
    const invoice = await asKey.GET('/api/invoices/{id}', { params: { path: { id: invoiceId } } });
    assert.equal(present(invoice.data, 'the invoice read by the key').status, 'paid');
    const list = await asKey.GET('/api/invoices', { params: { query: { status: 'paid' } } });
    assert.deepEqual(
      present(list.data, 'the invoices').items.map((i) => i.id),
      [invoiceId],
    );
    // Its scopes hold no write: the service refuses, and the client answers the problem.
    const refused = await asKey.POST('/api/contacts', { body: { name: 'Not allowed' } });
    assert.equal(refused.response.status, 403);
    assert.equal(refused.data, undefined);
  });

  test('an expired token: the client refreshes (POST /auth/refresh, or the key again) and retries once', async () => {
    // The service signs tokens on the real clock, so a test cannot wait out their 15 minutes
    // (user) or hour (key): it hands the client a copy of its token that expired a minute ago,
    // signed with the service's secret, which the service refuses as expired.
    const { refreshToken } = session.tokens();
    const user = userSession(baseUrl, {
      accessToken: await expired(session.tokens().accessToken),
      refreshToken,
    });
    let refreshes = 0;
    const mine = createPlatformClient({
      baseUrl,
      companyId,
      getAccessToken: user.getAccessToken,
      refresh: async () => {
        refreshes++;
        await user.refresh();
      },
    });
    // A write: its body is sent again on the retry.
    const contact = await mine.POST('/api/contacts', { body: { name: 'After the refresh' } });
    assert.equal(contact.response.status, 201, JSON.stringify(contact.error));
    assert.equal(present(contact.data, 'the contact').name, 'After the refresh');
    assert.equal(refreshes, 1);
    assert.notEqual(user.tokens().refreshToken, refreshToken, 'the refresh token rotated');
    const again = await mine.GET('/api/invoices/{id}', { params: { path: { id: invoiceId } } });
    assert.equal(again.response.status, 200);
    assert.equal(refreshes, 1, 'the new token serves on');

    // The key: its first call exchanges it; a refused token exchanges it again.
    const keySession = apiKeySession(baseUrl, apiKey);
    let keyToken = present(await keySession.getAccessToken(), 'the key token');
    keyToken = await expired(keyToken);
    let exchanges = 0;
    const asKey = createPlatformClient({
      baseUrl,
      companyId,
      getAccessToken: () => keyToken,
      refresh: async () => {
        exchanges++;
        await keySession.refresh();
        keyToken = present(await keySession.getAccessToken(), 'the new key token');
      },
    });
    const statement = await asKey.GET('/api/reports/income-statement', {
      params: { query: { from: '2026-03-01', to: '2026-03-31' } },
    });
    assert.equal(present(statement.data, 'the statement read by the key').netProfit, 1344.98);
    assert.equal(exchanges, 1);

    // A refresh the service refuses leaves the 401 for the caller: no loop.
    const stale = createPlatformClient({
      baseUrl,
      companyId,
      getAccessToken: () => expired(keyToken),
      refresh: async () => {
        throw new Error('signed out');
      },
    });
    const denied = await stale.GET('/api/invoices/{id}', { params: { path: { id: invoiceId } } });
    assert.equal(denied.response.status, 401);
  });
});

/** The same token (same claims, same secret) but expired a minute ago. */
async function expired(token: string): Promise<string> {
  const { iat: _iat, exp: _exp, ...claims } = decodeJwt(token);
  const now = Math.floor(t.deps.now().getTime() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256' })
    .setIssuedAt(now - 3600)
    .setExpirationTime(now - 60)
    .sign(t.deps.config.jwtSecret);
}
