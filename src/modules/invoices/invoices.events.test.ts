// The events integrators sync sales documents by: invoice.created, invoice.updated,
// invoice.released, invoice.voided and payment.recorded (besides invoice.paid), each emitted
// once, in the transaction of its change, with the document as GET /api/invoices/{id} answers
// it (a payment as it is answered), valid against the schema the OpenAPI webhooks name.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { invoiceEvents } from './index.ts';
import { createDoc, pay, release, released, type Sales, salesSetup } from './invoices.factories.ts';

let t: TestApp;
before(async () => {
  // Jobs are sent, never run: deliveries are queued and stay so.
  t = await startTestApp({ config: { webhookAllowPrivateTargets: true }, jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
});
after(() => t.close());

interface Event {
  id: string;
  type: string;
  company_id: string | null;
  data: { id: string; invoiceId?: string; [k: string]: unknown };
}

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormats as unknown as (a: Ajv) => void)(ajv);
const validators = new Map(invoiceEvents.map((e) => [e.type as string, ajv.compile(e.data)]));

/** Reads the tenant's events; `take()` answers those emitted since it was last called. */
function outbox(b: Registered) {
  const seen = new Set<string>();
  return async function take(): Promise<Event[]> {
    const rows = (await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('events')
        .select(['id', 'type', 'company_id', 'data'])
        .where('tenant_id', '=', b.tenantId)
        .execute(),
    )) as Event[];
    // This module's events (others', a contact's, may come with the set-up).
    const fresh = rows.filter(
      (r) => !seen.has(r.id) && (r.type.startsWith('invoice.') || r.type.startsWith('payment.')),
    );
    for (const r of fresh) {
      seen.add(r.id);
      // Every one: the company's, of a known type of the invoices module, its data valid.
      assert.equal(r.company_id, b.companyId);
      assert.equal(invoiceEvents.find((e) => e.type === r.type)?.module, 'invoices', r.type);
      const valid = validators.get(r.type);
      assert.ok(valid, `a schema for ${r.type}`);
      assert.ok(valid(r.data), `${r.type}: ${JSON.stringify(valid.errors)}`);
    }
    return fresh;
  };
}

/** The types of the events, sorted, each with the id of its document (a payment: its invoice). */
const summary = (events: Event[]) =>
  events.map((e) => `${e.type} ${e.type === 'payment.recorded' ? e.data.invoiceId : e.data.id}`).sort();

async function setup() {
  const b = await register(t.app, { plan: 'business' });
  const s = await salesSetup(t, b);
  return { b, s, take: outbox(b) };
}

const get = async (s: Sales, id: string) =>
  (await s.api({ method: 'GET', url: `/api/invoices/${id}` })).json();

describe('document events', () => {
  test('create, edit, release, payments, void: each once, the document as GET answers it', async () => {
    const { b, s, take } = await setup();
    await take(); // whatever the set-up made (nothing of the invoices module)
    const draft = await createDoc(s);
    let events = await take();
    assert.deepEqual(summary(events), [`invoice.created ${draft.id}`]);
    assert.deepEqual(events[0]!.data, draft);
    assert.deepEqual(events[0]!.data, await get(s, draft.id));

    const edited = await s.api({
      method: 'PATCH',
      url: `/api/invoices/${draft.id}`,
      payload: { reference: 'PO 1234' },
    });
    assert.equal(edited.statusCode, 200, edited.body);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${draft.id}`]);
    assert.deepEqual(events[0]!.data, edited.json());
    assert.equal(events[0]!.data.reference, 'PO 1234');

    const open = await release(s, draft.id);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.released ${draft.id}`]);
    assert.deepEqual(events[0]!.data, open);
    assert.deepEqual(events[0]!.data, await get(s, draft.id));

    const part = await pay(s, draft.id, 100);
    assert.equal(part.statusCode, 201, part.body);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${draft.id}`, `payment.recorded ${draft.id}`]);
    const byType = new Map(events.map((e) => [e.type, e.data]));
    assert.deepEqual(byType.get('payment.recorded'), part.json());
    assert.deepEqual(byType.get('invoice.updated'), await get(s, draft.id));
    assert.equal(byType.get('invoice.updated')!.amountDue, 1049.99);

    const rest = await pay(s, draft.id, 1049.99);
    assert.equal(rest.statusCode, 201, rest.body);
    events = await take();
    assert.deepEqual(summary(events), [
      `invoice.paid ${draft.id}`,
      `invoice.updated ${draft.id}`,
      `payment.recorded ${draft.id}`,
    ]);
    const paid = await get(s, draft.id);
    for (const e of events.filter((x) => x.type !== 'payment.recorded')) assert.deepEqual(e.data, paid);
    assert.equal(paid.status, 'paid');

    // A repeated clientId answers the first payment and emits nothing.
    const clientId = crypto.randomUUID();
    const other = await released(s);
    await take();
    const once = await s.api({
      method: 'POST',
      url: `/api/invoices/${other.id}/payments`,
      payload: { clientId, amount: 10, date: '2026-03-10' },
    });
    assert.equal(once.statusCode, 201, once.body);
    assert.equal((await take()).length, 2);
    const again = await s.api({
      method: 'POST',
      url: `/api/invoices/${other.id}/payments`,
      payload: { clientId, amount: 10, date: '2026-03-10' },
    });
    assert.equal(again.statusCode, 200, again.body);
    assert.deepEqual(await take(), []);

    // A payment reversed: the invoice is due again (invoice.updated).
    const reversed = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${other.id}/payments/${once.json().id}`,
    });
    assert.equal(reversed.statusCode, 200, reversed.body);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${other.id}`]);
    assert.equal(events[0]!.data.status, 'open');

    const voided = await s.api({ method: 'DELETE', url: `/api/invoices/${other.id}` });
    assert.equal(voided.statusCode, 200, voided.body);
    events = await take();
    // A released invoice is voided by a credit note (VAT Act s21): the credit note is created
    // and released (as any credit note is announced), then the invoice is voided, naming it.
    const note = voided.json().voidedByCreditNoteId;
    assert.ok(note);
    assert.deepEqual(summary(events), [
      `invoice.created ${note}`,
      `invoice.released ${note}`,
      `invoice.voided ${other.id}`,
    ]);
    assert.equal(events[1]!.data.documentType, 'credit_note');
    assert.equal(events[1]!.data.creditedDocumentId, other.id);
    assert.deepEqual(events[2]!.data, voided.json());
    assert.equal(events[2]!.data.status, 'void');
    assert.equal(b.companyId, events[2]!.data.companyId);
  });

  test('quotes: accepted, declined and converted; a deleted draft; a send', async () => {
    const { s, take } = await setup();
    const quote = await createDoc(s, { documentType: 'quote' });
    const other = await createDoc(s, { documentType: 'quote' });
    await take();
    const accepted = await s.api({ method: 'POST', url: `/api/invoices/${quote.id}/accept` });
    let events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${quote.id}`]);
    assert.deepEqual(events[0]!.data, accepted.json());
    assert.equal(events[0]!.data.status, 'accepted');
    const declined = await s.api({ method: 'POST', url: `/api/invoices/${other.id}/decline` });
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${other.id}`]);
    assert.deepEqual(events[0]!.data, declined.json());

    const converted = await s.api({
      method: 'POST',
      url: `/api/invoices/${quote.id}/convert`,
      payload: { documentType: 'invoice' },
    });
    assert.equal(converted.statusCode, 201, converted.body);
    const invoice = converted.json();
    assert.equal(invoice.convertedFromId, quote.id);
    events = await take();
    assert.deepEqual(
      summary(events),
      [`invoice.created ${invoice.id}`, `invoice.updated ${quote.id}`].sort(),
    );
    const byType = new Map(events.map((e) => [e.type, e.data]));
    assert.deepEqual(byType.get('invoice.created'), await get(s, invoice.id));
    assert.deepEqual(byType.get('invoice.updated'), await get(s, quote.id));
    assert.equal(byType.get('invoice.updated')!.status, 'converted');

    // A deleted draft: its last state, deletedAt set (GET answers 404 from then on).
    const deleted = await s.api({ method: 'DELETE', url: `/api/invoices/${invoice.id}` });
    assert.equal(deleted.statusCode, 204);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${invoice.id}`]);
    assert.ok(events[0]!.data.deletedAt);
    assert.equal(events[0]!.data.status, 'draft');

    // A send sets sentAt: announced.
    const sendable = await released(s);
    await take();
    const sent = await s.api({ method: 'POST', url: `/api/invoices/${sendable.id}/send`, payload: {} });
    assert.equal(sent.statusCode, 202, sent.body);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${sendable.id}`]);
    assert.equal(events[0]!.data.sentAt, sent.json().sentAt);
    assert.deepEqual(events[0]!.data, await get(s, sendable.id));
  });

  test('a credit note applied and unapplied: both documents announced', async () => {
    const { s, take } = await setup();
    const invoice = await released(s);
    const note = await released(s, {
      documentType: 'credit_note',
      lines: [{ description: 'Returned', quantity: 1, unitPrice: 100 }],
    });
    await take();
    const applied = await s.api({
      method: 'POST',
      url: `/api/invoices/${invoice.id}/allocations`,
      payload: { sourceId: note.id },
    });
    assert.equal(applied.statusCode, 201, applied.body);
    let events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${invoice.id}`, `invoice.updated ${note.id}`].sort());
    for (const e of events) assert.deepEqual(e.data, await get(s, e.data.id));
    const undone = await s.api({
      method: 'DELETE',
      url: `/api/invoices/${invoice.id}/allocations/${applied.json().id}`,
    });
    assert.equal(undone.statusCode, 200, undone.body);
    events = await take();
    assert.deepEqual(summary(events), [`invoice.updated ${invoice.id}`, `invoice.updated ${note.id}`].sort());
    assert.equal(events.find((e) => e.data.id === invoice.id)!.data.amountCredited, 0);

    // A credit note released against its invoice: released, and the invoice updated.
    const applying = await createDoc(s, {
      documentType: 'credit_note',
      creditedInvoiceId: invoice.id,
      lines: [{ description: 'Discount', quantity: 1, unitPrice: 10 }],
    });
    await take();
    await release(s, applying.id);
    events = await take();
    assert.deepEqual(
      summary(events),
      [`invoice.released ${applying.id}`, `invoice.updated ${invoice.id}`].sort(),
    );
    for (const e of events) assert.deepEqual(e.data, await get(s, e.data.id));
  });

  test('a webhook subscribed to invoice.created gets a delivery once the event has committed', async () => {
    const { b, s, take } = await setup();
    const hook = await s.api({
      method: 'POST',
      url: '/api/webhooks',
      payload: { url: 'http://127.0.0.1:9/created', eventTypes: ['invoice.created'] },
    });
    assert.equal(hook.statusCode, 201, hook.body);
    const draft = await createDoc(s);
    const [created] = await take();
    assert.equal(created!.data.id, draft.id);
    await release(s, draft.id);
    await t.drainEvents();
    const deliveries = await withTenant(t.database.db, b.tenantId, (tx) =>
      tx
        .selectFrom('webhook_deliveries')
        .select(['event_id', 'event_type', 'webhook_id'])
        .where('tenant_id', '=', b.tenantId)
        .execute(),
    );
    // One delivery, of the created event only: the release is not subscribed.
    assert.deepEqual(deliveries, [
      { event_id: created!.id, event_type: 'invoice.created', webhook_id: hook.json().id },
    ]);
  });
});

test('every event type of the module has its data schema, and nothing else does', () => {
  for (const e of invoiceEvents) assert.equal(e.module, 'invoices', e.type);
  assert.deepEqual(invoiceEvents.map((e) => e.type).sort(), [
    'customer_credit.created',
    'invoice.created',
    'invoice.paid',
    'invoice.released',
    'invoice.updated',
    'invoice.voided',
    'payment.recorded',
    'refund.recorded',
  ]);
});
