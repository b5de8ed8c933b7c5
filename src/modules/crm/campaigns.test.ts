// CRM campaigns through the app: the campaign itself, its members, and the audience its
// channel's consent allows (contacts by their consent history, leads by their consent
// channels), read when asked.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { assertBadRequest } from '../contacts/contacts.factories.ts';
import { type Api, contactOf, crmTenant, insertLead } from './activities.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

interface Entry {
  memberId: string;
  leadId: string | null;
  contactId: string | null;
  name: string;
  address: string | null;
  reason?: string;
}

describe('CRM campaigns', () => {
  let api: Api;
  let tenantId: string;

  const ok = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, status = 200) => {
    const res = await api({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
    assert.equal(res.statusCode, status, res.body);
    return res.json();
  };
  const consent = (contactId: string, channel: string, status: string, recordedAt: string) =>
    ok(
      'POST',
      `/api/contacts/${contactId}/consent`,
      { channel, status, method: 'web_form', recordedAt },
      201,
    );

  before(async () => {
    t.clock.set('2026-11-20T08:00:00.000Z');
    const c = await crmTenant(t);
    api = c.api;
    tenantId = c.r.tenantId;
  });

  test('create, read, change, list and delete a campaign', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/crm/campaigns',
      payload: { name: ' Winter promo ', channel: 'sms', description: ' ', startsOn: '2026-06-01' },
    });
    assert.equal(res.statusCode, 201, res.body);
    const c = res.json();
    assert.equal(res.headers.location, `/api/crm/campaigns/${c.id}`);
    assert.deepEqual(
      [c.name, c.channel, c.status, c.description, c.startsOn, c.endsOn, c.counts],
      ['Winter promo', 'sms', 'draft', null, '2026-06-01', null, { members: 0, included: 0, excluded: 0 }],
    );
    const url = `/api/crm/campaigns/${c.id}`;
    assertBadRequest(await api({ method: 'PATCH', url, payload: { endsOn: '2026-05-31' } }), 'endsOn');
    assertBadRequest(await api({ method: 'PATCH', url, payload: { status: 'paused' } }), 'status');
    const changed = await ok('PATCH', url, { status: 'active', endsOn: '2026-08-31' });
    assert.deepEqual(
      [changed.status, changed.endsOn, changed.name],
      ['active', '2026-08-31', 'Winter promo'],
    );
    assert.ok((await ok('GET', '/api/crm/campaigns')).some((x: { id: string }) => x.id === c.id));
    const ids = async (query: string) =>
      (await ok('GET', `/api/crm/campaigns?${query}`)).map((x: { id: string }) => x.id);
    assert.deepEqual(await ids('status=active&channel=sms'), [c.id]);
    assert.deepEqual(await ids('status=draft'), []);
    assert.deepEqual(await ids('channel=email'), []);
    assertBadRequest(await api({ method: 'GET', url: '/api/crm/campaigns?channel=fax' }), 'channel');
    const del = await api({ method: 'DELETE', url });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await api({ method: 'GET', url }), 404);
    assert.ok(!(await ok('GET', '/api/crm/campaigns')).some((x: { id: string }) => x.id === c.id));
  });

  test('consent decides the audience: granted in; refused, withdrawn, never asked and no address out, counted', async () => {
    const contact = (name: string, email?: string, extra: Record<string, unknown> = {}) =>
      contactOf(api, { name, ...(email ? { email } : {}), ...extra });
    const granted = await contact('Ayanda Granted', 'ayanda@example.co.za', { mobile: '+27 82 555 0101' });
    const refused = await contact('Bongani Refused', 'bongani@example.co.za');
    const withdrawn = await contact('Carla Withdrawn', 'carla@example.co.za');
    const never = await contact('Dineo Never', 'dineo@example.co.za');
    const noEmail = await contact('Elias NoEmail');
    const later = await contact('Fatima Later', 'fatima@example.co.za');
    const deleted = await contact('Gert Deleted', 'gert@example.co.za');
    const convertedTo = await contact('Hlengiwe Converted', 'hlengiwe@example.co.za');
    for (const id of [granted, noEmail, later, deleted, convertedTo])
      await consent(id, 'email', 'granted', '2026-06-01T10:00:00Z');
    await consent(refused, 'email', 'refused', '2026-09-15T10:00:00Z');
    await consent(withdrawn, 'email', 'granted', '2026-06-01T10:00:00Z');
    await consent(withdrawn, 'email', 'withdrawn', '2026-10-01T09:00:00Z');
    // consent on another channel does not count for e-mail
    await consent(never, 'sms', 'granted', '2026-06-01T10:00:00Z');

    const leadYes = await insertLead(t, tenantId, {
      name: 'Ivan LeadYes',
      email: 'ivan@example.co.za',
      consent_channels: ['email'],
    });
    const leadNo = await insertLead(t, tenantId, {
      name: 'Jabu LeadNo',
      email: 'jabu@example.co.za',
      phone: '082 555 0199',
      phone_e164: '+27825550199',
      consent_channels: ['sms'],
    });
    // converted: its contact (granted for e-mail) decides, even though the lead gave no channel
    const leadConverted = await insertLead(t, tenantId, {
      name: 'Hlengiwe (lead)',
      status: 'converted',
      converted_at: new Date('2026-11-01T10:00:00Z'),
      contact_id: convertedTo,
    });

    const campaign = await ok(
      'POST',
      '/api/crm/campaigns',
      { name: 'Summer specials', channel: 'email' },
      201,
    );
    const url = `/api/crm/campaigns/${campaign.id}`;
    const contactIds = [granted, refused, withdrawn, never, noEmail, later, deleted];
    const add = await ok('POST', `${url}/members`, { contactIds, leadIds: [leadYes, leadNo, leadConverted] });
    assert.deepEqual([add.added, add.alreadyMembers], [10, 0]);
    const gone = await api({ method: 'DELETE', url: `/api/contacts/${deleted}` });
    assert.equal(gone.statusCode, 204, gone.body);

    const audience = await ok('GET', `${url}/audience`);
    const by = (list: Entry[]) => Object.fromEntries(list.map((e) => [e.name, e.reason ?? e.address]));
    // included: Ayanda, Fatima (granted contacts), Ivan (lead that gave e-mail), Hlengiwe (converted lead's contact)
    assert.deepEqual(by(audience.included), {
      'Ayanda Granted': 'ayanda@example.co.za',
      'Fatima Later': 'fatima@example.co.za',
      'Ivan LeadYes': 'ivan@example.co.za',
      'Hlengiwe Converted': 'hlengiwe@example.co.za',
    });
    assert.deepEqual(by(audience.excluded), {
      'Bongani Refused': 'Consent refused on 2026-09-15',
      'Carla Withdrawn': 'Consent withdrawn on 2026-10-01',
      'Dineo Never': 'No consent recorded for E-mail',
      'Elias NoEmail': 'No e-mail address',
      'Gert Deleted': 'Contact deleted',
      'Jabu LeadNo': 'No consent recorded for E-mail',
    });
    // 10 members = 4 included + 6 excluded
    assert.deepEqual(audience.counts, { members: 10, included: 4, excluded: 6 });
    const hlengiwe = audience.included.find((e: Entry) => e.name === 'Hlengiwe Converted');
    assert.deepEqual([hlengiwe.leadId, hlengiwe.contactId], [leadConverted, convertedTo]);
    assert.deepEqual((await ok('GET', url)).counts, { members: 10, included: 4, excluded: 6 });

    // a withdrawal takes effect at once: Fatima moves to excluded
    await consent(later, 'email', 'withdrawn', '2026-11-20T07:30:00Z');
    const after = await ok('GET', `${url}/audience`);
    assert.equal(by(after.excluded)['Fatima Later'], 'Consent withdrawn on 2026-11-20');
    assert.ok(!after.included.some((e: Entry) => e.name === 'Fatima Later'));
    assert.deepEqual(after.counts, { members: 10, included: 3, excluded: 7 });

    // the same people on SMS: only Jabu's lead gave SMS consent and has a number; Dineo granted SMS but has no number
    const sms = await ok('POST', '/api/crm/campaigns', { name: 'SMS blast', channel: 'sms' }, 201);
    await ok('POST', `/api/crm/campaigns/${sms.id}/members`, {
      contactIds: [granted, never],
      leadIds: [leadYes, leadNo],
    });
    const smsAudience = await ok('GET', `/api/crm/campaigns/${sms.id}/audience`);
    assert.deepEqual(by(smsAudience.included), { 'Jabu LeadNo': '+27825550199' });
    assert.deepEqual(by(smsAudience.excluded), {
      'Ayanda Granted': 'No consent recorded for SMS',
      'Dineo Never': 'No mobile or phone number',
      'Ivan LeadYes': 'No consent recorded for SMS',
    });
  });

  test('members: no duplicates (counted as already there), removal, unknown ids refused whole', async () => {
    const a = await contactOf(api, { name: 'Member A', email: 'a@example.co.za' });
    const b = await contactOf(api, { name: 'Member B', email: 'b@example.co.za' });
    const lead = await insertLead(t, tenantId, { name: 'Member Lead' });
    const c = await ok('POST', '/api/crm/campaigns', { name: 'Members', channel: 'email' }, 201);
    const url = `/api/crm/campaigns/${c.id}`;
    const first = await ok('POST', `${url}/members`, { contactIds: [a, a], leadIds: [lead] });
    // a named twice: added once, the repeat counted
    assert.deepEqual([first.added, first.alreadyMembers, first.counts.members], [2, 1, 2]);
    const again = await ok('POST', `${url}/members`, { contactIds: [a, b], leadIds: [lead] });
    assert.deepEqual([again.added, again.alreadyMembers, again.counts.members], [1, 2, 3]);

    const unknown = await api({
      method: 'POST',
      url: `${url}/members`,
      payload: { contactIds: [crypto.randomUUID()] },
    });
    assertProblem(unknown, 404);
    const other = await crmTenant(t);
    const foreignLead = await insertLead(t, other.r.tenantId, { name: 'Not ours' });
    assertProblem(
      await api({ method: 'POST', url: `${url}/members`, payload: { leadIds: [foreignLead] } }),
      404,
    );
    assert.equal((await ok('GET', url)).counts.members, 3);

    const audience = await ok('GET', `${url}/audience`);
    const memberA = [...audience.included, ...audience.excluded].find(
      (e: Entry) => e.contactId === a,
    ).memberId;
    const del = await api({ method: 'DELETE', url: `${url}/members/${memberA}` });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await api({ method: 'DELETE', url: `${url}/members/${memberA}` }), 404);
    assert.equal((await ok('GET', url)).counts.members, 2);
    // removed, then added again: a new member
    const back = await ok('POST', `${url}/members`, { contactIds: [a] });
    assert.deepEqual([back.added, back.counts.members], [1, 3]);

    // another tenant sees none of it
    for (const path of [url, `${url}/audience`])
      assertProblem(await other.api({ method: 'GET', url: path }), 404);
    assertProblem(await other.api({ method: 'DELETE', url: `${url}/members/${back.id}` }), 404);
  });
});
