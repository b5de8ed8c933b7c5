// A payment link on the invoice PDF and in its e-mail: while the document has an active,
// unexpired link, "Pay online: <its page>" is printed and put in the e-mail body; a revoked or
// expired link, or none, prints nothing.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { pdfOf } from '../../../test/support/pdf.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import {
  GATEWAY_A_KEYS,
  insertLink,
  type Online,
  onlineSetup,
  openInvoice,
  setGateway,
} from './online.factories.ts';

const BASE = 'https://pay.example.com';

describe('the payment link on the PDF and in the e-mail', () => {
  let t: TestApp;
  before(async () => {
    t = await startTestApp({ jobsWork: false, config: { publicBaseUrl: BASE } });
  });
  after(() => t.close());

  async function pdfText(o: Online, id: string): Promise<string> {
    const res = await o.api({ method: 'GET', url: `/api/invoices/${id}/pdf` });
    return (await pdfOf(res, /\.pdf/)).join('\n');
  }

  async function mailed(o: Online, id: string): Promise<string> {
    const res = await o.api({
      method: 'POST',
      url: `/api/invoices/${id}/send`,
      payload: { to: 'accounts@thandi.example.com' },
    });
    assert.ok(res.statusCode < 300, res.body);
    const row = await withTenant(t.database.db, o.tenantId, (tx) =>
      tx
        .selectFrom('emails')
        .select('text_body')
        .where('id', '=', res.json().emailId)
        .executeTakeFirstOrThrow(),
    );
    return row.text_body;
  }

  const payOnline = (url: string) => new RegExp(`Pay online:\\s*${url.replace(/[.?/]/g, '\\$&')}`);

  test('an active link is printed and mailed; revoked or expired, it is not', async () => {
    const o = await onlineSetup(t);
    await setGateway(o, 'gatewaya', GATEWAY_A_KEYS);
    const inv = await openInvoice(o);
    assert.doesNotMatch(await pdfText(o, inv.id), /Pay online/, 'no link yet');
    assert.doesNotMatch(await mailed(o, inv.id), /Pay online/);

    const res = await o.api({ method: 'POST', url: `/api/invoices/${inv.id}/payment-links` });
    assert.equal(res.statusCode, 201, res.body);
    const link = res.json();
    assert.match(await pdfText(o, inv.id), payOnline(link.url));
    assert.match(await mailed(o, inv.id), payOnline(link.url));

    const revoked = await o.api({
      method: 'POST',
      url: `/api/invoices/${inv.id}/payment-links/${link.id}/revoke`,
    });
    assert.equal(revoked.statusCode, 200, revoked.body);
    await insertLink(t, o, inv.id, 'gatewaya', { expiresAt: new Date(Date.now() - 60_000) });
    assert.doesNotMatch(await pdfText(o, inv.id), /Pay online/, 'revoked and expired links print nothing');
    assert.doesNotMatch(await mailed(o, inv.id), /Pay online/);
  });
});
