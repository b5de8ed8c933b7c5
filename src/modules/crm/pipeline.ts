// The pipeline report: the open opportunities by stage, their value and their value weighted by
// the stage's probability, with totals; and conversion over a period of creation: of the leads
// created in it, how many were converted; of the opportunities created in it and closed, how many
// were won. Per-stage reach is left out: the pipeline keeps no history of stage moves.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { Type } from 'typebox';
import { addDays } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { nullable } from '../../platform/http/nullable.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { Money, money, sum, toNumber } from '../../platform/money/money.ts';
import { liveStages } from './stages.service.ts';

const Day = Type.String({ format: 'date' });
const Rate = nullable(Type.Number({ description: 'Percent, two decimals; null when nothing to divide by' }));

export const PipelineQuery = Type.Object({
  from: Type.Optional(Type.String({ format: 'date', description: 'Conversion: created on or after (UTC)' })),
  to: Type.Optional(Type.String({ format: 'date', description: 'Conversion: created on or before (UTC)' })),
});

const Sums = {
  count: Type.Integer({ description: 'Open opportunities' }),
  value: Type.Number({ description: 'Σ amount' }),
  weightedValue: Type.Number({
    description: "Σ amount × the stage's probability / 100, each opportunity rounded half-up to cents",
  }),
};

export const PipelineReport = named(
  'PipelineReport',
  Type.Object({
    stages: Type.Array(
      Type.Object({
        stageId: Uuid,
        name: Type.String(),
        probability: Type.Number(),
        position: Type.Integer(),
        ...Sums,
      }),
    ),
    totals: Type.Object(Sums),
    conversion: Type.Object({
      from: nullable(Day),
      to: nullable(Day),
      leadsCreated: Type.Integer(),
      leadsConverted: Type.Integer({ description: 'Of the leads created in the period, those converted' }),
      leadConversionRate: Rate,
      opportunitiesCreated: Type.Integer(),
      won: Type.Integer({ description: 'Of the opportunities created in the period, those won' }),
      lost: Type.Integer(),
      winRate: Rate,
    }),
  }),
);

function rate(part: number, whole: number): number | null {
  if (whole === 0) return null;
  return new Money(part).times(100).dividedBy(whole).toDecimalPlaces(2).toNumber();
}

export async function pipelineReport(
  ctx: Pick<TenantCtx, 'db' | 'tenantId'>,
  query: Static<typeof PipelineQuery>,
): Promise<Static<typeof PipelineReport>> {
  if (query.from && query.to && query.to < query.from) throw badRequest('to', 'must not be before from');
  // Summed in the database, each weighted amount rounded to cents first (round() on NUMERIC
  // rounds half away from zero: half-up for these amounts, which are never negative).
  const [stages, open] = await Promise.all([
    liveStages(ctx.db, ctx.tenantId),
    ctx.db
      .selectFrom('crm_opportunities as o')
      .innerJoin('crm_pipeline_stages as s', (j) =>
        j.onRef('s.tenant_id', '=', 'o.tenant_id').onRef('s.id', '=', 'o.stage_id'),
      )
      .select((eb) => [
        'o.stage_id',
        eb.fn.countAll<string>().as('n'),
        eb.fn.sum<string>('o.amount').as('value'),
        sql<string>`sum(round(o.amount * s.probability / 100, 2))`.as('weighted'),
      ])
      .where('o.tenant_id', '=', ctx.tenantId)
      .where('o.status', '=', 'open')
      .where('o.deleted_at', 'is', null)
      .groupBy('o.stage_id')
      .execute(),
  ]);
  const rows = stages.map((s) => {
    const mine = open.find((o) => o.stage_id === s.id);
    return {
      stageId: s.id,
      name: s.name,
      probability: Number(s.probability),
      position: s.position,
      count: Number(mine?.n ?? 0),
      value: money(mine?.value ?? 0),
      weightedValue: money(mine?.weighted ?? 0),
    };
  });
  // Created in [from 00:00, the day after to 00:00) UTC.
  const since = query.from ? new Date(`${query.from}T00:00:00Z`) : undefined;
  const until = query.to ? new Date(`${addDays(query.to, 1)}T00:00:00Z`) : undefined;
  let leads = ctx.db
    .selectFrom('crm_leads')
    .select((eb) => [
      eb.fn.countAll<string>().as('created'),
      eb.fn.count<string>(eb.case().when('status', '=', 'converted').then(1).end()).as('converted'),
    ])
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null);
  let deals = ctx.db
    .selectFrom('crm_opportunities')
    .select((eb) => [
      eb.fn.countAll<string>().as('created'),
      eb.fn.count<string>(eb.case().when('status', '=', 'won').then(1).end()).as('won'),
      eb.fn.count<string>(eb.case().when('status', '=', 'lost').then(1).end()).as('lost'),
    ])
    .where('tenant_id', '=', ctx.tenantId)
    .where('deleted_at', 'is', null);
  if (since) {
    leads = leads.where('created_at', '>=', since);
    deals = deals.where('created_at', '>=', since);
  }
  if (until) {
    leads = leads.where('created_at', '<', until);
    deals = deals.where('created_at', '<', until);
  }
  const [l, d] = await Promise.all([leads.executeTakeFirstOrThrow(), deals.executeTakeFirstOrThrow()]);
  const won = Number(d.won);
  const lost = Number(d.lost);
  return {
    stages: rows.map((r) => ({ ...r, value: toNumber(r.value), weightedValue: toNumber(r.weightedValue) })),
    totals: {
      count: rows.reduce((n, r) => n + r.count, 0),
      value: toNumber(sum(rows.map((r) => r.value))),
      weightedValue: toNumber(sum(rows.map((r) => money(r.weightedValue)))),
    },
    conversion: {
      from: query.from ?? null,
      to: query.to ?? null,
      leadsCreated: Number(l.created),
      leadsConverted: Number(l.converted),
      leadConversionRate: rate(Number(l.converted), Number(l.created)),
      opportunitiesCreated: Number(d.created),
      won,
      lost,
      winRate: rate(won, won + lost),
    },
  };
}
