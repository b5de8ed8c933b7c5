// CRM activities through the app: one target exactly, the paged list and its filters (a to-do
// list and each record's timeline), complete (idempotent), changes, soft delete, tenancy, plan.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { assertBadRequest } from '../contacts/contacts.factories.ts';
import { type Api, contactOf, crmTenant, insertLead, insertOpportunity } from './activities.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

const NOW = '2026-11-20T08:00:00.000Z';

describe('CRM activities', () => {
  let api: Api;
  let tenantId: string;
  let userId: string;
  let leadId: string;
  let opportunityId: string;
  let contactId: string;
  const ids: Record<string, string> = {};

  const create = async (payload: Record<string, unknown>) => {
    const res = await api({ method: 'POST', url: '/api/crm/activities', payload });
    assert.equal(res.statusCode, 201, res.body);
    return res.json();
  };
  const list = async (query: Record<string, string> = {}) => {
    const res = await api({ method: 'GET', url: '/api/crm/activities', query });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const subjects = (page: { items: { subject: string }[] }) => page.items.map((a) => a.subject);

  before(async () => {
    // A fixed clock: "now" decides overdue (the token lasts 15 minutes of it).
    t.clock.set(NOW);
    const c = await crmTenant(t);
    api = c.api;
    tenantId = c.r.tenantId;
    userId = c.r.userId;
    leadId = await insertLead(t, tenantId, { name: 'Thabo Nkosi' });
    opportunityId = await insertOpportunity(t, tenantId, 'Office fit-out');
    contactId = await contactOf(api, { name: 'Karoo Kitchens' });
  });

  test('created against one record: defaults, Location and GET of it', async () => {
    const res = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: {
        kind: 'call',
        subject: ' Call about the quote ',
        notes: '  ',
        dueAt: '2026-11-19T12:00:00+02:00',
        leadId,
      },
    });
    assert.equal(res.statusCode, 201, res.body);
    const a = res.json();
    assert.equal(res.headers.location, `/api/crm/activities/${a.id}`);
    ids.call = a.id;
    // due 10:00Z on the 19th, now 08:00Z on the 20th: open and past due
    assert.deepEqual(
      { ...a, id: undefined, createdAt: undefined, updatedAt: undefined },
      {
        id: undefined,
        kind: 'call',
        subject: 'Call about the quote',
        notes: null,
        dueAt: '2026-11-19T10:00:00.000Z',
        done: false,
        doneAt: null,
        overdue: true,
        ownerId: userId,
        leadId,
        opportunityId: null,
        contactId: null,
        createdAt: undefined,
        updatedAt: undefined,
        deletedAt: null,
      },
    );
    const got = await api({ method: 'GET', url: `/api/crm/activities/${a.id}` });
    assert.equal(got.statusCode, 200, got.body);
    assert.equal(got.json().subject, 'Call about the quote');
    assert.ok(got.headers.etag, 'one record carries an ETag');
  });

  test('none or two of lead, opportunity and contact: 400 naming the field; unknown ones 404', async () => {
    const none = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'note', subject: 'x' },
    });
    assertBadRequest(none, 'leadId');
    const two = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'note', subject: 'x', leadId, opportunityId },
    });
    assertBadRequest(two, 'opportunityId');
    const blank = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'note', subject: '   ', contactId },
    });
    assertBadRequest(blank, 'subject');
    const badKind = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'email', subject: 'x', contactId },
    });
    assertBadRequest(badKind, 'kind');
    const other = await register(t.app, { plan: 'starter' });
    const foreignLead = await insertLead(t, other.tenantId, { name: 'Not ours' });
    const foreign = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'note', subject: 'x', leadId: foreignLead },
    });
    assert.equal(assertProblem(foreign, 404).code, 'NOT_FOUND');
    const owner = await api({
      method: 'POST',
      url: '/api/crm/activities',
      payload: { kind: 'note', subject: 'x', contactId, ownerId: other.userId },
    });
    assert.equal(assertProblem(owner, 404).code, 'NOT_FOUND');
  });

  test('the paged list: due first (no due time last), then created; every filter', async () => {
    ids.meeting = (
      await create({
        kind: 'meeting',
        subject: 'Site visit',
        dueAt: '2026-11-21T09:00:00Z',
        leadId,
        done: true,
      })
    ).id;
    ids.task = (
      await create({ kind: 'task', subject: 'Send proposal', dueAt: '2026-11-25T09:00:00Z', opportunityId })
    ).id;
    ids.note = (await create({ kind: 'note', subject: 'Prefers e-mail', contactId, ownerId: null })).id;

    // due 19th, 21st, 25th, then the note with no due time
    const first = await list({ limit: '2' });
    assert.deepEqual(subjects(first), ['Call about the quote', 'Site visit']);
    assert.deepEqual([first.total, first.page, first.limit, first.totalPages], [4, 1, 2, 2]);
    assert.deepEqual(subjects(await list({ limit: '2', page: '2' })), ['Send proposal', 'Prefers e-mail']);

    // the lead's timeline, the opportunity's, the contact's
    assert.deepEqual(subjects(await list({ leadId })), ['Call about the quote', 'Site visit']);
    assert.deepEqual(subjects(await list({ opportunityId })), ['Send proposal']);
    assert.deepEqual(subjects(await list({ contactId })), ['Prefers e-mail']);
    assert.deepEqual(subjects(await list({ kind: 'task' })), ['Send proposal']);
    assert.deepEqual(subjects(await list({ done: 'true' })), ['Site visit']);
    assert.deepEqual(subjects(await list({ done: 'false' })), [
      'Call about the quote',
      'Send proposal',
      'Prefers e-mail',
    ]);
    // only the call is open and due before 08:00Z on the 20th
    assert.deepEqual(subjects(await list({ overdue: 'true' })), ['Call about the quote']);
    assert.equal((await list({ overdue: 'false' })).total, 3);
    assert.deepEqual(subjects(await list({ dueBefore: '2026-11-22T00:00:00Z' })), [
      'Call about the quote',
      'Site visit',
    ]);
    // the note was given no owner; the other three default to the signed-in user
    assert.equal((await list({ ownerId: userId })).total, 3);
    assert.equal((await list({ ownerId: crypto.randomUUID() })).total, 0);
    const bad = await api({ method: 'GET', url: '/api/crm/activities', query: { kind: 'email' } });
    assertBadRequest(bad, 'kind');
  });

  test('complete sets doneAt once; a repeat keeps it; done false opens it again', async () => {
    const url = `/api/crm/activities/${ids.task}/complete`;
    const first = await api({ method: 'POST', url });
    assert.equal(first.statusCode, 200, first.body);
    assert.equal(first.json().doneAt, NOW);
    t.clock.advance(60_000);
    const again = await api({ method: 'POST', url });
    assert.equal(again.statusCode, 200, again.body);
    assert.equal(again.json().doneAt, NOW, 'unchanged by a repeat');
    const reopened = await api({
      method: 'PATCH',
      url: `/api/crm/activities/${ids.task}`,
      payload: { done: false },
    });
    assert.equal(reopened.statusCode, 200, reopened.body);
    assert.deepEqual([reopened.json().done, reopened.json().doneAt], [false, null]);
  });

  test('PATCH changes only what is sent and may move the activity to another record', async () => {
    const url = `/api/crm/activities/${ids.call}`;
    const res = await api({
      method: 'PATCH',
      url,
      payload: { dueAt: null, notes: 'Left a message', contactId },
    });
    assert.equal(res.statusCode, 200, res.body);
    const a = res.json();
    assert.deepEqual(
      [a.subject, a.notes, a.dueAt, a.overdue, a.leadId, a.contactId],
      ['Call about the quote', 'Left a message', null, false, null, contactId],
    );
    assertBadRequest(await api({ method: 'PATCH', url, payload: { leadId, contactId } }), 'contactId');
    const gone = await api({ method: 'PATCH', url, payload: { opportunityId: crypto.randomUUID() } });
    assert.equal(assertProblem(gone, 404).code, 'NOT_FOUND');
  });

  test('DELETE is soft: 404 after, out of the list, in a sync with deletedAt', async () => {
    const url = `/api/crm/activities/${ids.note}`;
    const del = await api({ method: 'DELETE', url });
    assert.equal(del.statusCode, 204, del.body);
    assertProblem(await api({ method: 'GET', url }), 404);
    assertProblem(await api({ method: 'DELETE', url }), 404);
    assert.ok(!subjects(await list()).includes('Prefers e-mail'));
    const sync = await list({ updatedSince: '2000-01-01T00:00:00Z' });
    const note = sync.items.find((a: { id: string }) => a.id === ids.note);
    assert.ok(note?.deletedAt, 'a sync sees the deleted activity');
  });

  test("another tenant's activity is a 404 to every route", async () => {
    const other = await crmTenant(t);
    for (const [method, url] of [
      ['GET', `/api/crm/activities/${ids.call}`],
      ['PATCH', `/api/crm/activities/${ids.call}`],
      ['POST', `/api/crm/activities/${ids.call}/complete`],
      ['DELETE', `/api/crm/activities/${ids.call}`],
    ] as const)
      assertProblem(
        await other.api({ method, url, ...(method === 'PATCH' ? { payload: { subject: 'x' } } : {}) }),
        404,
        url,
      );
    assert.equal((await other.api({ method: 'GET', url: '/api/crm/activities' })).json().total, 0);
  });
});

describe('CRM on a free plan', () => {
  test('activities and campaigns answer 403 MODULE_NOT_LICENSED', async () => {
    const f = await register(t.app, { plan: 'free' });
    const api = as(t.app, f.token);
    for (const url of ['/api/crm/activities', '/api/crm/campaigns'])
      assert.equal(assertProblem(await api({ method: 'GET', url }), 403).code, 'MODULE_NOT_LICENSED', url);
  });
});
