// POST /api/bank-statements: a statement file read, checked and (unless a preview) written as one
// statement, through ingest (planIngest, then writeIngest under the account's lock), so that
// the preview is exactly what the write then does and nothing is added twice.
import { createHash } from 'node:crypto';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { TenantCtx } from '../../platform/http/context.ts';
import type { UploadedFile } from '../../platform/http/multipart.ts';
import { pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { notFound, unprocessable } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { assertBankAccount } from './bank-accounts.service.ts';
import { csvMappingFor } from './bank-csv-mappings.service.ts';
import type { BankStatementsQuery, BankStatementUpload } from './bank-statements.schemas.ts';
import type { BankStatementsTable } from './banking.tables.ts';
import { type IngestPlan, lockBankAccount, planIngest, writeIngest } from './ingest.ts';
import { checkBalances } from './statements/balance.ts';
import { type CsvMapping, type CsvProfile, PROFILES } from './statements/csv-profiles.ts';
import { detectFormat, detectProfile, type Parsed, parseStatement } from './statements/detect.ts';
import { UnreadableStatement } from './statements/types.ts';

const companyOf = (ctx: TenantCtx) => ctx.companyId!;
type Upload = Static<typeof BankStatementUpload>;

/** The CSV mapping to read with: the saved one named, the profile named, the account's bank's, or the header's. */
async function csvMapping(
  ctx: TenantCtx,
  input: Upload,
  bank: string,
  bytes: Uint8Array,
): Promise<{ mapping?: CsvMapping; profile: string | null }> {
  if (input.mappingId)
    return { mapping: await csvMappingFor(ctx, input.mappingId), profile: `mapping:${input.mappingId}` };
  const profile: CsvProfile | undefined =
    input.profile ?? (bank in PROFILES ? (bank as CsvProfile) : undefined) ?? detectProfile(bytes);
  return profile ? { mapping: PROFILES[profile], profile } : { profile: null };
}

function parse(bytes: Uint8Array, format: Parsed['format'], mapping: CsvMapping | undefined): Parsed {
  try {
    return parseStatement(bytes, { format, mapping });
  } catch (err) {
    if (err instanceof UnreadableStatement) throw unprocessable(`file: ${err.message}`);
    throw err;
  }
}

/** The answer (and the statement's stored report): what was, or would be, done. */
function report(parsed: Parsed, plan: IngestPlan, file: UploadedFile, sha: string, profile: string | null) {
  const balance = checkBalances(parsed.lines, parsed.openingBalance, parsed.closingBalance);
  const duplicates = plan.lines
    .filter((p) => p.outcome === 'duplicate')
    .map((p) => ({
      line: p.line.line ?? null,
      date: p.line.date,
      amount: money(p.line.amount).toFixed(2),
      description: p.line.description,
      reason: p.reason!,
      duplicateOfId: p.duplicateOf!.id,
    }));
  const identical = plan.lines
    .filter((p) => p.note)
    .map((p) => ({
      line: p.line.line ?? null,
      date: p.line.date,
      amount: money(p.line.amount).toFixed(2),
      note: p.note!,
    }));
  const parts = [
    `${plan.newCount} new`,
    `${plan.duplicateCount} already held (skipped: each with its reason)`,
  ];
  if (parsed.errors.length)
    parts.push(`${parsed.errors.length} row(s) with errors not written; the rest are`);
  if (balance.status === 'gap') parts.push('the balances do not tie out (see balance)');
  return {
    format: parsed.format,
    profile,
    fileName: file.filename,
    fileSha256: sha,
    fileSize: file.size,
    periodFrom: parsed.periodFrom ?? null,
    periodTo: parsed.periodTo ?? null,
    currency: parsed.currency ?? null,
    accountHint: parsed.accountHint ?? null,
    rowsRead: parsed.lines.length + parsed.errors.length,
    rowsNew: plan.newCount,
    rowsDuplicate: plan.duplicateCount,
    rowsError: parsed.errors.length,
    balance,
    duplicates,
    identical,
    errors: parsed.errors,
    message: parts.join('; '),
  };
}

export async function importStatement(ctx: TenantCtx, input: Upload) {
  const preview = input.preview === 'true';
  const account = await assertBankAccount(ctx.db, ctx.tenantId, companyOf(ctx), input.bankAccountId);
  const file = input.file;
  const bytes = file.bytes;
  const format = input.format ?? detectFormat(bytes);
  const { mapping, profile } =
    format === 'csv' ? await csvMapping(ctx, input, account.bank, bytes) : { profile: null };
  const parsed = parse(bytes, format, mapping);
  const sha = createHash('sha256').update(bytes).digest('hex');
  const warnings: string[] = [];
  if (parsed.currency && parsed.currency !== account.currency)
    warnings.push(`the file is in ${parsed.currency}; the bank account in ${account.currency}`);
  if (
    parsed.accountHint &&
    account.accountNumberMasked &&
    !parsed.accountHint.endsWith(account.accountNumberMasked.slice(-4))
  )
    warnings.push(
      `the file names account ${parsed.accountHint}, not this one (${account.accountNumberMasked})`,
    );
  // Written under the account's lock, planned under it too: the preview is the same plan unlocked.
  if (!preview) await lockBankAccount(ctx.db, ctx.tenantId, account.id);
  const earlier = await ctx.db
    .selectFrom('bank_statements')
    .select(['id', 'created_at'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('bank_account_id', '=', account.id)
    .where('file_sha256', '=', sha)
    .orderBy('created_at')
    .executeTakeFirst();
  const plan = await planIngest(ctx.db, ctx.tenantId, account.id, parsed.lines);
  const body = report(parsed, plan, file, sha, profile);
  const alreadyImported = earlier
    ? {
        statementId: earlier.id,
        importedAt: earlier.created_at.toISOString(),
        message:
          `already imported as statement ${earlier.id} on ${earlier.created_at.toISOString().slice(0, 10)}: ` +
          `the same file (sha256); nothing is added (its ${plan.duplicateCount} line(s) are already held)`,
      }
    : null;
  const base = { companyId: companyOf(ctx), bankAccountId: account.id, alreadyImported, warnings, ...body };
  if (preview || earlier) {
    ctx.reply.code(200);
    if (earlier && !preview)
      return { ...(await getStatement(ctx, earlier.id)), alreadyImported, preview: false };
    return { id: null, preview, createdAt: null, ...base };
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
      format,
      profile,
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
  const asOf = body.periodTo ?? parsed.lines.at(-1)?.date;
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

function toApi(r: Selectable<BankStatementsTable>) {
  const rep = (typeof r.report === 'string' ? JSON.parse(r.report) : r.report) as ReturnType<
    typeof report
  > & {
    warnings?: string[];
  };
  return {
    ...rep,
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
