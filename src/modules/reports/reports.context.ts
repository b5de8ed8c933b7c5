// What every report starts from: the company of the X-Company-Id header (its name, currency
// and financial year), today by the service clock, and the period or date asked for, checked.
import { sql } from 'kysely';
import { calendarDay, financialYearStart, todayOf } from '../../platform/dates/days.ts';
import { type FileDocument, longDate, type Table } from '../../platform/files/table.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, notFound } from '../../platform/http/problem.ts';
import type { VatCategory } from '../companies/index.ts';

export interface ReportCtx {
  ctx: TenantCtx;
  tenantId: string;
  companyId: string;
  companyName: string;
  currency: string;
  /** The month the financial year ends in (1-12). */
  yearEndMonth: number;
  /** The company's VAT category (A-E), which sets its VAT periods. */
  vatCategory: VatCategory;
  today: string;
}

export async function reportCtx(ctx: TenantCtx): Promise<ReportCtx> {
  const companyId = ctx.companyId;
  if (!companyId) throw new Error('reports are company-scoped');
  const r = await sql<{ name: string; base_currency: string; year_end: number | null; vat_category: string }>`
    select c.name, c.base_currency, s.financial_year_end_month as year_end, c.vat_category
      from companies c
      left join ledger_settings s on s.tenant_id = c.tenant_id and s.company_id = c.id
     where c.tenant_id = ${ctx.tenantId} and c.id = ${companyId}`.execute(ctx.db);
  const row = r.rows[0];
  if (!row) throw notFound('Company');
  return {
    ctx,
    tenantId: ctx.tenantId,
    companyId,
    companyName: row.name,
    currency: row.base_currency,
    yearEndMonth: row.year_end ?? 2,
    vatCategory: row.vat_category as VatCategory,
    today: todayOf(ctx.deps.now()),
  };
}

export function companyFields(rc: ReportCtx) {
  return { companyId: rc.companyId, companyName: rc.companyName, currency: rc.currency };
}

/**
 * from and to, checked: to defaults to today, from to the start of the financial year that
 * contains to; to before from is a 400 naming to.
 */
export function periodOf(
  rc: ReportCtx,
  query: { from?: string | undefined; to?: string | undefined },
): { from: string; to: string } {
  const to = query.to === undefined ? rc.today : calendarDay(query.to, 'to');
  const from =
    query.from === undefined ? financialYearStart(to, rc.yearEndMonth) : calendarDay(query.from, 'from');
  if (to < from) throw badRequest('to', `must not be before from (${from})`);
  return { from, to };
}

export function asOfOf(rc: ReportCtx, query: { asOf?: string | undefined }): string {
  return query.asOf === undefined ? rc.today : calendarDay(query.asOf, 'asOf');
}

export function periodText(from: string, to: string): string {
  return `${longDate(from)} to ${longDate(to)}`;
}

export function asAtText(day: string): string {
  return `As at ${longDate(day)}`;
}

/** The document every report prints from, with the company's name and currency. */
export function documentOf(
  rc: ReportCtx,
  d: {
    title: string;
    period: string;
    filename: string;
    tables: Table[];
    notes?: string[];
    landscape?: boolean;
  },
): FileDocument {
  return {
    title: d.title,
    organisation: rc.companyName,
    period: d.period,
    notes: [`Amounts in ${rc.currency}.`, ...(d.notes ?? [])],
    tables: d.tables,
    filename: d.filename,
    generatedAt: rc.ctx.deps.now(),
    ...(d.landscape ? { landscape: true } : {}),
  };
}

/** A report's answer: its JSON body, and the document its CSV and PDF are made from. */
export interface Report<J> {
  json: J;
  document: () => FileDocument;
}
