// Who a campaign may reach on its channel now, read when asked (a withdrawal counts at once).
//
// A contact is reached only when the consent in force on the channel allows marketing (the
// contacts module's rule, mayMarket over consentsInForce: no second rule here). A lead has no
// consent history of its own: it is reached only when the channel is among the consent_channels
// it gave when captured; once converted, its contact decides. Either needs an address the
// channel can use, and a deleted lead or contact is reached by nothing. A person is reached
// once: a converted lead whose contact is in the campaign already is left out.

import type { Tx } from '../../platform/db/tenant.ts';
import type { ConsentChannel } from '../contacts/index.ts';
import {
  CHANNEL_LABELS,
  type ConsentRow,
  type ContactRow,
  consentsInForce,
  mayMarket,
} from '../contacts/index.ts';

export interface AudienceEntry {
  memberId: string;
  leadId: string | null;
  contactId: string | null;
  name: string;
  address: string | null;
}
export interface Audience {
  included: AudienceEntry[];
  excluded: (AudienceEntry & { reason: string })[];
}

const NO_ADDRESS: Record<ConsentChannel, string> = {
  email: 'No e-mail address',
  sms: 'No mobile or phone number',
  whatsapp: 'No mobile or phone number',
  phone: 'No phone number',
  post: 'No postal address',
};

/** The postal address if there is one, else the physical one, on one line. */
function postalOf(c: ContactRow): string | null {
  const lines = c.postal_address_line1
    ? [c.postal_address_line1, c.postal_address_line2, c.postal_city, c.postal_postal_code]
    : [c.address_line1, c.address_line2, c.city, c.postal_code];
  return lines[0] ? lines.filter(Boolean).join(', ') : null;
}

/** Where the channel reaches the contact: text messages go to a mobile first, calls to a landline first. */
function contactAddress(c: ContactRow, channel: ConsentChannel): string | null {
  if (channel === 'email') return c.email;
  if (channel === 'post') return postalOf(c);
  if (channel === 'phone') return c.phone ?? c.mobile;
  return c.mobile ?? c.phone;
}

interface LeadRow {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  phone_e164: string | null;
  consent_channels: string[];
  contact_id: string | null;
  converted_at: Date | null;
  deleted_at: Date | null;
}

/** A lead has a phone and an e-mail, no postal address. */
function leadAddress(l: LeadRow, channel: ConsentChannel): string | null {
  if (channel === 'email') return l.email;
  if (channel === 'post') return null;
  return l.phone_e164 ?? l.phone;
}

const day = (d: Date) => d.toISOString().slice(0, 10);

/** Why the consent in force does not allow marketing on the channel; undefined when it does. */
function consentReason(latest: ConsentRow | undefined, channel: ConsentChannel): string | undefined {
  if (mayMarket(latest)) return undefined;
  if (!latest) return `No consent recorded for ${CHANNEL_LABELS[channel]}`;
  const what = latest.status === 'withdrawn' ? 'withdrawn' : 'refused';
  return `Consent ${what} on ${day(latest.recorded_at)}`;
}

interface Member {
  id: string;
  lead_id: string | null;
  contact_id: string | null;
}

/** The campaign's members (removed ones left out), each included or excluded with its reason. */
export async function audienceOf(
  tx: Tx,
  tenantId: string,
  campaignId: string,
  channel: ConsentChannel,
): Promise<Audience> {
  const members: Member[] = await tx
    .selectFrom('crm_campaign_members')
    .select(['id', 'lead_id', 'contact_id'])
    .where('tenant_id', '=', tenantId)
    .where('campaign_id', '=', campaignId)
    .where('removed_at', 'is', null)
    .orderBy('added_at')
    .orderBy('id')
    .execute();
  const leadIds = members.flatMap((m) => (m.lead_id ? [m.lead_id] : []));
  const leads = new Map<string, LeadRow>();
  if (leadIds.length > 0) {
    const rows = await tx
      .selectFrom('crm_leads')
      .select([
        'id',
        'name',
        'email',
        'phone',
        'phone_e164',
        'consent_channels',
        'contact_id',
        'converted_at',
        'deleted_at',
      ])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', leadIds)
      .execute();
    for (const r of rows) leads.set(r.id, r);
  }
  const converted = (l: LeadRow | undefined) => (l?.converted_at && l.contact_id ? l.contact_id : null);
  const contactIds = [
    ...new Set([
      ...members.flatMap((m) => (m.contact_id ? [m.contact_id] : [])),
      ...[...leads.values()].flatMap((l) => (converted(l) ? [converted(l)!] : [])),
    ]),
  ];
  const contacts = new Map<string, ContactRow>();
  if (contactIds.length > 0) {
    const rows = await tx
      .selectFrom('contacts')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', contactIds)
      .execute();
    for (const r of rows) contacts.set(r.id, r);
  }
  const consents = await consentsInForce(tx, tenantId, contactIds, channel);
  const direct = new Set(members.flatMap((m) => (m.contact_id ? [m.contact_id] : [])));
  const reached = new Set<string>();

  const out: Audience = { included: [], excluded: [] };
  const decide = (entry: AudienceEntry, reason: string | undefined) => {
    if (reason) out.excluded.push({ ...entry, reason });
    else out.included.push(entry);
  };
  /** A contact, as a member or as a converted lead's contact. */
  const byContact = (member: Member, contactId: string, leadId: string | null) => {
    const c = contacts.get(contactId)!;
    const entry = {
      memberId: member.id,
      leadId,
      contactId,
      name: c.name,
      address: contactAddress(c, channel),
    };
    if (c.deleted_at) return decide(entry, 'Contact deleted');
    if (leadId && (direct.has(contactId) || reached.has(contactId)))
      return decide(entry, 'Converted to a contact that is in the campaign already');
    reached.add(contactId);
    decide(
      entry,
      consentReason(consents.get(contactId), channel) ?? (entry.address ? undefined : NO_ADDRESS[channel]),
    );
  };

  for (const m of members) {
    if (m.contact_id) {
      byContact(m, m.contact_id, null);
      continue;
    }
    const l = leads.get(m.lead_id!)!;
    const contactId = converted(l);
    if (contactId && !l.deleted_at) {
      byContact(m, contactId, l.id);
      continue;
    }
    const entry = {
      memberId: m.id,
      leadId: l.id,
      contactId: null,
      name: l.name,
      address: leadAddress(l, channel),
    };
    if (l.deleted_at) decide(entry, 'Lead deleted');
    else if (l.converted_at) decide(entry, 'Converted, but no contact is linked');
    else if (!l.consent_channels.includes(channel))
      decide(entry, `No consent recorded for ${CHANNEL_LABELS[channel]}`);
    else decide(entry, entry.address ? undefined : NO_ADDRESS[channel]);
  }
  return out;
}
