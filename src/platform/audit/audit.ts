// The audit log: who did what to which record, when. Written in the same transaction as
// the change. Secrets never enter it: values under secret-like keys are replaced.
import type { CompiledQuery } from 'kysely';
import type { Tx } from '../db/tenant.ts';

export interface AuditEntry {
  actorType: 'user' | 'api_key' | 'system' | 'anonymous';
  actorId: string | null;
  action: string;
  resource: string;
  resourceId?: string | null;
  companyId?: string | null;
  requestId?: string | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

// account_number / accountNumber: bank account numbers are kept sealed (src/platform/secrets),
// so the log must not hold them in clear either.
const SECRET_KEY =
  /pass(word)?|secret|token|totp|otp|code|key|hash|authorization|cookie|signature|account_?number|investec_?client_?id/i;

/** Text longer than this (an uploaded image in base64) is noted by its length, not kept. */
export const AUDIT_TEXT_LIMIT = 4096;

/**
 * Copies a value with every secret-like field replaced by "[redacted]", and text longer than
 * AUDIT_TEXT_LIMIT by a note of its length.
 */
export function redact(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (typeof value === 'string' && value.length > AUDIT_TEXT_LIMIT)
    return `[${value.length} characters, not kept]`;
  // A file body (an uploaded receipt) is noted by its size.
  if (value instanceof Uint8Array) return `[${value.byteLength} bytes, not kept]`;
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => redact(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      out[k] = SECRET_KEY.test(k) ? '[redacted]' : redact(v, depth + 1);
    }
    return out;
  }
  return value;
}

/**
 * The shape of a body without its values: payroll writes carry pay, ID and tax numbers, and the
 * audit log is read with admin:read, which a role without payroll may hold ("only people with the
 * payroll permission see pay", issue 21). Who changed which field stays; what it was set to, not.
 */
export function fieldsOnly(value: unknown, depth = 0): unknown {
  if (depth > 6) return '[…]';
  if (Array.isArray(value)) return value.slice(0, 50).map((v) => fieldsOnly(v, depth + 1));
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = fieldsOnly(v, depth + 1);
    return out;
  }
  return value === null || value === undefined ? value : '[payroll]';
}

/** The INSERT of an audit entry, to send later (with COMMIT, see the catalogue's write routes). */
export function auditStatement(tx: Tx, tenantId: string, entry: AuditEntry): CompiledQuery {
  return tx
    .insertInto('audit_log')
    .values({
      tenant_id: tenantId,
      id: crypto.randomUUID(),
      actor_type: entry.actorType,
      actor_id: entry.actorId,
      action: entry.action,
      resource: entry.resource,
      resource_id: entry.resourceId ?? null,
      company_id: entry.companyId ?? null,
      request_id: entry.requestId ?? null,
      ip: entry.ip ?? null,
      details: JSON.stringify(redact(entry.details ?? {})),
    })
    .compile();
}

export async function recordAudit(tx: Tx, tenantId: string, entry: AuditEntry): Promise<void> {
  await tx.executeQuery(auditStatement(tx, tenantId, entry));
}
