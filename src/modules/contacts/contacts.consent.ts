// Marketing consent per contact and channel (POPIA section 69: direct marketing by electronic
// communication needs the person's consent). Every change is a new record; the latest record
// of a channel is the one in force, and only a latest `granted` allows marketing on it. A
// channel with no record may not be marketed on (opt-in, never opt-out).
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import { type ConsentRow, consentHistory, findContact, insertConsent } from './contacts.queries.ts';
import type { Consent, ConsentRecord } from './contacts.schemas.ts';
import {
  CONSENT_CHANNELS,
  type ConsentChannel,
  type ConsentMethod,
  type ConsentStatus,
} from './contacts.tables.ts';

export const CHANNEL_LABELS: Record<ConsentChannel, string> = {
  email: 'E-mail',
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  phone: 'Phone call',
  post: 'Post',
};

export const STATUS_LABELS: Record<ConsentStatus, string> = {
  granted: 'Consent given',
  refused: 'Consent refused',
  withdrawn: 'Consent withdrawn',
};

export const METHOD_LABELS: Record<ConsentMethod, string> = {
  verbal: 'Verbally (in person or by phone)',
  written: 'In writing (signed form or letter)',
  web_form: 'Web form',
  email: 'By e-mail',
  sms_reply: 'By SMS reply',
  existing_customer: 'Existing customer (POPIA s69(3))',
  imported: 'Imported from another system',
  other: 'Other',
};

export const NOT_MARKETING =
  'Invoices, quotes, statements, payment reminders, receipts and other messages about business the ' +
  'contact already has with us are not direct marketing: they are sent whatever these consents say. ' +
  'The consents govern marketing only.';

/** The rule: only a latest record of `granted` allows marketing on its channel (none: no). */
export function mayMarket(latest: { status: ConsentStatus } | null | undefined): boolean {
  return latest?.status === 'granted';
}

type ConsentBody = Static<typeof Consent>;
type HistoryEntry = ConsentBody['history'][number];

function entryOf(row: ConsentRow): HistoryEntry {
  return {
    id: row.id,
    channel: row.channel,
    channelLabel: CHANNEL_LABELS[row.channel],
    status: row.status,
    statusLabel: STATUS_LABELS[row.status],
    method: row.method,
    methodLabel: METHOD_LABELS[row.method],
    note: row.note,
    recordedBy: row.recorded_by_name,
    recordedAt: row.recorded_at.toISOString(),
  };
}

export async function getConsent(ctx: TenantCtx, contactId: string): Promise<ConsentBody> {
  if (!(await findContact(ctx.db, ctx.tenantId, contactId))) throw notFound('Contact');
  const history = (await consentHistory(ctx.db, ctx.tenantId, contactId)).map(entryOf);
  return {
    contactId,
    notMarketing: NOT_MARKETING,
    channels: CONSENT_CHANNELS.map((channel) => {
      // history is newest first: the first of a channel is the one in force
      const latest = history.find((h) => h.channel === channel) ?? null;
      return { channel, label: CHANNEL_LABELS[channel], mayMarket: mayMarket(latest), latest };
    }),
    history,
  };
}

export async function recordConsent(
  ctx: TenantCtx,
  contactId: string,
  input: Static<typeof ConsentRecord>,
): Promise<ConsentBody> {
  if (!(await findContact(ctx.db, ctx.tenantId, contactId))) throw notFound('Contact');
  const now = ctx.deps.now();
  const recordedAt = input.recordedAt ? new Date(input.recordedAt) : now;
  if (Number.isNaN(recordedAt.getTime())) throw badRequest('recordedAt', 'is not a valid timestamp');
  if (recordedAt.getTime() > now.getTime() + 60_000)
    throw badRequest('recordedAt', 'must not be in the future');
  const p = ctx.principal;
  await insertConsent(ctx.db, {
    tenant_id: ctx.tenantId,
    id: crypto.randomUUID(),
    contact_id: contactId,
    channel: input.channel,
    status: input.status,
    method: input.method,
    note: input.note?.trim() || null,
    recorded_by_type: p.type === 'api_key' ? 'api_key' : 'user',
    recorded_by: p.type === 'api_key' ? p.keyId : p.userId,
    recorded_by_name: p.name,
    recorded_at: recordedAt,
  });
  ctx.reply.code(201);
  return getConsent(ctx, contactId);
}
