// Bank lines in: the one way a statement file or a bank feed adds bank transactions, so that
// neither adds anything twice, alone or together.
//
// A line is the nth occurrence of its date and amount in its account (its sequence). The
// account's posted lines are counted per date and amount; an incoming batch holding k lines
// of a date and amount the account already holds n times adds only its lines beyond n
// (sequences n+1 ... k), and says of the first n which line each one is. So the same file
// twice, an overlapping statement, or a file covering days the feed already brought add
// nothing, while two genuine identical lines of one day (two R50 coffees) are 1 and 2, kept.
// Ids the sources give (FITID, AcctSvcrRef, a feed's uuid) are kept but never merged on:
// banks reuse them, and the feed and a file name one line differently. Pending lines (a
// feed's provisional ones) are not counted: the feed supersedes them when they post.
import { sql } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps, TenantCtx } from '../../platform/http/context.ts';
import { money } from '../../platform/money/money.ts';
import type { BankTransactionsTable } from './banking.tables.ts';
import { afterIngest } from './ingest.hooks.ts';
import { PLAIN_AMOUNT } from './statements/amounts.ts';

/** One line as a statement or a feed reports it, already read and checked by its parser. */
export interface StatementLine {
  /** Its row in the source (1-based), for the answer's per-row report. */
  line?: number | undefined;
  /** YYYY-MM-DD: the booking (posting) date. */
  date: string;
  valueDate?: string | null | undefined;
  /** Signed, at most two decimals: + money in, - money out; never zero. */
  amount: string;
  description: string;
  reference?: string | null | undefined;
  payee?: string | null | undefined;
  externalId?: string | null | undefined;
  runningBalance?: string | null | undefined;
  /** A feed's provisional line: stored, not counted, superseded when it posts. */
  pending?: boolean | undefined;
}

export interface HeldLine {
  id: string;
  sequence: number;
  source: 'file' | 'feed';
  statementId: string | null;
  description: string;
}

export interface PlannedLine {
  line: StatementLine;
  outcome: 'new' | 'duplicate';
  /** The sequence a new line takes; for a duplicate, the one it is. */
  sequence: number;
  /** Why it is a duplicate, in words (the line held, where it came from). */
  reason?: string;
  /** The line already held that this one is. */
  duplicateOf?: HeldLine;
  /** A new line identical (date and amount) to an earlier one of the batch: kept, said so. */
  note?: string;
}

export interface IngestPlan {
  bankAccountId: string;
  lines: PlannedLine[];
  newCount: number;
  duplicateCount: number;
}

// An amount already in its one spelling is its own key; only others go through Decimal (a
// 50,000-line file, 50,000 times).
const keyOf = (date: string, amount: string) =>
  `${date}|${PLAIN_AMOUNT.test(amount) ? amount : money(amount).toFixed(2)}`;

function ordinal(n: number): string {
  const s = ['th', 'st', 'nd', 'rd'];
  const v = n % 100;
  return `${n}${s[(v - 20) % 10] ?? s[v] ?? s[0]}`;
}

/**
 * What adding these lines would do, without writing: the preview's answer, and (under the
 * account's lock, lockBankAccount) what writeIngest then writes.
 */
export async function planIngest(
  db: Tx,
  tenantId: string,
  bankAccountId: string,
  lines: readonly StatementLine[],
): Promise<IngestPlan> {
  const counted = lines.filter((l) => !l.pending);
  const held = new Map<string, HeldLine[]>();
  if (counted.length) {
    let from = counted[0]!.date;
    let to = from;
    for (const l of counted) {
      if (l.date < from) from = l.date;
      if (l.date > to) to = l.date;
    }
    const rows = await db
      .selectFrom('bank_transactions')
      .select(['id', 'date', 'amount', 'sequence', 'source', 'statement_id', 'description'])
      .where('tenant_id', '=', tenantId)
      .where('bank_account_id', '=', bankAccountId)
      .where('date', '>=', from)
      .where('date', '<=', to)
      .where('pending', '=', false)
      .where('superseded_at', 'is', null)
      .orderBy('sequence')
      .execute();
    for (const r of rows) {
      const k = keyOf(r.date, r.amount);
      const list = held.get(k) ?? [];
      list.push({
        id: r.id,
        sequence: r.sequence,
        source: r.source,
        statementId: r.statement_id,
        description: r.description,
      });
      held.set(k, list);
    }
  }
  const seen = new Map<string, { count: number; firstLine: number | undefined }>();
  const planned: PlannedLine[] = [];
  let newCount = 0;
  for (const line of lines) {
    if (line.pending) {
      planned.push({ line, outcome: 'new', sequence: 1 });
      newCount++;
      continue;
    }
    const k = keyOf(line.date, line.amount);
    const s = seen.get(k) ?? { count: 0, firstLine: line.line };
    s.count++;
    seen.set(k, s);
    const already = held.get(k) ?? [];
    const same = already[s.count - 1];
    if (same) {
      const from = same.source === 'feed' ? 'the bank feed' : 'an earlier statement';
      planned.push({
        line,
        outcome: 'duplicate',
        sequence: same.sequence,
        duplicateOf: same,
        reason:
          `the account already holds ${already.length} line(s) of ${money(line.amount).toFixed(2)} on ${line.date}; ` +
          `this is the ${ordinal(s.count)} of them in this file (from ${from}: "${same.description}")`,
      });
      continue;
    }
    const last = already.at(-1)?.sequence ?? 0;
    const p: PlannedLine = { line, outcome: 'new', sequence: last + (s.count - already.length) };
    if (s.count > 1)
      p.note =
        `identical date and amount to line ${s.firstLine ?? '?'}: kept as the ${ordinal(s.count)} of that day, ` +
        'not merged';
    planned.push(p);
    newCount++;
  }
  return { bankAccountId, lines: planned, newCount, duplicateCount: planned.length - newCount };
}

/**
 * Holds the bank account for the rest of the transaction: one import or feed sync at a time
 * per account, so that two of them never both find a line new.
 */
export async function lockBankAccount(db: Tx, tenantId: string, bankAccountId: string): Promise<void> {
  await sql`select 1 from bank_accounts where tenant_id = ${tenantId} and id = ${bankAccountId} for update`.execute(
    db,
  );
}

export interface IngestOrigin {
  tenantId: string;
  companyId: string;
  /** The process's dependencies, and who imports: reconciling what is certain acts as them. */
  deps: AppDeps;
  /** A person or key (a statement uploaded), or the system (a scheduled feed sync). */
  principal: TenantCtx['principal'] | { type: 'system' };
  source: 'file' | 'feed';
  statementId?: string | null;
  /** Columns of the source's own (the feed's id), per line. */
  columns?: (line: StatementLine) => Partial<BankTransactionsTable>;
}

/** Rows a single INSERT carries (PostgreSQL allows 65,535 parameters; a row takes 16). */
const CHUNK = 2000;

// The columns every line has, with their types: sent as one array each through unnest (17
// parameters a statement, whatever the rows), which PostgreSQL binds far faster than a
// multi-row VALUES of 17 parameters a row.
const ARRAY_COLUMNS = [
  ['tenant_id', 'uuid'],
  ['id', 'uuid'],
  ['company_id', 'uuid'],
  ['bank_account_id', 'uuid'],
  ['date', 'date'],
  ['value_date', 'date'],
  ['amount', 'numeric'],
  ['description', 'text'],
  ['reference', 'text'],
  ['payee', 'text'],
  ['external_id', 'text'],
  ['running_balance', 'numeric'],
  ['source', 'text'],
  ['statement_id', 'uuid'],
  ['source_line', 'int4'],
  ['sequence', 'int4'],
  ['pending', 'bool'],
] as const;
const UNNEST_CHUNK = 10_000;

async function insertByArrays(db: Tx, rows: Array<Record<string, unknown>>): Promise<void> {
  for (let i = 0; i < rows.length; i += UNNEST_CHUNK) {
    const chunk = rows.slice(i, i + UNNEST_CHUNK);
    const arrays = ARRAY_COLUMNS.map(
      ([name, type]) => sql`${chunk.map((r) => r[name] ?? null)}::${sql.raw(type)}[]`,
    );
    await sql`insert into bank_transactions (${sql.join(ARRAY_COLUMNS.map(([n]) => sql.ref(n)))})
      select * from unnest(${sql.join(arrays)})`.execute(db);
  }
}

/**
 * Writes the plan's new lines (planned under lockBankAccount, in the same transaction), then
 * runs what follows every import: the bank rules, and reconciling what is certain. Answers the
 * new lines' ids, in the plan's order.
 */
export async function writeIngest(db: Tx, plan: IngestPlan, origin: IngestOrigin): Promise<string[]> {
  const rows = plan.lines
    .filter((p) => p.outcome === 'new')
    .map((p) => ({
      tenant_id: origin.tenantId,
      id: crypto.randomUUID(),
      company_id: origin.companyId,
      bank_account_id: plan.bankAccountId,
      date: p.line.date,
      value_date: p.line.valueDate ?? null,
      amount: money(p.line.amount).toFixed(2),
      description: p.line.description,
      reference: p.line.reference ?? null,
      payee: p.line.payee ?? null,
      external_id: p.line.externalId ?? null,
      running_balance: p.line.runningBalance == null ? null : money(p.line.runningBalance).toFixed(2),
      source: origin.source,
      statement_id: origin.statementId ?? null,
      source_line: p.line.line ?? null,
      sequence: p.sequence,
      pending: p.line.pending ?? false,
      ...origin.columns?.(p.line),
    }));
  // Lines with columns of their source's own (the feed's) go as rows; a file's, as arrays.
  if (origin.columns)
    for (let i = 0; i < rows.length; i += CHUNK)
      await db
        .insertInto('bank_transactions')
        .values(rows.slice(i, i + CHUNK) as never)
        .execute();
  else await insertByArrays(db, rows);
  const ids = rows.map((r) => r.id);
  // Rules and reconciling are for lines the bank has posted: a pending one may yet change.
  const posted = rows.filter((r) => !r.pending).map((r) => r.id);
  if (posted.length)
    await afterIngest(
      {
        db,
        tenantId: origin.tenantId,
        companyId: origin.companyId,
        deps: origin.deps,
        principal: origin.principal,
      },
      plan.bankAccountId,
      posted,
    );
  return ids;
}
