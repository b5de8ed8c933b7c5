// POST /api/bank-statements: a statement file read, checked and (unless a preview) written as one
// statement, through ingest (planIngest, then writeIngest under the account's lock), so that
// the preview is exactly what the write then does and nothing is added twice. A file's
// statements each go to the account they name (bank-statements.accounts.ts); a file that gives
// no line is refused whole (422) and recorded nowhere, so that the same file read right later
// (with a mapping) is not "already imported".

import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import { BUSINESS_TIME_ZONE } from '../../platform/dates/zone.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { HttpError, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import { assertBankAccount, type BankAccount } from './bank-accounts.service.ts';
import { csvMappingFor } from './bank-csv-mappings.service.ts';
import { type AccountFacts, sortStatements } from './bank-statements.accounts.ts';
import { type FileFacts, report, SHOWN } from './bank-statements.report.ts';
import type { BankStatementsQuery, BankStatementUpload } from './bank-statements.schemas.ts';
import type { BankStatementsTable } from './banking.tables.ts';
import { lockBankAccount, planIngest, writeIngest } from './ingest.ts';
import { profileOrder } from './statements/csv-layouts.ts';
import { CSV_PROFILES, type CsvProfile } from './statements/csv-profiles.ts';
import { type Parsed, type ParseOptions, parseStatement } from './statements/detect.ts';
import { type ParsedStatement, UnreadableStatement } from './statements/types.ts';

type Upload = Static<typeof BankStatementUpload>;

const isProfile = (bank: string): bank is CsvProfile => (CSV_PROFILES as readonly string[]).includes(bank);

/** How to read the file: a saved mapping, the profile named, or every bank's (the account's bank's first). */
async function readOptions(ctx: TenantCtx, input: Upload, account: BankAccount): Promise<ParseOptions> {
  const options: ParseOptions = { format: input.format, timeZone: BUSINESS_TIME_ZONE };
  if (input.mappingId) options.mapping = await csvMappingFor(ctx, input.mappingId);
  else
    options.profiles = input.profile
      ? [input.profile]
      : profileOrder(isProfile(account.bank) ? account.bank : undefined);
  return options;
}

function read(bytes: Uint8Array, options: ParseOptions): Parsed {
  try {
    return parseStatement(bytes, options);
  } catch (err) {
    if (err instanceof UnreadableStatement) {
      // The members the OpenAPI declares (the Problem schema); a reader's other details stay in.
      const { columnsFound, suggestedMapping } = err.details;
      throw new HttpError(422, `file: ${err.message}`, {
        ...(err.reasons.length ? { reasons: err.reasons } : {}),
        ...(columnsFound ? { columnsFound } : {}),
        ...(suggestedMapping ? { suggestedMapping } : {}),
      });
    }
    throw err;
  }
}

/** The numbers of the company's bank accounts, this one's and the others', for choosing a file's statements (answered masked elsewhere, read whole here). */
async function accountFacts(ctx: TenantCtx, account: BankAccount): Promise<AccountFacts> {
  const rows = await ctx.db
    .selectFrom('bank_accounts')
    .select(['id', 'account_number'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('account_number', 'is not', null)
    .execute();
  const masked = account.accountNumberMasked ? ` (${account.accountNumberMasked})` : '';
  return {
    number: rows.find((r) => r.id === account.id)?.account_number ?? null,
    others: rows.filter((r) => r.id !== account.id).map((r) => r.account_number!),
    currency: account.currency,
    label: `bank account ${account.accountCode} ${account.name}${masked}`,
  };
}

/** A file whose statements of the account give no line: 422 with every reason, nothing recorded. */
function noLine(mine: readonly ParsedStatement[]): HttpError {
  const errors = mine.flatMap((s) => s.errors);
  const reasons = errors.length
    ? [
        `none of its ${errors.length} row(s) could be read`,
        ...errors.slice(0, 20).map((e) => `line ${e.line}${e.field ? ` (${e.field})` : ''}: ${e.message}`),
        ...(errors.length > 20 ? [`and ${errors.length - 20} more row(s) like them`] : []),
      ]
    : ['the statement holds no transactions'];
  return new HttpError(422, 'file: no line could be read from it; nothing is recorded', { reasons });
}

export async function importStatement(ctx: TenantCtx, input: Upload) {
  const preview = input.preview === 'true';
  const account = await assertBankAccount(ctx.db, ctx.tenantId, companyOf(ctx), input.bankAccountId);
  const file = input.file;
  const bytes = file.bytes;
  const parsed = read(bytes, await readOptions(ctx, input, account));
  const sorted = sortStatements(parsed.statements, await accountFacts(ctx, account));
  const lines = sorted.mine.flatMap((s) => s.lines);
  if (!lines.length) throw noLine(sorted.mine);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const warnings = [...sorted.warnings];
  if (parsed.profile && isProfile(account.bank) && parsed.profile !== account.bank)
    warnings.push(`read as ${parsed.layout}, though the account is at ${account.bank}`);
  // Written under the account's lock, planned under it too: the preview is the same plan unlocked.
  if (!preview) await lockBankAccount(ctx.db, ctx.tenantId, account.id);
  const earlier = await ctx.db
    .selectFrom('bank_statements')
    .select(['id', 'created_at'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('bank_account_id', '=', account.id)
    .where('file_sha256', '=', sha)
    .where('rows_new', '>', 0)
    .orderBy('created_at')
    .executeTakeFirst();
  const plan = await planIngest(ctx.db, ctx.tenantId, account.id, lines);
  const facts: FileFacts = {
    name: file.filename,
    sha256: sha,
    size: file.size,
    profile: input.mappingId ? `mapping:${input.mappingId}` : (parsed.profile ?? null),
  };
  const body = report(parsed, sorted, plan, facts);
  const alreadyImported =
    earlier && plan.newCount === 0
      ? {
          statementId: earlier.id,
          importedAt: earlier.created_at.toISOString(),
          message:
            `already imported as statement ${earlier.id} on ${earlier.created_at.toISOString().slice(0, 10)}: ` +
            `the same file (sha256); nothing is added (its ${plan.duplicateCount} line(s) are already held)`,
        }
      : null;
  const base = { companyId: companyOf(ctx), bankAccountId: account.id, alreadyImported, warnings, ...body };
  // Nothing new (a preview, the same file again, a statement the account already holds): the
  // counts of this call, recorded nowhere.
  if (preview || plan.newCount === 0) {
    ctx.reply.code(200);
    const message = preview
      ? body.message
      : alreadyImported
        ? alreadyImported.message
        : `nothing is added: all ${plan.duplicateCount} line(s) are already held (see duplicates)`;
    return { id: alreadyImported?.statementId ?? null, preview, createdAt: null, ...base, message };
  }
  const id = crypto.randomUUID();
  const principal = ctx.principal;
  await ctx.db
    .insertInto('bank_statements')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyOf(ctx),
      bank_account_id: account.id,
      source: 'file',
      format: parsed.format,
      profile: facts.profile,
      file_name: file.filename,
      file_sha256: sha,
      file_size: file.size,
      period_from: body.periodFrom,
      period_to: body.periodTo,
      opening_balance: body.balance.openingBalance,
      closing_balance: body.balance.closingBalance,
      balance_check: body.balance.status,
      balance_gap: body.balance.gap,
      rows_read: body.rowsRead,
      rows_new: body.rowsNew,
      rows_duplicate: body.rowsDuplicate,
      rows_error: body.rowsError,
      report: JSON.stringify({ ...body, warnings }),
      created_by: principal.type === 'user' ? principal.userId : null,
    })
    .execute();
  await writeIngest(ctx.db, plan, {
    tenantId: ctx.tenantId,
    companyId: companyOf(ctx),
    deps: ctx.deps,
    principal,
    source: 'file',
    statementId: id,
  });
  const asOf = body.periodTo ?? lines.at(-1)?.date;
  if (
    body.balance.closingBalance != null &&
    asOf &&
    (!account.statementDate || asOf >= account.statementDate)
  )
    await ctx.db
      .updateTable('bank_accounts')
      .set({ statement_balance: body.balance.closingBalance, statement_date: asOf })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', account.id)
      .execute();
  return getStatement(ctx, id);
}

type Stored = Partial<ReturnType<typeof report>> & ReturnType<typeof report> & { warnings?: string[] };

function toApi(r: Selectable<BankStatementsTable>) {
  const rep = (typeof r.report === 'string' ? JSON.parse(r.report) : r.report) as Stored;
  return {
    ...rep,
    // Reports stored before files could hold several statements lack these.
    layout: rep.layout ?? null,
    rowsIdentical: rep.rowsIdentical ?? rep.identical.length,
    statements: rep.statements ?? [],
    balance: { ...rep.balance, derived: rep.balance.derived ?? null },
    identical: rep.identical.slice(0, SHOWN),
    duplicates: rep.duplicates.slice(0, SHOWN),
    errors: rep.errors.slice(0, SHOWN),
    id: r.id,
    companyId: r.company_id,
    bankAccountId: r.bank_account_id,
    preview: false,
    alreadyImported: null,
    warnings: rep.warnings ?? [],
    createdAt: r.created_at.toISOString(),
  };
}

export async function getStatement(ctx: TenantCtx, id: string) {
  const r = await ctx.db
    .selectFrom('bank_statements')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('source', '=', 'file')
    .executeTakeFirst();
  if (!r) throw notFound('Bank statement');
  return toApi(r);
}

export async function listStatements(ctx: TenantCtx, query: Static<typeof BankStatementsQuery>) {
  const p = paging(query);
  let q = ctx.db
    .selectFrom('bank_statements')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('source', '=', 'file');
  if (query.bankAccountId) q = q.where('bank_account_id', '=', query.bankAccountId);
  const { rows, total } = await pageOfQuery(q, { columns: ['created_at'], direction: 'desc' }, p);
  return pageOf(rows.map(toApi), total, p);
}
