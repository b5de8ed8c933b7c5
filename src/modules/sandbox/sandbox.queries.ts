// SQL of the sandbox module: the live sandbox, its samples, and the records outside it that
// point into it. The last reads the other modules' tables in one place, so that the whole rule
// "nothing outside may point in" can be read (and tested) here; a module that adds a reference
// to contacts, products, invoices or companies adds its clause here (sandbox.test.ts lists
// every such foreign key and fails on one not accounted for).
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';

/** The tenant's live sandbox company, if any. */
export function findSandbox(tx: Tx, tenantId: string) {
  return tx
    .selectFrom('companies')
    .select(['id'])
    .where('tenant_id', '=', tenantId)
    .where('is_sandbox', '=', true)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

export type SampleKind = 'contact' | 'product' | 'invoice';

export async function insertSamples(
  tx: Tx,
  tenantId: string,
  companyId: string,
  samples: Array<{ kind: SampleKind; id: string }>,
) {
  await tx
    .insertInto('sandbox_samples')
    .values(
      samples.map((s, i) => ({
        tenant_id: tenantId,
        id: crypto.randomUUID(),
        company_id: companyId,
        contact_id: s.kind === 'contact' ? s.id : null,
        product_id: s.kind === 'product' ? s.id : null,
        invoice_id: s.kind === 'invoice' ? s.id : null,
        position: i + 1,
      })),
    )
    .execute();
}

export interface Samples {
  contactIds: string[];
  productIds: string[];
  invoiceIds: string[];
}

/** The sandbox's samples, in the order made: every one, or only those not deleted since. */
export async function samplesOf(
  tx: Tx,
  tenantId: string,
  companyId: string,
  live: boolean,
): Promise<Samples> {
  const r = await sql<{ contact_id: string | null; product_id: string | null; invoice_id: string | null }>`
    select s.contact_id, s.product_id, s.invoice_id
      from sandbox_samples s
      left join contacts c on c.tenant_id = s.tenant_id and c.id = s.contact_id
      left join products p on p.tenant_id = s.tenant_id and p.id = s.product_id
      left join invoices i on i.tenant_id = s.tenant_id and i.id = s.invoice_id
     where s.tenant_id = ${tenantId} and s.company_id = ${companyId}
       and (${!live} or coalesce(c.deleted_at, p.deleted_at, i.deleted_at) is null)
     order by s.position`.execute(tx);
  const out: Samples = { contactIds: [], productIds: [], invoiceIds: [] };
  for (const row of r.rows) {
    if (row.contact_id) out.contactIds.push(row.contact_id);
    if (row.product_id) out.productIds.push(row.product_id);
    if (row.invoice_id) out.invoiceIds.push(row.invoice_id);
  }
  return out;
}

export interface BlockingRecord {
  type: 'invoice' | 'journal_entry' | 'recurring_invoice' | 'api_key' | 'bill' | 'purchase_order' | 'company';
  id: string;
  description: string;
}

/** At most this many blocking records are named (each kind is read up to it). */
export const MAX_BLOCKING = 100;

const DOCUMENT_LABEL = sql`initcap(replace(i.document_type, '_', ' '))`;

/**
 * Records outside the sandbox (in the tenant's other live companies, or tenant-wide) that
 * point at a record of the sandbox: its company, its documents, its sample customers. Every
 * sample customer counts, also one deleted since. The sample products are referred to by
 * nothing yet (no document line or stock record names a product on this branch).
 *
 * Only records still in force block: history does not. A void document, a journal entry that
 * has been reversed (and its reversal), a revoked key and a deleted record keep naming the
 * sample record, which stays in the database with a deleted marker, so their history still
 * reads; as with deleting a contact. That is also how a user clears the way: void the
 * document, reverse the journal, revoke the key, move the company.
 */
export async function blockingRecords(
  tx: Tx,
  tenantId: string,
  sandboxId: string,
): Promise<BlockingRecord[]> {
  const sampleContacts = sql`(select s.contact_id from sandbox_samples s
     where s.tenant_id = ${tenantId} and s.company_id = ${sandboxId} and s.contact_id is not null)`;
  const out: BlockingRecord[] = [];

  // Sales documents of another company, not void (nor the credit note a void issued), for a
  // sample customer, or crediting or converted from a document of the sandbox.
  const documents = await sql<{
    id: string;
    label: string;
    number: string;
    company: string;
    contact: string;
    for_sample: boolean;
  }>`
    select i.id, ${DOCUMENT_LABEL} as label, i.number, co.name as company, c.name as contact,
           i.contact_id in ${sampleContacts} as for_sample
      from invoices i
      join companies co on co.tenant_id = i.tenant_id and co.id = i.company_id and co.deleted_at is null
      join contacts c on c.tenant_id = i.tenant_id and c.id = i.contact_id
     where i.tenant_id = ${tenantId} and i.company_id <> ${sandboxId}
       and i.deleted_at is null and i.status <> 'void'
       -- the credit note a void issued is history with its void invoice
       and not exists (select 1 from invoices v
                        where v.tenant_id = i.tenant_id and v.voided_by_credit_note_id = i.id)
       and (i.contact_id in ${sampleContacts}
            or exists (select 1 from invoices si
                        where si.tenant_id = i.tenant_id and si.company_id = ${sandboxId}
                          and si.id in (i.credited_invoice_id, i.converted_from_id)))
     order by co.name, i.issue_date, i.number
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const d of documents.rows) {
    out.push({
      type: 'invoice',
      id: d.id,
      description: d.for_sample
        ? `${d.label} ${d.number} of ${d.company} is for the sandbox's customer ${d.contact}`
        : `${d.label} ${d.number} of ${d.company} refers to a document of the sandbox`,
    });
  }

  // Journal entries of another company, neither reversed nor a reversal, with a line naming a
  // sample customer (a manual journal, say). Entries that a sales document or a payment on one
  // posted are named by the document (or, once it is void, are history).
  const entries = await sql<{
    id: string;
    date: string;
    description: string;
    company: string;
    contacts: string;
  }>`
    select e.id, e.date::text as date, e.description, co.name as company,
           string_agg(distinct c.name, ', ') as contacts
      from journal_lines l
      join journal_entries e on e.tenant_id = l.tenant_id and e.id = l.entry_id
      join companies co on co.tenant_id = l.tenant_id and co.id = l.company_id and co.deleted_at is null
      join contacts c on c.tenant_id = l.tenant_id and c.id = l.contact_id
     where l.tenant_id = ${tenantId} and l.company_id <> ${sandboxId}
       and l.contact_id in ${sampleContacts}
       and e.reverses_entry_id is null
       and not exists (select 1 from journal_entries r
                        where r.tenant_id = e.tenant_id and r.reverses_entry_id = e.id)
       and not exists (select 1 from invoices i where i.tenant_id = e.tenant_id and i.id = e.source_id)
       and not exists (select 1 from invoice_payments p where p.tenant_id = e.tenant_id and p.id = e.source_id)
     group by e.id, e.date, e.description, co.name
     order by e.date, e.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const e of entries.rows) {
    out.push({
      type: 'journal_entry',
      id: e.id,
      description: `Journal entry "${e.description}" of ${e.company} on ${e.date} names the sandbox's customer ${e.contacts}`,
    });
  }

  // API keys, not revoked, bound to a sample customer.
  const keys = await sql<{ id: string; name: string; contact: string }>`
    select k.id, k.name, c.name as contact
      from api_keys k
      join contacts c on c.tenant_id = k.tenant_id and c.id = k.contact_id
     where k.tenant_id = ${tenantId} and k.revoked_at is null and k.contact_id in ${sampleContacts}
     order by k.created_at, k.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const k of keys.rows) {
    out.push({
      type: 'api_key',
      id: k.id,
      description: `API key "${k.name}" is bound to the sandbox's customer ${k.contact}`,
    });
  }

  // Recurring schedules of another company, not deleted (a paused one may resume), for a
  // sample customer: their next run would make a document for it.
  const schedules = await sql<{ id: string; company: string; contact: string; frequency: string }>`
    select r.id, co.name as company, c.name as contact, r.frequency
      from recurring_invoices r
      join companies co on co.tenant_id = r.tenant_id and co.id = r.company_id and co.deleted_at is null
      join contacts c on c.tenant_id = r.tenant_id and c.id = r.contact_id
     where r.tenant_id = ${tenantId} and r.company_id <> ${sandboxId}
       and r.deleted_at is null and r.contact_id in ${sampleContacts}
     order by co.name, r.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const r of schedules.rows) {
    out.push({
      type: 'recurring_invoice',
      id: r.id,
      description: `A ${r.frequency} recurring invoice of ${r.company} is for the sandbox's customer ${r.contact}`,
    });
  }

  // Supplier bills of another company, neither void nor rejected nor deleted, from a sample
  // contact (one made a supplier since): a live bill, or a recurring one's next run, names it.
  const bills = await sql<{ id: string; bill_number: string; company: string; contact: string }>`
    select b.id, b.bill_number, co.name as company, c.name as contact
      from bills b
      join companies co on co.tenant_id = b.tenant_id and co.id = b.company_id and co.deleted_at is null
      join contacts c on c.tenant_id = b.tenant_id and c.id = b.contact_id
     where b.tenant_id = ${tenantId} and b.company_id <> ${sandboxId}
       and b.deleted_at is null and b.status not in ('void', 'rejected')
       and b.contact_id in ${sampleContacts}
     order by co.name, b.issue_date, b.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const b of bills.rows) {
    out.push({
      type: 'bill',
      id: b.id,
      description: `Bill ${b.bill_number} of ${b.company} is from the sandbox's contact ${b.contact}`,
    });
  }

  // Purchase orders of another company, not deleted and still open (neither cancelled nor billed),
  // to a sample contact: goods are still to come from it, or to be billed.
  const orders = await sql<{ id: string; number: string; company: string; contact: string }>`
    select o.id, o.number, co.name as company, c.name as contact
      from purchase_orders o
      join companies co on co.tenant_id = o.tenant_id and co.id = o.company_id and co.deleted_at is null
      join contacts c on c.tenant_id = o.tenant_id and c.id = o.contact_id
     where o.tenant_id = ${tenantId} and o.company_id <> ${sandboxId}
       and o.deleted_at is null and o.status not in ('cancelled', 'billed')
       and o.contact_id in ${sampleContacts}
     order by co.name, o.issue_date, o.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const o of orders.rows) {
    out.push({
      type: 'purchase_order',
      id: o.id,
      description: `Purchase order ${o.number} of ${o.company} is to the sandbox's contact ${o.contact}`,
    });
  }

  // Companies that have the sandbox as their parent.
  const children = await sql<{ id: string; name: string }>`
    select c.id, c.name from companies c
     where c.tenant_id = ${tenantId} and c.parent_id = ${sandboxId} and c.deleted_at is null
     order by c.name, c.id
     limit ${MAX_BLOCKING}`.execute(tx);
  for (const c of children.rows) {
    out.push({ type: 'company', id: c.id, description: `Company ${c.name} has the sandbox as its parent` });
  }
  return out.slice(0, MAX_BLOCKING);
}
