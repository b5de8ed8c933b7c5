// SQL of opportunities, and the record in API shape: its lines, its stage (deleted or not: a
// closed opportunity keeps naming the stage it closed at) and its quote's number.
import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import { cents, money, toNumber } from '../../platform/money/money.ts';
import type {
  CrmOpportunitiesTable,
  CrmOpportunityLinesTable,
  CrmPipelineStagesTable,
} from './crm.tables.ts';

export type OpportunityRow = Selectable<CrmOpportunitiesTable>;
type LineRow = Selectable<CrmOpportunityLinesTable>;
type StageRow = Pick<Selectable<CrmPipelineStagesTable>, 'id' | 'name' | 'probability'>;

/** Open: amount × probability / 100 to the cent; won: the whole amount; lost: nothing. */
export function weighted(row: Pick<OpportunityRow, 'status' | 'amount'>, probability: string) {
  if (row.status === 'won') return money(row.amount);
  if (row.status === 'lost') return money(0);
  return cents(money(row.amount).times(probability).dividedBy(100));
}

function toOpportunity(row: OpportunityRow, lines: LineRow[], stage: StageRow, quoteNumber: string | null) {
  return {
    id: row.id,
    name: row.name,
    leadId: row.lead_id,
    contactId: row.contact_id,
    stage: { id: stage.id, name: stage.name, probability: Number(stage.probability) },
    ownerId: row.owner_id,
    currency: row.currency,
    amount: toNumber(row.amount),
    weightedAmount: toNumber(weighted(row, stage.probability)),
    expectedCloseDate: row.expected_close_date,
    status: row.status,
    closeReason: row.close_reason,
    closedAt: row.closed_at?.toISOString() ?? null,
    quoteId: row.quote_id,
    quoteCompanyId: row.quote_company_id,
    quoteNumber,
    lines: lines.map((l) => ({
      lineNo: l.line_no,
      productId: l.product_id,
      description: l.description,
      quantity: Number(l.quantity),
      unitPrice: toNumber(l.unit_price),
      discountPercent: Number(l.discount_percent),
      amount: toNumber(l.amount),
    })),
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
    deletedAt: row.deleted_at?.toISOString() ?? null,
  };
}
export type Opportunity = ReturnType<typeof toOpportunity>;

/** A live opportunity (FOR UPDATE when it is to change). */
export function findOpportunity(tx: Tx, tenantId: string, id: string, lock = false) {
  const q = tx
    .selectFrom('crm_opportunities')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null);
  return lock ? q.forUpdate().executeTakeFirst() : q.executeTakeFirst();
}

/** The rows in API shape, in their order: lines, stages and quote numbers read in one query each. */
export async function withDetails(tx: Tx, tenantId: string, rows: OpportunityRow[]): Promise<Opportunity[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const stageIds = [...new Set(rows.map((r) => r.stage_id))];
  const quoteIds = rows.map((r) => r.quote_id).filter((q): q is string => q !== null);
  const [lines, stages, quotes] = await Promise.all([
    tx
      .selectFrom('crm_opportunity_lines')
      .selectAll()
      .where('tenant_id', '=', tenantId)
      .where('opportunity_id', 'in', ids)
      .where('retired_at', 'is', null)
      .orderBy('line_no')
      .execute(),
    tx
      .selectFrom('crm_pipeline_stages')
      .select(['id', 'name', 'probability'])
      .where('tenant_id', '=', tenantId)
      .where('id', 'in', stageIds)
      .execute(),
    quoteIds.length
      ? tx
          .selectFrom('invoices')
          .select(['id', 'number'])
          .where('tenant_id', '=', tenantId)
          .where('id', 'in', quoteIds)
          .execute()
      : Promise.resolve([]),
  ]);
  return rows.map((row) =>
    toOpportunity(
      row,
      lines.filter((l) => l.opportunity_id === row.id),
      stages.find((s) => s.id === row.stage_id)!,
      quotes.find((q) => q.id === row.quote_id)?.number ?? null,
    ),
  );
}
