// What a page of bank lines could match, loaded once per page with set-based queries: the open
// invoices and bills whose due equals a line's amount, whose number appears in a line, or whose
// contact is named in one; and the entries already moving the bank account that no bank line
// has claimed. An invoice's or bill's due is its open item's balance on the control account.
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { money } from '../../platform/money/money.ts';

export interface CandidateLine {
  id: string;
  date: string;
  amount: string;
  description: string;
  reference: string | null;
  payee: string | null;
}

export interface OpenDoc {
  id: string;
  number: string;
  contactId: string;
  contactName: string;
  dueDate: string;
  due: string;
}

export interface Unclaimed {
  id: string;
  date: string;
  description: string;
  reference: string | null;
  moved: string;
}

/** A line's text, lower case: description, reference and payee. */
export const textOf = (l: CandidateLine) =>
  [l.description, l.reference ?? '', l.payee ?? ''].join(' \u0001 ').toLowerCase();

const LEGAL = /\b(pty|ltd|limited|cc|inc|proprietary)\b/g;

/** A name or text as words: lower case, punctuation and legal suffixes gone, spaced at both ends. */
export function words(s: string): string {
  const w = s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .replace(LEGAL, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return ` ${w} `;
}

/** Whether a contact's name (without its legal suffix) appears, as whole words, in a line's text. */
export const nameIn = (name: string, text: string) => {
  const key = words(name);
  return key.trim().length >= 3 && words(text).includes(key);
};

/** A document number without separators or case: INV-0042, inv 0042 and INV0042 are one. */
export const normalNumber = (s: string) => s.toUpperCase().replace(/[^A-Z0-9]/g, '');

/** The words of a text that could be a document number (letters and digits, at least one digit). */
export function numberTokens(text: string): string[] {
  const upper = text.toUpperCase();
  const found: string[] = upper.match(/[A-Z0-9][A-Z0-9/-]*[0-9][A-Z0-9/-]*/g) ?? [];
  // A prefix written apart from its digits ("INV 0003", "INV# 0003", "INV.0003") is the number
  // INV0003 too: people type a space where the document has a hyphen.
  for (const m of upper.matchAll(/\b([A-Z]{1,6})[\s.#:]+([0-9][A-Z0-9/-]*)/g)) found.push(`${m[1]}${m[2]}`);
  return found.map(normalNumber).filter((t) => t.length >= 2);
}

/**
 * The spellings a number named in a line may have in the books: as written (upper case), and with
 * a hyphen between its letters and digits (INV0042 → INV-0042), so that the documents' number
 * indexes find it without a regular expression per row.
 */
export function numberVariants(tokens: string[]): string[] {
  const out = new Set<string>();
  for (const t of tokens) {
    out.add(t);
    const m = /^([A-Z]+)([0-9].*)$/.exec(t);
    if (m) {
      out.add(`${m[1]}-${m[2]}`);
      out.add(`${m[1]}/${m[2]}`);
    }
  }
  return [...out];
}

export interface Candidates {
  invoices: OpenDoc[];
  bills: OpenDoc[];
  unclaimed: Unclaimed[];
}

export async function loadCandidates(
  db: Tx,
  tenantId: string,
  companyId: string,
  bankAccountId: string,
  lines: CandidateLine[],
): Promise<Candidates> {
  if (!lines.length) return { invoices: [], bills: [], unclaimed: [] };
  const texts = lines.map((l) => words(textOf(l)));
  const tokens = [...new Set(lines.flatMap((l) => numberTokens(textOf(l))))];
  const inAmounts = [
    ...new Set(lines.filter((l) => money(l.amount).isPositive()).map((l) => money(l.amount).toFixed(2))),
  ];
  const outAmounts = [
    ...new Set(
      lines.filter((l) => money(l.amount).isNegative()).map((l) => money(l.amount).abs().toFixed(2)),
    ),
  ];
  const signed = [...new Set(lines.map((l) => money(l.amount).toFixed(2)))];
  const named = await namedContacts(db, tenantId, texts);
  const invoices = inAmounts.length
    ? await openDocs(db, 'invoices', tenantId, companyId, inAmounts, tokens, named)
    : [];
  const bills = outAmounts.length
    ? await openDocs(db, 'bills', tenantId, companyId, outAmounts, tokens, named)
    : [];
  const dates = lines.map((l) => l.date).sort();
  const unclaimed = await sql<Unclaimed>`
    select e.id, e.date::text as date, e.description, e.reference, sum(l.debit - l.credit)::text as moved
      from journal_lines l
      join journal_entries e on e.tenant_id = l.tenant_id and e.id = l.entry_id
     where l.tenant_id = ${tenantId} and l.company_id = ${companyId} and l.account_id = ${bankAccountId}
       and l.date between (${dates[0]}::date - 90) and (${dates.at(-1)}::date + 30)
       and e.reverses_entry_id is null
       and not exists (select 1 from journal_entries r where r.tenant_id = e.tenant_id and r.reverses_entry_id = e.id)
       and not exists (select 1 from bank_match_items m where m.tenant_id = e.tenant_id
             and m.journal_entry_id = e.id and m.bank_account_id = ${bankAccountId} and m.undone_at is null)
       and not exists (select 1 from bank_accounts b where b.tenant_id = e.tenant_id and b.opening_entry_id = e.id)
     group by e.id, e.date, e.description, e.reference
    having sum(l.debit - l.credit) = any(${signed}::numeric[])`.execute(db);
  return { invoices, bills, unclaimed: unclaimed.rows };
}

/**
 * The contacts a text names, by their name without its legal suffix, as whole words (one query
 * for the page, apart from the documents' so that it runs once, not once per document).
 */
async function namedContacts(db: Tx, tenantId: string, texts: string[]): Promise<string[]> {
  // Matched here rather than in SQL: the tenant's names are few next to its documents, and
  // regular expressions per row cost more in the database than the rows cost to send.
  // Each name is looked for only in texts holding its first word (a map from first words to
  // names), not every name in every text: a statement of 250,000 lines against 1,000 customers
  // is 250,000 lookups, not 250 million comparisons.
  const rows = await db
    .selectFrom('contacts')
    .select(['id', 'name'])
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .execute();
  const byFirstWord = new Map<string, Array<{ id: string; key: string }>>();
  for (const c of rows) {
    const key = words(c.name);
    if (key.trim().length < 3) continue;
    const first = key.trim().split(' ')[0]!;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), { id: c.id, key }]);
  }
  const found = new Set<string>();
  for (const text of texts) {
    const t = words(text);
    for (const w of new Set(t.trim().split(' ')))
      for (const c of byFirstWord.get(w) ?? []) if (!found.has(c.id) && t.includes(c.key)) found.add(c.id);
  }
  return [...found];
}

/**
 * Open invoices (receivable) or approved bills with what is due on them, among those whose due
 * is one of the amounts, whose number is one of the tokens, or whose contact a text names.
 */
async function openDocs(
  db: Tx,
  kind: 'invoices' | 'bills',
  tenantId: string,
  companyId: string,
  amounts: string[],
  tokens: string[],
  named: string[],
): Promise<OpenDoc[]> {
  const inv = kind === 'invoices';
  const table = sql.table(kind);
  const numberCol = inv ? sql.ref('d.number') : sql.ref('d.bill_number');
  const control = inv ? 'debtors_control' : 'creditors_control';
  const statuses = inv ? ['open', 'partially_paid'] : ['approved', 'partially_paid'];
  // The due: a receivable's open item is a debit balance, a payable's a credit one.
  const due = inv ? sql`o.balance` : sql`-o.balance`;
  // The open items first (the control account's, by the partial index of open ones), narrowed
  // to those the page could match, then their documents by primary key: a plan that stays
  // small whatever the planner knows of the tables. A number is found by its key's index (0045).
  // The documents and contacts are joined laterally (limit 1 keeps the planner from flattening
  // them back into plain joins), one primary-key lookup per open item:
  // PGlite keeps no statistics, and with plain joins it scanned every invoice of the company
  // against the open items (10,000 × 946 comparisons, 2.9 s under EXPLAIN; 800 ms a page).
  const numberCol0 = inv ? sql.ref('number') : sql.ref('bill_number');
  const variants = numberVariants(tokens);
  const r = await sql<OpenDoc>`
    with ctl as (
      select id from accounts where tenant_id = ${tenantId} and company_id = ${companyId} and system_key = ${control}
    ), numbered as materialized (
      select id from ${table}
       where tenant_id = ${tenantId} and company_id = ${companyId} and ${numberCol0} = any(${variants}::text[])
    ), o as materialized (
      select o.item_id, o.balance from open_items o
       where o.tenant_id = ${tenantId} and o.company_id = ${companyId} and o.account_id = (select id from ctl)
         and o.balance <> 0 and (${due}) > 0
         and ((${due}) = any(${amounts}::numeric[]) or o.contact_id = any(${named}::uuid[])
              or o.item_id in (select id from numbered))
    )
    select d.id, ${numberCol} as number, d.contact_id as "contactId", c.name as "contactName",
           d.due_date::text as "dueDate", (${due})::text as due
      from o
     cross join lateral (select * from ${table} d where d.tenant_id = ${tenantId} and d.id = o.item_id limit 1) d
     cross join lateral (select name from contacts c where c.tenant_id = ${tenantId} and c.id = d.contact_id limit 1) c
     where d.company_id = ${companyId} and d.deleted_at is null
       and d.status = any(${statuses}::text[])
       ${inv ? sql`and d.document_type in ('invoice', 'debit_note')` : sql``}`.execute(db);
  return r.rows;
}

/**
 * The amounts due on the company's open invoices (money in) and bills (money out): a line whose
 * amount is none of them cannot be certain of anything, so reconciling an import by itself ranks
 * only the lines that could be (a statement of 250,000 card payments against a few open
 * invoices ranks a handful).
 */
export async function openDues(
  db: Tx,
  tenantId: string,
  companyId: string,
): Promise<{ in: Set<string>; out: Set<string> }> {
  const rows = await sql<{ key: string; due: string }>`
    select a.system_key as key, abs(o.balance)::text as due
      from accounts a
      join open_items o on o.tenant_id = a.tenant_id and o.company_id = a.company_id and o.account_id = a.id
     where a.tenant_id = ${tenantId} and a.company_id = ${companyId}
       and a.system_key in ('debtors_control', 'creditors_control')
       and ((a.system_key = 'debtors_control' and o.balance > 0) or (a.system_key = 'creditors_control' and o.balance < 0))
     group by 1, 2`.execute(db);
  const out = { in: new Set<string>(), out: new Set<string>() };
  for (const r of rows.rows) (r.key === 'debtors_control' ? out.in : out.out).add(money(r.due).toFixed(2));
  return out;
}
