// SQL of leads and the record in API shape; the checks every way in shares (by hand, PATCH,
// /external/leads): trimmed text, the phone read into E.164, the owner a user of the tenant.
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { hasAtMostDecimals, toSql } from '../../platform/money/money.ts';
import type { CrmLeadsTable } from './crm.tables.ts';
import { isEmail, phoneE164 } from './leads.phone.ts';
import type { ConsentChannel } from './leads.schemas.ts';

export type LeadRow = Selectable<CrmLeadsTable>;
export type LeadValues = Updateable<CrmLeadsTable>;
export type LeadInsert = Insertable<CrmLeadsTable>;

export function toLead(row: LeadRow) {
  return {
    id: row.id,
    name: row.name,
    companyName: row.company_name,
    email: row.email,
    phone: row.phone,
    phoneE164: row.phone_e164,
    source: row.source,
    status: row.status,
    ownerId: row.owner_id,
    estimatedValue: row.estimated_value === null ? null : Number(row.estimated_value),
    notes: row.notes,
    externalRef: row.external_ref,
    tags: row.tags,
    consentChannels: row.consent_channels as ConsentChannel[],
    contactId: row.contact_id,
    opportunityId: row.opportunity_id,
    convertedAt: row.converted_at?.toISOString() ?? null,
    importId: row.import_id,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}

export type Lead = ReturnType<typeof toLead>;

/** A live lead (not deleted), locked when it is about to change. */
export function findLead(tx: Tx, tenantId: string, id: string, lock = false) {
  const q = tx
    .selectFrom('crm_leads')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

/** Trimmed; blank means none. */
export function textOf(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed === '' ? null : trimmed;
}

/** Trimmed, blanks dropped, repeats in any case kept once (the first spelling). */
export function tagsOf(tags: readonly string[]): string[] {
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

export function emailOf(value: string | null | undefined, field = 'email'): string | null {
  const e = textOf(value);
  if (e !== null && !isEmail(e)) throw badRequest(field, 'is not an e-mail address');
  return e;
}

/** The phone as given and in E.164; an unreadable number is a 400 naming the field. */
export function phoneOf(value: string | null | undefined, field = 'phone') {
  const phone = textOf(value);
  if (phone === null) return { phone: null, phone_e164: null };
  const e164 = phoneE164(phone);
  if (!e164)
    throw badRequest(field, `"${phone}" is not a phone number (a South African one, or +country code)`);
  return { phone, phone_e164: e164 };
}

export function amountOf(value: number | null | undefined, field = 'estimatedValue'): string | null {
  if (value === null || value === undefined) return null;
  if (!hasAtMostDecimals(value, 2)) throw badRequest(field, 'has more than two decimals');
  return toSql(value);
}

export interface LeadFields {
  name?: string;
  companyName?: string | null;
  email?: string | null;
  phone?: string | null;
  source?: string | null;
  status?: string;
  ownerId?: string | null;
  estimatedValue?: number | null;
  notes?: string | null;
  externalRef?: string | null;
  tags?: string[];
  consentChannels?: string[];
}

/** The columns a body sets: only the fields it carries (PATCH semantics; null clears). */
export function columnsOf(input: LeadFields): LeadValues {
  const set: LeadValues = {};
  if (input.name !== undefined) {
    const n = textOf(input.name);
    if (n === null) throw badRequest('name', 'must not be blank');
    set.name = n;
  }
  if (input.companyName !== undefined) set.company_name = textOf(input.companyName);
  if (input.email !== undefined) set.email = emailOf(input.email);
  if (input.phone !== undefined) Object.assign(set, phoneOf(input.phone));
  if (input.source !== undefined) set.source = textOf(input.source);
  if (input.ownerId !== undefined) set.owner_id = input.ownerId;
  if (input.estimatedValue !== undefined) set.estimated_value = amountOf(input.estimatedValue);
  if (input.notes !== undefined) set.notes = textOf(input.notes);
  if (input.externalRef !== undefined) set.external_ref = textOf(input.externalRef);
  if (input.tags !== undefined) set.tags = tagsOf(input.tags);
  if (input.consentChannels !== undefined) set.consent_channels = [...new Set(input.consentChannels)];
  return set;
}
