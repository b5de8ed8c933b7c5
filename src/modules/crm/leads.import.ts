// POST /api/crm/leads/import: a CSV of leads, de-duplicated on the lower-cased e-mail, then the
// E.164 phone (then, for a row with neither, the name and company) against the live leads and
// the file's earlier rows. A row that matches adds what the lead lacked (updated) or nothing
// (duplicate); the rest are created, in batches, stamped with the import's record. The preview
// runs the very same code up to the writes, so its counts are the real run's. Two imports of one
// tenant run one after the other (an advisory lock), so the same file twice adds nothing.
import { sql } from 'kysely';
import { decodeTextOf } from '../../platform/files/decode-text.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, HttpError } from '../../platform/http/problem.ts';
import { type ImportField, type ImportRow, type RowError, readLeadRows } from './leads.import.parse.ts';
import type { LeadInsert, LeadRow, LeadValues } from './leads.queries.ts';

/** Rows per INSERT: 13 columns each, well under PostgreSQL's 65,535 parameters. */
const BATCH = 1000;

interface Candidate {
  /** the live lead matched, or undefined for one this file creates */
  existing?: LeadRow;
  values: {
    company_name: string | null;
    email: string | null;
    phone: string | null;
    phone_e164: string | null;
    source: string | null;
    notes: string | null;
    estimated_value: string | null;
    tags: string[];
  };
  name: string;
  changed: boolean;
}

export interface ImportResult {
  importId: string | null;
  preview: boolean;
  encoding: string;
  rows: number;
  created: number;
  updated: number;
  duplicates: number;
  errors: RowError[];
}

const emailKey = (e: string | null) => (e ? e.trim().toLowerCase() : null);
const nameKey = (name: string, company: string | null) =>
  `${name.trim().toLowerCase()}\u0000${(company ?? '').trim().toLowerCase()}`;

/** The live leads any row could match, by one query per key (an index each). */
async function liveMatches(ctx: TenantCtx, rows: ImportRow[]): Promise<LeadRow[]> {
  const emails = [...new Set(rows.map((r) => emailKey(r.email)).filter((e): e is string => e !== null))];
  const phones = [...new Set(rows.map((r) => r.phoneE164).filter((p): p is string => p !== null))];
  const names = [...new Set(rows.filter((r) => !r.email && !r.phoneE164).map((r) => r.name.toLowerCase()))];
  const live = () =>
    ctx.db
      .selectFrom('crm_leads')
      .selectAll()
      .where('tenant_id', '=', ctx.tenantId)
      .where('deleted_at', 'is', null);
  const found = new Map<string, LeadRow>();
  if (emails.length)
    for (const r of await live().where('email_key', '=', sql<string>`any(${emails}::text[])`).execute())
      found.set(r.id, r);
  if (phones.length)
    for (const r of await live().where('phone_e164', '=', sql<string>`any(${phones}::text[])`).execute())
      found.set(r.id, r);
  if (names.length)
    for (const r of await live()
      .where('email', 'is', null)
      .where('phone_e164', 'is', null)
      .where(sql<string>`lower(btrim(name))`, '=', sql<string>`any(${names}::text[])`)
      .execute())
      found.set(r.id, r);
  // Oldest first: where two live leads share a key, the first one made is the one matched.
  return [...found.values()].sort((a, b) => a.created_at.getTime() - b.created_at.getTime());
}

/** What the row adds to the candidate: empty fields filled, tags it lacked. True when anything. */
function merge(c: Candidate, r: ImportRow): boolean {
  const v = c.values;
  let added = false;
  const fill = <K extends keyof Candidate['values']>(key: K, value: Candidate['values'][K]) => {
    if (v[key] === null && value !== null) {
      v[key] = value;
      added = true;
    }
  };
  fill('company_name', r.companyName);
  fill('email', r.email);
  if (v.phone_e164 === null && r.phoneE164 !== null) {
    v.phone = r.phone;
    v.phone_e164 = r.phoneE164;
    added = true;
  }
  fill('source', r.source);
  fill('notes', r.notes);
  fill('estimated_value', r.estimatedValue);
  const have = new Set(v.tags.map((t) => t.toLowerCase()));
  for (const tag of r.tags)
    if (!have.has(tag.toLowerCase())) {
      v.tags = [...v.tags, tag];
      have.add(tag.toLowerCase());
      added = true;
    }
  return added;
}

/** Every row matched, merged or made a candidate, in file order; the counts of the run. */
function plan(rows: ImportRow[], live: LeadRow[]) {
  const byEmail = new Map<string, Candidate>();
  const byPhone = new Map<string, Candidate>();
  const byName = new Map<string, Candidate>();
  const index = (c: Candidate) => {
    const e = emailKey(c.values.email);
    if (e && !byEmail.has(e)) byEmail.set(e, c);
    if (c.values.phone_e164 && !byPhone.has(c.values.phone_e164)) byPhone.set(c.values.phone_e164, c);
    if (!e && !c.values.phone_e164) {
      const n = nameKey(c.name, c.values.company_name);
      if (!byName.has(n)) byName.set(n, c);
    }
  };
  for (const l of live)
    index({
      existing: l,
      name: l.name,
      changed: false,
      values: {
        company_name: l.company_name,
        email: l.email,
        phone: l.phone,
        phone_e164: l.phone_e164,
        source: l.source,
        notes: l.notes,
        estimated_value: l.estimated_value,
        tags: [...l.tags],
      },
    });
  const fresh: Candidate[] = [];
  let updated = 0;
  let duplicates = 0;
  for (const r of rows) {
    const e = emailKey(r.email);
    const match =
      (e ? byEmail.get(e) : undefined) ??
      (r.phoneE164 ? byPhone.get(r.phoneE164) : undefined) ??
      (!e && !r.phoneE164 ? byName.get(nameKey(r.name, r.companyName)) : undefined);
    if (match) {
      if (merge(match, r)) {
        match.changed = true;
        updated++;
        index(match);
      } else duplicates++;
      continue;
    }
    const c: Candidate = {
      name: r.name,
      changed: false,
      values: {
        company_name: r.companyName,
        email: r.email,
        phone: r.phone,
        phone_e164: r.phoneE164,
        source: r.source,
        notes: r.notes,
        estimated_value: r.estimatedValue,
        tags: r.tags,
      },
    };
    fresh.push(c);
    index(c);
  }
  return {
    fresh,
    changed: [...byEmail.values(), ...byPhone.values(), ...byName.values()],
    updated,
    duplicates,
  };
}

export interface ImportOptions {
  preview: boolean;
  fileName?: string | undefined;
  columns: Partial<Record<ImportField, string>>;
}

export async function importLeads(ctx: TenantCtx, body: unknown, opts: ImportOptions): Promise<ImportResult> {
  // A JSON body is parsed before the route sees it: not a file, whatever it holds.
  if (!Buffer.isBuffer(body))
    throw new HttpError(415, 'Send the CSV file itself as the body, Content-Type text/csv', {
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  if (body.length === 0) throw badRequest('body', 'the CSV file is empty');
  const { text, encoding } = decodeTextOf(body);
  const { rows, good, errors } = readLeadRows(text, opts.columns);
  // One import of a tenant at a time, before the live leads are read: a second import of the
  // same file waits, then finds every lead the first made.
  if (!opts.preview)
    await sql`select pg_advisory_xact_lock(hashtext(${`crm_lead_imports:${ctx.tenantId}`}))`.execute(ctx.db);
  const p = plan(good, await liveMatches(ctx, good));
  const result: ImportResult = {
    importId: null,
    preview: opts.preview,
    encoding,
    rows,
    created: p.fresh.length,
    updated: p.updated,
    duplicates: p.duplicates,
    errors,
  };
  if (opts.preview) return result;

  const importId = crypto.randomUUID();
  const by = ctx.principal;
  await ctx.db
    .insertInto('crm_lead_imports')
    .values({
      tenant_id: ctx.tenantId,
      id: importId,
      file_name: opts.fileName?.trim() || null,
      encoding,
      row_count: rows,
      created_count: result.created,
      updated_count: result.updated,
      duplicate_count: result.duplicates,
      error_count: new Set(errors.map((e) => e.row)).size,
      errors: JSON.stringify(errors),
      imported_by: by.type === 'api_key' ? by.keyId : by.userId,
    })
    .execute();
  for (let i = 0; i < p.fresh.length; i += BATCH) {
    const values: LeadInsert[] = p.fresh.slice(i, i + BATCH).map((c) => ({
      tenant_id: ctx.tenantId,
      id: crypto.randomUUID(),
      name: c.name,
      ...c.values,
      import_id: importId,
    }));
    await ctx.db.insertInto('crm_leads').values(values).execute();
  }
  // Leads that were there before and gained something: one update each (a candidate is in
  // up to three maps: once).
  const seen = new Set<string>();
  for (const c of p.changed) {
    if (!c.existing || !c.changed || seen.has(c.existing.id)) continue;
    seen.add(c.existing.id);
    const set: LeadValues = { ...c.values };
    await ctx.db
      .updateTable('crm_leads')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', c.existing.id)
      .execute();
  }
  return { ...result, importId };
}
