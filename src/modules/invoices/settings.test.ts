// Invoice settings and templates: the defaults while never set; a change of prefix or digits
// numbers the next document and leaves the earlier ones; the defaults a new document takes;
// every field checked (400 naming it). Templates: create (idempotent on clientId), list, read,
// change, delete (soft), with a real PNG logo kept byte for byte and answered as an image; a
// file that is not an image, a damaged one, a mismatched type and a too-big one refused.
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { JPEG, png, pngWithBrokenData } from '../../../test/support/images.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { createDoc, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

async function setup(): Promise<Sales> {
  return salesSetup(t, await register(t.app));
}

async function patchSettings(s: Sales, payload: object) {
  const res = await s.api({ method: 'PATCH', url: '/api/invoice-settings', payload });
  assert.equal(res.statusCode, 200, res.body);
  return res.json();
}

const logoOf = (bytes: Buffer, contentType = 'image/png') => ({
  contentType,
  data: bytes.toString('base64'),
});

describe('invoice settings', () => {
  test('GET answers the defaults while nothing was ever set', async () => {
    const s = await setup();
    const res = await s.api({ method: 'GET', url: '/api/invoice-settings' });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.deepEqual(body.prefixes, {
      invoice: 'INV-',
      quote: 'QUO-',
      pro_forma: 'PRO-',
      sales_order: 'SO-',
      delivery_note: 'DN-',
      credit_note: 'CN-',
      debit_note: 'DBN-',
      cash_sale: 'CS-',
      deposit: 'DEP-',
    });
    assert.deepEqual(
      [body.numberDigits, body.defaultPaymentTermsDays, body.defaultTerms, body.defaultNotes],
      [4, 30, null, null],
    );
    // Never changed: the defaults have applied since the company was made.
    assert.ok(body.createdAt && body.createdAt === body.updatedAt, res.body);
    assert.deepEqual(
      [body.bankName, body.bankAccountNumber, body.bankBranchCode, body.defaultTemplateId],
      [null, null, null, null],
    );
  });

  test('a changed prefix and digit count number the next document; earlier ones keep theirs', async () => {
    const s = await setup();
    const first = await createDoc(s);
    assert.equal(first.number, 'INV-0001');
    const changed = await patchSettings(s, { prefixes: { invoice: 'TAX/', quote: 'Q-' }, numberDigits: 6 });
    assert.equal(changed.prefixes.invoice, 'TAX/');
    assert.equal(changed.prefixes.quote, 'Q-');
    assert.equal(changed.prefixes.credit_note, 'CN-', 'the types not named keep theirs');
    assert.equal(changed.numberDigits, 6);
    assert.ok(changed.updatedAt);
    const second = await createDoc(s);
    assert.equal(second.number, 'TAX/000002', 'the counter goes on under the new prefix');
    assert.equal((await createDoc(s, { documentType: 'quote' })).number, 'Q-000001');
    const again = await s.api({ method: 'GET', url: `/api/invoices/${first.id}` });
    assert.equal(again.json().number, 'INV-0001');
    // An empty prefix: numbers alone.
    await patchSettings(s, { prefixes: { invoice: '' }, numberDigits: 3 });
    assert.equal((await createDoc(s)).number, '003');
    // A number longer than the digit count is never cut.
    await patchSettings(s, { prefixes: { invoice: 'N' }, numberDigits: 1 });
    const numbers: string[] = [];
    for (let i = 0; i < 7; i++) numbers.push((await createDoc(s)).number);
    assert.deepEqual(numbers, ['N4', 'N5', 'N6', 'N7', 'N8', 'N9', 'N10']);
  });

  test('a new document without payment term, terms or notes takes the defaults; given ones are kept', async () => {
    const s = await setup();
    const settings = await patchSettings(s, {
      defaultPaymentTermsDays: 14,
      defaultTerms: '  Payment within 14 days.  ',
      defaultNotes: 'Thank you for your business.',
      bankName: 'First National Bank',
      bankAccountName: 'Protea Trading',
      bankAccountNumber: '62000000001',
      bankBranchCode: '250655',
      bankAccountType: 'Cheque',
    });
    assert.equal(settings.defaultTerms, 'Payment within 14 days.', 'trimmed');
    assert.equal(settings.bankAccountNumber, '62000000001');
    const plain = await createDoc(s);
    assert.deepEqual(
      [plain.paymentTermsDays, plain.terms, plain.notes],
      [14, 'Payment within 14 days.', 'Thank you for your business.'],
    );
    assert.equal(plain.dueDate, '2026-04-01', 'dueDate is still the one given');
    const own = await createDoc(s, { paymentTermsDays: 7, terms: 'COD', notes: 'Deliver to gate 2' });
    assert.deepEqual([own.paymentTermsDays, own.terms, own.notes], [7, 'COD', 'Deliver to gate 2']);
    // Blank clears.
    const cleared = await patchSettings(s, { defaultTerms: ' ', defaultNotes: null, bankName: null });
    assert.deepEqual([cleared.defaultTerms, cleared.defaultNotes, cleared.bankName], [null, null, null]);
    assert.equal(cleared.bankBranchCode, '250655', 'fields not named are kept');
  });

  test('every field is checked: 400 naming it', async () => {
    const s = await setup();
    const cases: Array<[object, string]> = [
      [{ prefixes: { invoices: 'X-' } }, 'prefixes.invoices'],
      [{ prefixes: { invoice: 'INV-1' } }, 'prefixes.invoice'],
      [{ prefixes: { invoice: 'A VERY LONG PREFIX-' } }, 'prefixes.invoice'],
      [{ prefixes: { invoice: 'INV\n' } }, 'prefixes.invoice'],
      [{ prefixes: { quote: 'INV-' } }, 'prefixes.quote'],
      [{ numberDigits: 11 }, 'numberDigits'],
      [{ numberDigits: 0 }, 'numberDigits'],
      [{ defaultPaymentTermsDays: -1 }, 'defaultPaymentTermsDays'],
      [{ bankBranchCode: 'ABC123' }, 'bankBranchCode'],
      [{ bankAccountNumber: '12' }, 'bankAccountNumber'],
      [{ defaultTerms: 'x'.repeat(4001) }, 'defaultTerms'],
      [{ defaultTemplateId: crypto.randomUUID() }, 'defaultTemplateId'],
      [{ defaultTemplateId: 'not-a-uuid' }, 'defaultTemplateId'],
    ];
    for (const [payload, field] of cases) {
      const res = await s.api({ method: 'PATCH', url: '/api/invoice-settings', payload });
      const body = assertProblem(res, 400, JSON.stringify(payload));
      assert.equal(body.field, field, `${JSON.stringify(payload)}: ${body.detail}`);
    }
    // Nothing was changed by the refusals.
    const now = (await s.api({ method: 'GET', url: '/api/invoice-settings' })).json();
    assert.equal(now.prefixes.invoice, 'INV-');
    assert.equal(now.numberDigits, 4);
  });

  test("another company's settings are its own", async () => {
    const b = await register(t.app, { plan: 'business' });
    const api = as(t.app, b.token);
    const other = await api({ method: 'POST', url: '/api/companies', payload: { name: 'Second (Pty) Ltd' } });
    assert.equal(other.statusCode, 201, other.body);
    const first = as(t.app, b.token, b.companyId);
    const second = as(t.app, b.token, other.json().id);
    assert.equal(
      (
        await first({
          method: 'PATCH',
          url: '/api/invoice-settings',
          payload: { prefixes: { invoice: 'A-' } },
        })
      ).statusCode,
      200,
    );
    assert.equal(
      (await second({ method: 'GET', url: '/api/invoice-settings' })).json().prefixes.invoice,
      'INV-',
    );
  });
});

describe('invoice templates', () => {
  test('create with a PNG logo (idempotent on clientId), list, read, the logo byte for byte', async () => {
    const s = await setup();
    const logo = png(48, 16);
    const clientId = crypto.randomUUID();
    const payload = {
      clientId,
      name: 'Blue',
      primaryColour: '#1F4E79',
      accentColour: '#eef3f8',
      footer: 'Registered in South Africa. Thank you for your business.',
      logo: logoOf(logo),
    };
    const created = await s.api({ method: 'POST', url: '/api/invoice-templates', payload });
    assert.equal(created.statusCode, 201, created.body);
    const tpl = created.json();
    assert.equal(tpl.id, clientId);
    assert.deepEqual(
      [tpl.name, tpl.primaryColour, tpl.accentColour, tpl.footer, tpl.isDefault],
      ['Blue', '#1f4e79', '#eef3f8', 'Registered in South Africa. Thank you for your business.', false],
    );
    assert.deepEqual(tpl.logo, {
      contentType: 'image/png',
      size: logo.length,
      url: `/api/invoice-templates/${clientId}/logo`,
    });
    const replay = await s.api({ method: 'POST', url: '/api/invoice-templates', payload });
    assert.equal(replay.statusCode, 200, replay.body);
    assert.deepEqual(replay.json(), tpl);

    const image = await s.api({ method: 'GET', url: tpl.logo.url });
    assert.equal(image.statusCode, 200);
    assert.equal(image.headers['content-type'], 'image/png');
    assert.equal(image.headers['content-disposition'], 'inline; filename="logo.png"');
    assert.equal(image.headers['x-content-type-options'], 'nosniff');
    assert.ok(image.rawPayload.equals(logo), 'the logo comes back byte for byte');

    const plain = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Apricot' },
    });
    assert.equal(plain.statusCode, 201, plain.body);
    assert.deepEqual(
      [plain.json().primaryColour, plain.json().accentColour, plain.json().logo, plain.json().footer],
      ['#1f4e79', '#f2f2f2', null, null],
    );
    assertProblem(await s.api({ method: 'GET', url: `/api/invoice-templates/${plain.json().id}/logo` }), 404);

    const list = await s.api({ method: 'GET', url: '/api/invoice-templates' });
    assert.equal(list.statusCode, 200);
    assert.deepEqual(
      list.json().map((x: { name: string }) => x.name),
      ['Apricot', 'Blue'],
      'a bare array, by name',
    );
    assert.deepEqual((await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}` })).json(), tpl);
  });

  test('the audit log records the upload, not the image', async () => {
    const b = await register(t.app);
    const s = await salesSetup(t, b);
    const logo = png(60, 60, { noise: true });
    const res = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Noisy', logo: logoOf(logo) },
    });
    assert.equal(res.statusCode, 201, res.body);
    const log = await as(t.app, b.token)({ method: 'GET', url: '/api/audit-log?resource=invoice_templates' });
    const [entry] = log.json().items;
    assert.equal(entry.action, 'POST /api/invoice-templates');
    assert.equal(entry.resourceId, res.json().id);
    assert.equal(entry.details.body.name, 'Noisy');
    const length = logo.toString('base64').length;
    assert.equal(entry.details.body.logo.data, `[${length} characters, not kept]`);
    assert.equal(entry.details.body.logo.contentType, 'image/png');
  });

  test('change: name, colours, footer cleared, logo replaced and removed; the default flag', async () => {
    const s = await setup();
    const tpl = (
      await s.api({
        method: 'POST',
        url: '/api/invoice-templates',
        payload: { name: 'Old', footer: 'Old footer', logo: logoOf(png(4, 4)) },
      })
    ).json();
    const bigger = png(120, 40, { alpha: false });
    const changed = await s.api({
      method: 'PATCH',
      url: `/api/invoice-templates/${tpl.id}`,
      payload: { name: 'New', primaryColour: '#8B0000', footer: null, logo: logoOf(bigger) },
    });
    assert.equal(changed.statusCode, 200, changed.body);
    assert.deepEqual(
      [changed.json().name, changed.json().primaryColour, changed.json().footer, changed.json().logo.size],
      ['New', '#8b0000', null, bigger.length],
    );
    assert.ok(
      (await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}/logo` })).rawPayload.equals(
        bigger,
      ),
    );
    // A JPEG instead.
    const jpeg = await s.api({
      method: 'PATCH',
      url: `/api/invoice-templates/${tpl.id}`,
      payload: { logo: logoOf(JPEG, 'image/jpeg') },
    });
    assert.deepEqual(jpeg.json().logo, { contentType: 'image/jpeg', size: JPEG.length, url: tpl.logo.url });
    const served = await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}/logo` });
    assert.equal(served.headers['content-type'], 'image/jpeg');
    assert.equal(served.headers['content-disposition'], 'inline; filename="logo.jpg"');
    assert.ok(served.rawPayload.equals(JPEG));
    // A JPEG sent as a PNG is refused.
    const mislabelled = await s.api({
      method: 'PATCH',
      url: `/api/invoice-templates/${tpl.id}`,
      payload: { logo: logoOf(JPEG, 'image/png') },
    });
    assert.equal(assertProblem(mislabelled, 400).field, 'logo.contentType');
    await patchSettings(s, { defaultTemplateId: tpl.id });
    assert.equal(
      (await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}` })).json().isDefault,
      true,
    );
    const removed = await s.api({
      method: 'PATCH',
      url: `/api/invoice-templates/${tpl.id}`,
      payload: { logo: null },
    });
    assert.equal(removed.json().logo, null);
    assertProblem(await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}/logo` }), 404);
  });

  test('logos that are not what they say are refused, naming the field; nothing is kept', async () => {
    const s = await setup();
    const cases: Array<[unknown, string, RegExp]> = [
      [logoOf(Buffer.from('%PDF-1.7\n1 0 obj\n')), 'logo.data', /neither a PNG nor a JPEG/],
      [
        logoOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')),
        'logo.data',
        /neither a PNG nor a JPEG/,
      ],
      [logoOf(pngWithBrokenData()), 'logo.data', /damaged PNG/],
      [logoOf(png(4, 4), 'image/jpeg'), 'logo.contentType', /PNG image \(image\/png\), not image\/jpeg/],
      [{ contentType: 'image/gif', data: png(2, 2).toString('base64') }, 'logo.contentType', /one of/],
      [{ contentType: 'image/png', data: 'not base64!' }, 'logo.data', /pattern|base64/],
      [{ contentType: 'image/png', data: 'iVBORw0KGgo' }, 'logo.data', /base64/],
      [{ contentType: 'image/png' }, 'logo.data', /required/],
    ];
    for (const [logo, field, detail] of cases) {
      const res = await s.api({
        method: 'POST',
        url: '/api/invoice-templates',
        payload: { name: 'Bad', logo },
      });
      const body = assertProblem(res, 400, field);
      assert.equal(body.field, field, String(body.detail));
      assert.match(String(body.detail), detail);
    }
    const list = await s.api({ method: 'GET', url: '/api/invoice-templates' });
    assert.deepEqual(list.json(), []);
    for (const [payload, field] of [
      [{ name: '' }, 'name'],
      [{ name: '   ' }, 'name'],
      [{ name: 'x', primaryColour: 'blue' }, 'primaryColour'],
      [{ name: 'x', accentColour: '#fff' }, 'accentColour'],
      [{ name: 'x', footer: 'x'.repeat(501) }, 'footer'],
    ] as const) {
      const body = assertProblem(
        await s.api({ method: 'POST', url: '/api/invoice-templates', payload }),
        400,
        JSON.stringify(payload),
      );
      assert.equal(body.field, field);
    }
  });

  test('a logo over 512 KiB is a 400 naming logo.data; a body over 1 MiB a 413', async () => {
    const s = await setup();
    // About 600 KiB: too big whatever it holds (its size is checked first).
    const big = Buffer.concat([png(1, 1), randomBytes(600 * 1024)]);
    const tooBig = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Big', logo: logoOf(big) },
    });
    const body = assertProblem(tooBig, 400);
    assert.equal(body.field, 'logo.data');
    assert.match(String(body.detail), /601 KiB; at most 512 KiB/);
    const huge = Buffer.alloc(900 * 1024, 1);
    const res = await s.api({
      method: 'POST',
      url: '/api/invoice-templates',
      payload: { name: 'Huge', logo: logoOf(huge) },
    });
    assertProblem(res, 413);
  });

  test('delete: soft (404 from then on, not listed), the default cleared; documents name live templates only', async () => {
    const s = await setup();
    const tpl = (
      await s.api({ method: 'POST', url: '/api/invoice-templates', payload: { name: 'Gone' } })
    ).json();
    await patchSettings(s, { defaultTemplateId: tpl.id });
    const doc = await createDoc(s, { templateId: tpl.id });
    assert.equal(doc.templateId, tpl.id);
    const del = await s.api({ method: 'DELETE', url: `/api/invoice-templates/${tpl.id}` });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await s.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}` }), 404);
    assertProblem(await s.api({ method: 'DELETE', url: `/api/invoice-templates/${tpl.id}` }), 404);
    assert.deepEqual((await s.api({ method: 'GET', url: '/api/invoice-templates' })).json(), []);
    assert.equal(
      (await s.api({ method: 'GET', url: '/api/invoice-settings' })).json().defaultTemplateId,
      null,
    );
    // The document keeps its record of the template; new ones may not name it.
    assert.equal((await s.api({ method: 'GET', url: `/api/invoices/${doc.id}` })).json().templateId, tpl.id);
    const refused = await s.api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: s.customerId,
        documentType: 'invoice',
        issueDate: '2026-03-02',
        dueDate: '2026-04-01',
        templateId: tpl.id,
        lines: [{ description: 'x', quantity: 1, unitPrice: 1 }],
      },
    });
    assert.equal(assertProblem(refused, 400).field, 'templateId');
  });

  test("another tenant's template is a 404 everywhere, and cannot be named", async () => {
    const a = await setup();
    const b = await setup();
    const tpl = (
      await a.api({
        method: 'POST',
        url: '/api/invoice-templates',
        payload: { name: 'Mine', logo: logoOf(png(2, 2)) },
      })
    ).json();
    for (const [method, url] of [
      ['GET', `/api/invoice-templates/${tpl.id}`],
      ['GET', `/api/invoice-templates/${tpl.id}/logo`],
      ['DELETE', `/api/invoice-templates/${tpl.id}`],
    ] as const) {
      assertProblem(await b.api({ method, url }), 404, `${method} ${url}`);
    }
    assertProblem(
      await b.api({ method: 'PATCH', url: `/api/invoice-templates/${tpl.id}`, payload: { name: 'Theirs' } }),
      404,
    );
    const named = await b.api({
      method: 'PATCH',
      url: '/api/invoice-settings',
      payload: { defaultTemplateId: tpl.id },
    });
    assert.equal(assertProblem(named, 400).field, 'defaultTemplateId');
    assert.equal(
      (await a.api({ method: 'GET', url: `/api/invoice-templates/${tpl.id}` })).json().name,
      'Mine',
    );
  });
});
