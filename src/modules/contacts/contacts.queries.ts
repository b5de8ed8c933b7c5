// SQL of the contacts module; every function takes the tenant transaction and the tenant id.
import { Decimal } from 'decimal.js';
import { type Insertable, type Selectable, sql, type Updateable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { Paging } from '../../platform/http/paging.ts';
import type { SortOrder } from '../../platform/http/sync.ts';
import type { ContactConsentsTable, ContactsTable, ContactType } from './contacts.tables.ts';

export type ContactRow = Selectable<ContactsTable>;
export type ConsentRow = Selectable<ContactConsentsTable>;

/** The ledger role of the accounts a contact's balance sits on. */
export type ControlAccount = 'debtors_control' | 'creditors_control';

/** Money from the database (a decimal string) as a JSON number, to the cent. */
export function money(value: string | number | null | undefined): number {
  return new Decimal(value ?? 0).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toNumber();
}

export function toContact(row: ContactRow, creditUsed: string | undefined) {
  return {
    id: row.id,
    tenantId: row.tenant_id,
    contactType: row.contact_type,
    name: row.name,
    tradingName: row.trading_name,
    email: row.email,
    phone: row.phone,
    mobile: row.mobile,
    vatNumber: row.vat_number,
    registrationNo: row.registration_no,
    addressLine1: row.address_line1,
    addressLine2: row.address_line2,
    city: row.city,
    province: row.province,
    postalCode: row.postal_code,
    country: row.country,
    postalAddressLine1: row.postal_address_line1,
    postalAddressLine2: row.postal_address_line2,
    postalCity: row.postal_city,
    postalProvince: row.postal_province,
    postalPostalCode: row.postal_postal_code,
    postalCountry: row.postal_country,
    currency: row.currency,
    notes: row.notes,
    creditLimit: row.credit_limit === null ? null : money(row.credit_limit),
    creditUsed: money(creditUsed),
    paymentTerms: row.payment_terms,
    isActive: row.is_active,
    tags: row.tags,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at === null ? null : row.deleted_at.toISOString(),
  };
}

/** A live (not deleted) contact. */
export function findContact(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('contacts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** A live contact's name only. */
export function findContactName(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('contacts')
    .select('name')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

/** The contact, deleted or not: what a sync (and an event) tells of a deleted one. */
export function findAnyContact(tx: Tx, tenantId: string, id: string) {
  return tx
    .selectFrom('contacts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** Whether the id was ever used, deleted or not. */
export async function contactIdTaken(tx: Tx, tenantId: string, id: string): Promise<boolean> {
  const r = await tx
    .selectFrom('contacts')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .executeTakeFirst();
  return r !== undefined;
}

/** The columns a create or a change may set. */
export type ContactValues = Omit<
  Updateable<ContactsTable>,
  'tenant_id' | 'id' | 'created_at' | 'updated_at' | 'deleted_at'
>;

/** Inserts with ON CONFLICT DO NOTHING on (tenant_id, id); true when the row is new. */
export async function insertContact(
  tx: Tx,
  tenantId: string,
  id: string,
  values: ContactValues & Pick<Insertable<ContactsTable>, 'name' | 'contact_type'>,
  now: Date,
): Promise<boolean> {
  const r = await tx
    .insertInto('contacts')
    .values({ ...values, tenant_id: tenantId, id, created_at: now, updated_at: now })
    .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
    .executeTakeFirst();
  return Number(r.numInsertedOrUpdatedRows) === 1;
}

export async function updateContactRow(
  tx: Tx,
  tenantId: string,
  id: string,
  set: ContactValues & { updated_at?: Date; deleted_at?: Date },
): Promise<boolean> {
  const r = await tx
    .updateTable('contacts')
    .set(set)
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

export interface ContactFilter {
  type?: ContactType | undefined;
  q?: string | undefined;
  /** lower case */
  tags?: string[] | undefined;
  isActive?: boolean | undefined;
  /** Changed at or after this instant; deleted contacts are then included. */
  updatedSince?: Date | undefined;
}

/** The list's orders: by name (the default), or by a timestamp; ties by id either way. */
export type ContactSortKey = 'name' | 'updatedAt' | 'createdAt';

const SORT_COLUMN = { updatedAt: 'updated_at', createdAt: 'created_at' } as const;

function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * One page of contacts in the order asked (ties by id, in the same direction), and how many
 * match in all. Live contacts only, unless updatedSince asks for changes: a delete is a change.
 */
export async function listContactRows(
  tx: Tx,
  tenantId: string,
  filter: ContactFilter,
  order: SortOrder<ContactSortKey>,
  p: Paging,
): Promise<{ rows: ContactRow[]; total: number }> {
  let q = tx.selectFrom('contacts').where('tenant_id', '=', tenantId);
  if (filter.updatedSince) q = q.where('updated_at', '>=', filter.updatedSince);
  else q = q.where('deleted_at', 'is', null);
  if (filter.type) q = q.where('contact_type', '=', filter.type);
  if (filter.isActive !== undefined) q = q.where('is_active', '=', filter.isActive);
  if (filter.q) {
    const pattern = likePattern(filter.q);
    q = q.where((eb) =>
      eb.or([
        eb('name', 'ilike', pattern),
        eb('trading_name', 'ilike', pattern),
        eb('email', 'ilike', pattern),
        eb('phone', 'ilike', pattern),
        eb('vat_number', 'ilike', pattern),
      ]),
    );
  }
  if (filter.tags?.length) {
    const wanted = sql`array[${sql.join(filter.tags)}]::text[]`;
    q = q.where(sql<boolean>`array(select lower(t) from unnest(tags) as t) @> ${wanted}`);
  }
  const count = await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const dir = order.direction;
  const sorted =
    order.key === 'name'
      ? q.selectAll().orderBy(sql`lower(name)`, dir)
      : q.selectAll().orderBy(SORT_COLUMN[order.key], dir);
  const rows = await sorted.orderBy('id', dir).limit(p.limit).offset(p.offset).execute();
  return { rows, total: Number(count.n) };
}

/**
 * creditUsed of each contact: the sum of its open items' balances on the debtors control
 * accounts of every live company of the tenant (decimal strings; absent: nothing owed). A
 * deleted company (a deleted sandbox) no longer counts.
 */
export async function debtorsBalances(tx: Tx, tenantId: string, contactIds: string[]) {
  const out = new Map<string, string>();
  if (contactIds.length === 0) return out;
  const rows = await tx
    .selectFrom('open_items as o')
    .innerJoin('accounts as a', (j) =>
      j
        .onRef('a.tenant_id', '=', 'o.tenant_id')
        .onRef('a.company_id', '=', 'o.company_id')
        .onRef('a.id', '=', 'o.account_id'),
    )
    .innerJoin('companies as co', (j) =>
      j.onRef('co.tenant_id', '=', 'o.tenant_id').onRef('co.id', '=', 'o.company_id'),
    )
    .select(['o.contact_id', (eb) => eb.fn.sum<string>('o.balance').as('balance')])
    .where('o.tenant_id', '=', tenantId)
    .where('o.contact_id', 'in', contactIds)
    .where('a.system_key', '=', 'debtors_control')
    .where('co.deleted_at', 'is', null)
    .groupBy('o.contact_id')
    .execute();
  for (const r of rows) if (r.contact_id) out.set(r.contact_id, String(r.balance));
  return out;
}

/** Whether the contact has an item not settled on any receivable or payable account of a live company. */
export async function hasOpenItems(tx: Tx, tenantId: string, contactId: string): Promise<boolean> {
  const r = await tx
    .selectFrom('open_items as o')
    .innerJoin('companies as co', (j) =>
      j.onRef('co.tenant_id', '=', 'o.tenant_id').onRef('co.id', '=', 'o.company_id'),
    )
    .select('o.item_id')
    .where('o.tenant_id', '=', tenantId)
    .where('o.contact_id', '=', contactId)
    .where('o.balance', '<>', '0')
    .where('co.deleted_at', 'is', null)
    .limit(1)
    .executeTakeFirst();
  return r !== undefined;
}

// Consent

export async function insertConsent(tx: Tx, values: Insertable<ContactConsentsTable>) {
  await tx.insertInto('contact_consents').values(values).execute();
}

/** Every consent record of the contact, newest first (later record first on a tie). */
export function consentHistory(tx: Tx, tenantId: string, contactId: string) {
  return tx
    .selectFrom('contact_consents')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('contact_id', '=', contactId)
    .orderBy('recorded_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/**
 * The record in force on one channel for each of the contacts: each one's latest, in the order
 * consentHistory reads them (a contact with none is absent). For lists such as a campaign's
 * audience, read when asked so that a withdrawal counts at once.
 */
export async function consentsInForce(
  tx: Tx,
  tenantId: string,
  contactIds: string[],
  channel: ConsentRow['channel'],
): Promise<Map<string, ConsentRow>> {
  if (contactIds.length === 0) return new Map();
  const rows = await tx
    .selectFrom('contact_consents')
    .selectAll()
    .distinctOn('contact_id')
    .where('tenant_id', '=', tenantId)
    .where('contact_id', 'in', contactIds)
    .where('channel', '=', channel)
    .orderBy('contact_id')
    .orderBy('recorded_at', 'desc')
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return new Map(rows.map((r) => [r.contact_id, r]));
}

// Aged debtors and creditors

export interface AgedSums {
  contact_id: string | null;
  contact_name: string | null;
  current: string;
  days30: string;
  days60: string;
  days90: string;
  days120: string;
  older: string;
  unapplied: string;
  total: string;
}

/**
 * Per contact, the open items of the control account as of the end of `asOf`, in buckets by
 * days past due (due date, else the item's first date). An item's amount as of asOf is its
 * lines dated on or before asOf; an item whose last line is on or before asOf is its open
 * balance as kept (no lines read), and one settled by then is skipped without reading lines.
 * Amounts are debit minus credit (the caller turns creditors around). An item on the other side
 * of what the contact owes (a credit balance on debtors control: a credit note or an overpayment
 * not applied; a debit balance on creditors: a supplier's credit note, a bill overpaid) is
 * unapplied credit: summed apart, in no bucket (issue 34, item 20), since its age says nothing of
 * how late a payment is. Rows with any open item. Live companies only: a deleted company's (a
 * deleted sandbox's) books no longer count.
 */
export async function agedSums(
  tx: Tx,
  tenantId: string,
  account: ControlAccount,
  asOf: string,
  companyId: string | undefined,
): Promise<AgedSums[]> {
  const company = companyId ? sql`and o.company_id = ${companyId}` : sql``;
  const day = sql`${asOf}::date`;
  // Owed: a debit balance on debtors, a credit balance on creditors.
  const owed = account === 'creditors_control' ? sql`i.amount < 0` : sql`i.amount > 0`;
  const credit = account === 'creditors_control' ? sql`i.amount > 0` : sql`i.amount < 0`;
  const r = await sql<AgedSums>`
    with items as (
      select o.contact_id,
             ${day} - coalesce(o.due_date, o.first_date) as days_past_due,
             case when o.last_date <= ${day} then o.balance
                  else (select coalesce(sum(l.debit - l.credit), 0)
                          from journal_lines l
                         where l.tenant_id = o.tenant_id and l.company_id = o.company_id
                           and l.account_id = o.account_id and l.date <= ${day}
                           and (l.open_item_id = o.item_id
                                or (l.open_item_id is null and l.entry_id = o.item_id)))
             end as amount
        from open_items o
        join accounts a on a.tenant_id = o.tenant_id and a.company_id = o.company_id and a.id = o.account_id
        join companies co on co.tenant_id = o.tenant_id and co.id = o.company_id and co.deleted_at is null
       where o.tenant_id = ${tenantId}
         and a.system_key = ${account}
         and o.first_date <= ${day}
         and not (o.balance = 0 and o.last_date <= ${day})
         ${company}
    )
    select i.contact_id, c.name as contact_name,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due <= 0), 0)::text as current,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due between 1 and 30), 0)::text as days30,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due between 31 and 60), 0)::text as days60,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due between 61 and 90), 0)::text as days90,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due between 91 and 120), 0)::text as days120,
           coalesce(sum(i.amount) filter (where ${owed} and i.days_past_due > 120), 0)::text as older,
           coalesce(sum(i.amount) filter (where ${credit}), 0)::text as unapplied,
           sum(i.amount)::text as total
      from items i
      left join contacts c on c.tenant_id = ${tenantId} and c.id = i.contact_id
     group by i.contact_id, c.name
    having bool_or(i.amount <> 0)
     order by lower(c.name) nulls last, i.contact_id`.execute(tx);
  return r.rows;
}

export async function companyExists(tx: Tx, tenantId: string, companyId: string): Promise<boolean> {
  const r = await tx
    .selectFrom('companies')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  return r !== undefined;
}
