// Marketing consent of a contact, and the database walls around contacts and consent.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { assertBadRequest, createContact as create } from './contacts.factories.ts';

let t: TestApp;
before(async () => {
  t = await startTestApp({ jobsWork: false });
});
after(() => t.close());

type Api = ReturnType<typeof as>;

describe('contacts: marketing consent', () => {
  let api: Api;
  let id: string;
  before(async () => {
    // A fixed clock (the token lasts 15 minutes of it), so recordedAt can be asserted.
    t.clock.set('2025-03-01T08:00:00.000Z');
    const a = await register(t.app, { name: 'Lerato Owner' });
    api = as(t.app, a.token);
    id = String((await create(api, { name: 'Consenting Customer' })).id);
  });

  const consentOf = async () => {
    const res = await api({ method: 'GET', url: `/api/contacts/${id}/consent` });
    assert.equal(res.statusCode, 200, res.body);
    return res.json();
  };
  const record = (payload: Record<string, unknown>) =>
    api({ method: 'POST', url: `/api/contacts/${id}/consent`, payload });

  test('nothing recorded: every channel listed, none may be marketed on', async () => {
    const c = await consentOf();
    assert.equal(c.contactId, id);
    assert.equal(typeof c.notMarketing, 'string');
    assert.match(c.notMarketing, /not direct marketing/);
    assert.deepEqual(
      c.channels.map((ch: { channel: string; label: string }) => [ch.channel, ch.label]),
      [
        ['email', 'E-mail'],
        ['sms', 'SMS'],
        ['whatsapp', 'WhatsApp'],
        ['phone', 'Phone call'],
        ['post', 'Post'],
      ],
    );
    assert.ok(c.channels.every((ch: { mayMarket: boolean; latest: unknown }) => !ch.mayMarket && !ch.latest));
    assert.deepEqual(c.history, []);
  });

  test('records append to the history; the latest per channel is in force', async () => {
    const granted = await record({
      channel: 'email',
      status: 'granted',
      method: 'web_form',
      note: ' Order form ',
    });
    assert.equal(granted.statusCode, 201, granted.body);
    const afterGrant = granted.json();
    const email = afterGrant.channels.find((ch: { channel: string }) => ch.channel === 'email');
    assert.equal(email.mayMarket, true);
    assert.deepEqual(
      { ...email.latest, id: undefined },
      {
        id: undefined,
        channel: 'email',
        channelLabel: 'E-mail',
        status: 'granted',
        statusLabel: 'Consent given',
        method: 'web_form',
        methodLabel: 'Web form',
        note: 'Order form',
        recordedBy: 'Lerato Owner',
        recordedAt: '2025-03-01T08:00:00.000Z',
      },
    );

    t.clock.advance(60_000);
    assert.equal((await record({ channel: 'email', status: 'withdrawn', method: 'email' })).statusCode, 201);
    assert.equal(
      (await record({ channel: 'whatsapp', status: 'granted', method: 'existing_customer' })).statusCode,
      201,
    );
    // Backdated: a signed form from before the WhatsApp opt-in; it joins the history but the
    // later record stays in force.
    assert.equal(
      (
        await record({
          channel: 'whatsapp',
          status: 'refused',
          method: 'written',
          recordedAt: '2025-02-01T09:00:00.000Z',
        })
      ).statusCode,
      201,
    );
    const c = await consentOf();
    const byChannel = Object.fromEntries(
      c.channels.map((ch: { channel: string; mayMarket: boolean; latest: { status: string } | null }) => [
        ch.channel,
        [ch.mayMarket, ch.latest?.status ?? null],
      ]),
    );
    assert.deepEqual(byChannel, {
      email: [false, 'withdrawn'],
      sms: [false, null],
      whatsapp: [true, 'granted'],
      phone: [false, null],
      post: [false, null],
    });
    assert.deepEqual(
      c.history.map((h: { channel: string; status: string; recordedAt: string }) => [
        h.channel,
        h.status,
        h.recordedAt,
      ]),
      [
        ['whatsapp', 'granted', '2025-03-01T08:01:00.000Z'],
        ['email', 'withdrawn', '2025-03-01T08:01:00.000Z'],
        ['email', 'granted', '2025-03-01T08:00:00.000Z'],
        ['whatsapp', 'refused', '2025-02-01T09:00:00.000Z'],
      ],
    );
    const labels = c.history.map((h: { statusLabel: string; methodLabel: string }) => [
      h.statusLabel,
      h.methodLabel,
    ]);
    assert.deepEqual(labels[0], ['Consent given', 'Existing customer (POPIA s69(3))']);
    assert.deepEqual(labels[3], ['Consent refused', 'In writing (signed form or letter)']);
    assert.ok(c.history.every((h: { id: string }) => typeof h.id === 'string'));
  });

  test('bad consent input is a 400 naming the field', async () => {
    assertBadRequest(await record({ channel: 'fax', status: 'granted', method: 'verbal' }), 'channel');
    assertBadRequest(await record({ channel: 'sms', status: 'maybe', method: 'verbal' }), 'status');
    assertBadRequest(await record({ channel: 'sms', status: 'granted', method: 'telepathy' }), 'method');
    assertBadRequest(await record({ channel: 'sms', status: 'granted' }), 'method');
    assertBadRequest(
      await record({
        channel: 'sms',
        status: 'granted',
        method: 'verbal',
        recordedAt: '2025-03-02T00:00:00Z',
      }),
      'recordedAt',
    );
    assertBadRequest(
      await record({ channel: 'sms', status: 'granted', method: 'verbal', recordedAt: 'last week' }),
      'recordedAt',
    );
    assert.equal((await consentOf()).history.length, 4, 'nothing was recorded');
  });
});

describe('contacts: the database', () => {
  test('row-level security hides other tenants; contacts cannot be hard-deleted; consent records cannot change', async () => {
    const a = await register(t.app);
    const b = await register(t.app);
    const api = as(t.app, a.token);
    const id = String((await create(api, { name: 'Walled In' })).id);
    const consent = await api({
      method: 'POST',
      url: `/api/contacts/${id}/consent`,
      payload: { channel: 'sms', status: 'granted', method: 'verbal' },
    });
    assert.equal(consent.statusCode, 201, consent.body);
    const db = t.database.db;
    // No WHERE tenant_id: the policies alone keep A's rows from B.
    const seenByB = await withTenant(db, b.tenantId, (tx) =>
      tx.selectFrom('contacts').select('id').where('id', '=', id).execute(),
    );
    assert.deepEqual(seenByB, []);
    const consentsSeenByB = await withTenant(db, b.tenantId, (tx) =>
      tx.selectFrom('contact_consents').select('id').execute(),
    );
    assert.deepEqual(consentsSeenByB, []);
    await assert.rejects(
      withTenant(db, a.tenantId, (tx) => sql`delete from contacts where id = ${id}`.execute(tx)),
      /permission denied/,
    );
    await assert.rejects(
      withTenant(db, a.tenantId, (tx) =>
        sql`update contact_consents set status = 'withdrawn' where contact_id = ${id}`.execute(tx),
      ),
      /permission denied/,
    );
    await assert.rejects(
      withTenant(db, a.tenantId, (tx) =>
        sql`delete from contact_consents where contact_id = ${id}`.execute(tx),
      ),
      /permission denied/,
    );
    const still = await api({ method: 'GET', url: `/api/contacts/${id}/consent` });
    assert.equal(still.json().channels[1].latest.status, 'granted');
  });
});
