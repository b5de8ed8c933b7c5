// Leads over HTTP: the lifecycle (create, read, list with its filters, change, delete),
// conversion into a contact (with its consents) and an opportunity, tenancy and the plan.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { withTenant } from '../../platform/db/tenant.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Api = ReturnType<typeof as>;

async function newLead(api: Api, body: Record<string, unknown>) {
  const res = await api({ method: 'POST', url: '/api/crm/leads', payload: body });
  assert.equal(res.statusCode, 201, res.body);
  return res.json();
}

describe('lead lifecycle', () => {
  test('create, read, change, list with filters, delete', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const created = await api({
      method: 'POST',
      url: '/api/crm/leads',
      payload: {
        name: '  Thandi Nkosi ',
        companyName: 'Nkosi Logistics',
        email: 'Thandi@NkosiLogistics.co.za',
        phone: '082 555 0142',
        source: 'Website',
        ownerId: a.userId,
        estimatedValue: 45000.5,
        tags: ['fleet', 'Fleet', ' gauteng '],
        consentChannels: ['email', 'sms'],
      },
    });
    assert.equal(created.statusCode, 201, created.body);
    const lead = created.json();
    assert.equal(created.headers.location, `/api/crm/leads/${lead.id}`);
    assert.equal(lead.name, 'Thandi Nkosi');
    assert.equal(lead.phone, '082 555 0142');
    assert.equal(lead.phoneE164, '+27825550142', 'a ZA number read into E.164');
    assert.equal(lead.status, 'new');
    assert.equal(lead.estimatedValue, 45000.5);
    assert.deepEqual(lead.tags, ['fleet', 'gauteng'], 'trimmed, a repeat in another case kept once');
    assert.deepEqual(lead.consentChannels, ['email', 'sms']);
    assert.equal(lead.convertedAt, null);

    const got = await api({ method: 'GET', url: `/api/crm/leads/${lead.id}` });
    assert.equal(got.statusCode, 200);
    assert.deepEqual(got.json(), lead);
    assert.ok(got.headers.etag, 'a single record carries an ETag');

    const other = await newLead(api, {
      name: 'Sipho Dlamini',
      email: 'sipho@example.co.za',
      source: 'referral',
    });

    const patched = await api({
      method: 'PATCH',
      url: `/api/crm/leads/${lead.id}`,
      payload: { status: 'qualified', phone: '+44 20 7946 0958', notes: null },
    });
    assert.equal(patched.statusCode, 200, patched.body);
    assert.equal(patched.json().status, 'qualified');
    assert.equal(patched.json().phoneE164, '+442079460958', 'a + number keeps its own country');

    const list = async (qs: string) => {
      const res = await api({ method: 'GET', url: `/api/crm/leads${qs}` });
      assert.equal(res.statusCode, 200, res.body);
      return res.json();
    };
    const all = await list('');
    assert.equal(all.total, 2);
    assert.deepEqual(
      all.items.map((l: { id: string }) => l.id),
      [other.id, lead.id],
      'newest first',
    );
    assert.deepEqual(
      (await list('?status=qualified')).items.map((l: { id: string }) => l.id),
      [lead.id],
    );
    assert.deepEqual(
      (await list(`?owner=${a.userId}`)).items.map((l: { id: string }) => l.id),
      [lead.id],
    );
    assert.deepEqual(
      (await list('?source=REFERRAL')).items.map((l: { id: string }) => l.id),
      [other.id],
    );
    assert.deepEqual(
      (await list('?q=nkosi')).items.map((l: { id: string }) => l.id),
      [lead.id],
    );
    assert.deepEqual(
      (await list('?q=7946')).items.map((l: { id: string }) => l.id),
      [lead.id],
      'by phone',
    );
    const ids = async (q: string) =>
      (await list(`?q=${encodeURIComponent(q)}`)).items.map((l: { id: string }) => l.id);
    assert.deepEqual(await ids('020 7946 0958'), [], 'a UK number written the ZA way is another number');
    assert.deepEqual(await ids('+44 (0)20 7946 0958'), [lead.id], 'written another way, found by E.164');
    assert.equal((await list('?q=100%25')).total, 0, 'a % is taken literally');

    const since = new Date(Date.now() - 60_000).toISOString();
    assert.equal((await api({ method: 'DELETE', url: `/api/crm/leads/${other.id}` })).statusCode, 204);
    assertProblem(await api({ method: 'GET', url: `/api/crm/leads/${other.id}` }), 404);
    assert.equal((await list('')).total, 1);
    const synced = await list(`?updatedSince=${encodeURIComponent(since)}`);
    const gone = synced.items.find((l: { id: string }) => l.id === other.id);
    assert.ok(gone?.deletedAt, 'a sync learns of the deleted lead');
  });

  test('bad input: 400 naming the field', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const b = await register(t.app);
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ name: 'X', phone: '12' }, 'phone'],
      [{ name: 'X', phone: 'call me' }, 'phone'],
      [{ name: 'X', email: 'not-an-address' }, 'email'],
      [{ name: 'X', ownerId: b.userId }, 'ownerId'],
      [{ name: 'X', estimatedValue: 1.005 }, 'estimatedValue'],
      [{ name: 'X', status: 'converted' }, 'status'],
      [{ name: 'X', consentChannels: ['fax'] }, 'consentChannels[0]'],
      [{ name: 'X', colour: 'red' }, 'colour'],
    ];
    for (const [payload, field] of cases) {
      const res = await api({ method: 'POST', url: '/api/crm/leads', payload });
      const body = assertProblem(res, 400, JSON.stringify(payload));
      assert.ok(String(body.field ?? body.detail).includes(field), `${field}: ${res.body}`);
    }
  });

  test("another tenant's lead is 404; a free plan is 403 MODULE_NOT_LICENSED", async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const lead = await newLead(as(t.app, a.token), { name: 'Mine' });
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await as(
        t.app,
        b.token,
      )({
        method,
        url: `/api/crm/leads/${lead.id}`,
        ...(method === 'PATCH' ? { payload: { notes: 'x' } } : {}),
      });
      assertProblem(res, 404, method);
    }
    const convert = await as(
      t.app,
      b.token,
    )({ method: 'POST', url: `/api/crm/leads/${lead.id}/convert`, payload: {} });
    assertProblem(convert, 404);
    const free = await register(t.app, { plan: 'free' });
    for (const url of ['/api/crm/leads']) {
      const res = await as(t.app, free.token)({ method: 'GET', url });
      assert.equal(assertProblem(res, 403).code, 'MODULE_NOT_LICENSED', url);
    }
    const post = await as(
      t.app,
      free.token,
    )({ method: 'POST', url: '/api/crm/leads', payload: { name: 'X' } });
    assert.equal(assertProblem(post, 403).code, 'MODULE_NOT_LICENSED');
    const starter = await register(t.app, { plan: 'starter' });
    assert.equal((await as(t.app, starter.token)({ method: 'GET', url: '/api/crm/leads' })).statusCode, 200);
  });
});

describe('converting a lead', () => {
  test('makes a customer with the consents, and an opportunity at the first stage', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const lead = await newLead(api, {
      name: 'Thandi Nkosi',
      companyName: 'Nkosi Logistics',
      email: 'thandi@nkosilogistics.co.za',
      phone: '082 555 0142',
      estimatedValue: 45000,
      consentChannels: ['email', 'whatsapp'],
    });
    const res = await api({
      method: 'POST',
      url: `/api/crm/leads/${lead.id}/convert`,
      payload: { opportunity: { expectedCloseDate: '2027-03-31' } },
    });
    assert.equal(res.statusCode, 200, res.body);
    const converted = res.json();
    assert.equal(converted.status, 'converted');
    assert.ok(converted.convertedAt);
    assert.ok(converted.contactId);
    assert.ok(converted.opportunityId);

    const contact = (await api({ method: 'GET', url: `/api/contacts/${converted.contactId}` })).json();
    assert.equal(contact.name, 'Nkosi Logistics', 'named as the company');
    assert.equal(contact.contactType, 'CUSTOMER');
    assert.equal(contact.email, 'thandi@nkosilogistics.co.za');
    assert.equal(contact.phone, '+27825550142');
    const consent = (
      await api({ method: 'GET', url: `/api/contacts/${converted.contactId}/consent` })
    ).json();
    const may = Object.fromEntries(
      consent.channels.map((c: { channel: string; mayMarket: boolean }) => [c.channel, c.mayMarket]),
    );
    assert.deepEqual(may, { email: true, sms: false, whatsapp: true, phone: false, post: false });
    assert.ok(consent.history.every((h: { note: string }) => h.note === 'given as a lead'));

    // The opportunity: the first stage (Qualification, position 0), the lead's estimatedValue.
    const opp = await withTenant(t.database.db, a.tenantId, (tx) =>
      tx
        .selectFrom('crm_opportunities')
        .innerJoin('crm_pipeline_stages as s', (j) =>
          j
            .onRef('s.tenant_id', '=', 'crm_opportunities.tenant_id')
            .onRef('s.id', '=', 'crm_opportunities.stage_id'),
        )
        .select([
          'crm_opportunities.amount',
          'crm_opportunities.lead_id',
          'crm_opportunities.contact_id',
          's.name as stage',
        ])
        .where('crm_opportunities.id', '=', converted.opportunityId)
        .executeTakeFirstOrThrow(),
    );
    assert.equal(Number(opp.amount), 45000);
    assert.equal(opp.stage, 'Qualification');
    assert.equal(opp.lead_id, lead.id);
    assert.equal(opp.contact_id, converted.contactId);

    const again = await api({ method: 'POST', url: `/api/crm/leads/${lead.id}/convert`, payload: {} });
    assertProblem(again, 409);
    const status = await api({
      method: 'PATCH',
      url: `/api/crm/leads/${lead.id}`,
      payload: { status: 'new' },
    });
    assertProblem(status, 409);
  });

  test('links a given contact; no opportunity unless asked; a contact of no one is 400', async () => {
    const a = await register(t.app);
    const api = as(t.app, a.token);
    const contact = await api({ method: 'POST', url: '/api/contacts', payload: { name: 'Existing Co' } });
    assert.equal(contact.statusCode, 201, contact.body);
    const lead = await newLead(api, { name: 'Sipho', consentChannels: ['sms'] });
    const bad = await api({
      method: 'POST',
      url: `/api/crm/leads/${lead.id}/convert`,
      payload: { contactId: crypto.randomUUID() },
    });
    assert.equal(assertProblem(bad, 400).field, 'contactId');
    const badStage = await api({
      method: 'POST',
      url: `/api/crm/leads/${lead.id}/convert`,
      payload: { contactId: contact.json().id, opportunity: { stageId: crypto.randomUUID() } },
    });
    assert.equal(assertProblem(badStage, 400).field, 'opportunity.stageId');
    const res = await api({
      method: 'POST',
      url: `/api/crm/leads/${lead.id}/convert`,
      payload: { contactId: contact.json().id },
    });
    assert.equal(res.statusCode, 200, res.body);
    assert.equal(res.json().contactId, contact.json().id);
    assert.equal(res.json().opportunityId, null);
    const consent = (await api({ method: 'GET', url: `/api/contacts/${contact.json().id}/consent` })).json();
    assert.equal(consent.history.length, 0, "an existing contact's consent history is its own");
  });
});
