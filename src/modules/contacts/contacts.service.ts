// Business rules for contacts: one book per tenant; types compared in any case; soft delete,
// refused while the ledger still shows something open for the contact; creditUsed read from
// the ledger's open items, never stored.
import { Decimal } from 'decimal.js';
import type { Static } from 'typebox';
import { emit } from '../../platform/events/outbox.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { type Page, pageOf, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import {
  type ContactSortKey,
  type ContactValues,
  debtorsBalances,
  findAnyContact,
  findContact,
  findContactName,
  hasOpenItems,
  insertContact,
  listContactRows,
  toContact,
  updateContactRow,
} from './contacts.queries.ts';
import {
  type ContactCreate,
  type ContactListQuery,
  type ContactUpdate,
  TEXT_FIELD_NAMES,
  type TextField,
} from './contacts.schemas.ts';
import { CONTACT_TYPES, type ContactType } from './contacts.tables.ts';

export type Contact = ReturnType<typeof toContact>;

/** Contacts are one book per tenant: their events belong to no company. */
export const CONTACT_CREATED = 'contact.created';
export const CONTACT_UPDATED = 'contact.updated';

const COLUMN_OF: Record<TextField, keyof ContactValues> = {
  tradingName: 'trading_name',
  email: 'email',
  phone: 'phone',
  mobile: 'mobile',
  vatNumber: 'vat_number',
  registrationNo: 'registration_no',
  addressLine1: 'address_line1',
  addressLine2: 'address_line2',
  city: 'city',
  province: 'province',
  postalCode: 'postal_code',
  country: 'country',
  postalAddressLine1: 'postal_address_line1',
  postalAddressLine2: 'postal_address_line2',
  postalCity: 'postal_city',
  postalProvince: 'postal_province',
  postalPostalCode: 'postal_postal_code',
  postalCountry: 'postal_country',
  notes: 'notes',
};

/** One of CONTACT_TYPES exactly (the schema's enum checks it first); else a 400 naming the field. */
export function contactTypeOf(value: string, field: string): ContactType {
  const found = CONTACT_TYPES.find((t) => t === value);
  if (!found) throw badRequest(field, `must be one of ${CONTACT_TYPES.join(', ')}`);
  return found;
}

function name(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest('name', 'must not be blank');
  return trimmed;
}

/** Trimmed; blank means not given (null). */
function textValue(value: string | null): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Trimmed, blanks dropped, repeats in any case kept once (the first spelling). */
function tagsOf(tags: string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    out.push(tag);
  }
  return out;
}

function creditLimitOf(value: number | null): string | null {
  if (value === null) return null;
  const d = new Decimal(value);
  if (d.decimalPlaces() > 2) throw badRequest('creditLimit', 'has more than two decimals');
  return d.toFixed(2);
}

type Input = Static<typeof ContactCreate> | Static<typeof ContactUpdate>;

/** The columns an input sets: only the fields it carries (PATCH semantics; null clears). */
function columnsOf(input: Input): ContactValues {
  const set: ContactValues = {};
  const record = set as Record<string, unknown>;
  if (input.contactType !== undefined) set.contact_type = contactTypeOf(input.contactType, 'contactType');
  if (input.name !== undefined) set.name = name(input.name);
  for (const field of TEXT_FIELD_NAMES) {
    const value = input[field];
    if (value !== undefined) record[COLUMN_OF[field]] = textValue(value);
  }
  if (input.currency !== undefined) set.currency = input.currency;
  if (input.creditLimit !== undefined) set.credit_limit = creditLimitOf(input.creditLimit);
  if (input.paymentTerms !== undefined) set.payment_terms = input.paymentTerms;
  if (input.isActive !== undefined) set.is_active = input.isActive;
  if (input.tags !== undefined) set.tags = tagsOf(input.tags);
  return set;
}

export async function getContact(ctx: Pick<TenantCtx, 'db' | 'tenantId'>, id: string): Promise<Contact> {
  const row = await findContact(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Contact');
  const balances = await debtorsBalances(ctx.db, ctx.tenantId, [id]);
  return toContact(row, balances.get(id));
}

/**
 * contact.updated with the contact as GET /api/contacts/{id} answers it, in the caller's
 * transaction; for a deleted contact, the same shape with deletedAt set (GET then answers 404).
 */
async function emitUpdated(ctx: TenantCtx, id: string): Promise<void> {
  const row = await findAnyContact(ctx.db, ctx.tenantId, id);
  if (!row) return;
  const balances = await debtorsBalances(ctx.db, ctx.tenantId, [id]);
  await emit(ctx, CONTACT_UPDATED, toContact(row, balances.get(id)), null);
}

/** A live contact's name, or undefined: for documents naming a contact (no balance read). */
export async function contactName(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  id: string,
): Promise<string | undefined> {
  return (await findContactName(ctx.db, ctx.tenantId, id))?.name;
}

export async function createContact(ctx: TenantCtx, input: Static<typeof ContactCreate>): Promise<Contact> {
  const columns = columnsOf(input);
  let created = false;
  const contact = await createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      created = await insertContact(
        ctx.db,
        ctx.tenantId,
        id,
        { ...columns, name: name(input.name), contact_type: columns.contact_type ?? 'CUSTOMER' },
        ctx.deps.now(),
      );
      if (!created && !(await findContact(ctx.db, ctx.tenantId, id))) {
        throw conflict('clientId: was the id of a contact that has since been deleted', {
          field: 'clientId',
        });
      }
      return created;
    },
    load: (id) => getContact(ctx, id),
  });
  // A replay (200) announces nothing: the contact was announced when it was made.
  if (created) await emit(ctx, CONTACT_CREATED, contact, null);
  return contact;
}

export async function updateContact(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof ContactUpdate>,
): Promise<Contact> {
  const columns = columnsOf(input);
  const updated = await updateContactRow(ctx.db, ctx.tenantId, id, {
    ...columns,
    updated_at: ctx.deps.now(),
  });
  if (!updated) throw notFound('Contact');
  const contact = await getContact(ctx, id);
  await emit(ctx, CONTACT_UPDATED, contact, null);
  return contact;
}

/** Soft delete; refused (409) while an invoice or bill of the contact is still open in the ledger. */
export async function deleteContact(ctx: TenantCtx, id: string): Promise<void> {
  if (!(await findContact(ctx.db, ctx.tenantId, id))) throw notFound('Contact');
  if (await hasOpenItems(ctx.db, ctx.tenantId, id)) {
    throw conflict(
      'The contact has open items in the ledger (something owed to or by them); settle them, or mark the contact inactive instead',
      { code: 'CONTACT_HAS_OPEN_ITEMS' },
    );
  }
  const now = ctx.deps.now();
  await updateContactRow(ctx.db, ctx.tenantId, id, { deleted_at: now, updated_at: now });
  await emitUpdated(ctx, id);
}

/**
 * Marks these contacts deleted (those not deleted already), without the open-items check: the
 * sandbox's delete uses it for its sample customers, whose open items go with its ledger.
 */
export async function retireContacts(ctx: TenantCtx, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const now = ctx.deps.now();
  const retired = await ctx.db
    .updateTable('contacts')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', 'in', ids)
    .where('deleted_at', 'is', null)
    .returning('id')
    .execute();
  for (const { id } of retired) await emitUpdated(ctx, id);
  return retired.length;
}

export async function listContacts(
  ctx: TenantCtx,
  query: Static<typeof ContactListQuery>,
): Promise<Page<Contact>> {
  const p = paging(query);
  const tags = query.tag ? tagsOf(query.tag).map((t) => t.toLowerCase()) : undefined;
  const q = query.q?.trim();
  const { rows, total } = await listContactRows(
    ctx.db,
    ctx.tenantId,
    {
      type: query.type === undefined ? undefined : contactTypeOf(query.type, 'type'),
      q: q || undefined,
      tags,
      isActive: query.isActive,
      updatedSince: query.updatedSince === undefined ? undefined : new Date(query.updatedSince),
    },
    sortOrder<ContactSortKey>(query.sort, 'name'),
    p,
  );
  const balances = await debtorsBalances(
    ctx.db,
    ctx.tenantId,
    rows.map((r) => r.id),
  );
  return pageOf(
    rows.map((r) => toContact(r, balances.get(r.id))),
    total,
    p,
  );
}
