// A won opportunity becomes a quote in one call: a draft sales document of type 'quote', made by
// the invoices module's own createDocument (its numbering, VAT defaults, event), in the company
// the body names (the CRM is tenant-wide, sales documents are a company's). Its lines are the
// opportunity's (product's name or the free text, quantity, unit price, discount); without lines,
// one line of the opportunity's name and amount. One quote per opportunity: the second call is a 409
// naming the first.
import type { Static } from 'typebox';
import { assertScope } from '../../platform/auth/limits.ts';
import { addDays, dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { LAST_DAY } from '../../platform/http/input-rules.ts';
import { badRequest, conflict, PermissionDenied } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { createDocument } from '../invoices/index.ts';
import type { Opportunity } from './opportunities.queries.ts';
import type { QuoteBody } from './opportunities.schemas.ts';
import { getOpportunity, lockedOpportunity } from './opportunities.service.ts';

/** Making a sales document needs what POST /api/invoices needs, beyond the CRM's own permission. */
function assertMayQuote(ctx: TenantCtx): void {
  if (!ctx.principal.permissions.allows('invoices', 'write')) throw new PermissionDenied('invoices', 'write');
  if (ctx.principal.type === 'api_key') assertScope(ctx.principal.scopes, 'invoices', 'write');
}

export async function quoteOpportunity(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof QuoteBody>,
): Promise<Opportunity> {
  assertMayQuote(ctx);
  const row = await lockedOpportunity(ctx, id);
  if (row.quote_id) {
    const made = await getOpportunity(ctx, id);
    throw conflict(
      `Quote ${made.quoteNumber} (id ${row.quote_id}, company ${row.quote_company_id}) was made from this opportunity already`,
      { field: 'quoteId' },
    );
  }
  if (row.status === 'lost') throw conflict('The opportunity is lost: reopen it first');
  if (!row.contact_id)
    throw badRequest('contactId', 'the opportunity has no contact to quote: set its contactId first');
  const company = await ctx.db
    .selectFrom('companies')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', input.companyId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!company) throw badRequest('companyId', 'no such company');
  const lines = await ctx.db
    .selectFrom('crm_opportunity_lines')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('opportunity_id', '=', id)
    .where('retired_at', 'is', null)
    .orderBy('line_no')
    .execute();
  const issueDate = input.date ?? dayOf(ctx.deps.now());
  // Checked as times: a day past 9999 does not print as a date that sorts after it.
  const days = input.validDays ?? 30;
  if (Date.parse(`${issueDate}T00:00:00Z`) + days * 86_400_000 > Date.parse(`${LAST_DAY}T00:00:00Z`))
    throw badRequest('validDays', `the quote would be valid past ${LAST_DAY}`);
  const validUntil = addDays(issueDate, days);
  const { invoice } = await createDocument(
    { db: ctx.db, tenantId: ctx.tenantId, companyId: company.id, deps: ctx.deps, principal: ctx.principal },
    {
      contactId: row.contact_id,
      documentType: 'quote',
      issueDate,
      // A quote's due date is the day it is valid until.
      dueDate: validUntil,
      currency: row.currency,
      reference: row.name.slice(0, 200),
      lines: lines.length
        ? lines.map((l) => ({
            description: l.description,
            quantity: Number(l.quantity),
            unitPrice: toNumber(l.unit_price),
            discountRate: Number(l.discount_percent),
          }))
        : [{ description: row.name, quantity: 1, unitPrice: toNumber(row.amount) }],
    },
  );
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_opportunities')
    .set({
      quote_id: invoice.id,
      quote_company_id: company.id,
      updated_at: now,
      // Quoting an open opportunity is winning it: the customer asked for the quote.
      ...(row.status === 'open' ? { status: 'won' as const, closed_at: now } : {}),
    })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return getOpportunity(ctx, id);
}
