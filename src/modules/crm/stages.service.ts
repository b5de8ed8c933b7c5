// The pipeline's stages: the tenant's own list, in order, each with a win probability. Positions
// are kept 0, 1, 2… with no gaps: every change that moves a stage renumbers the whole list (a
// pipeline has a handful of stages). A stage is removed by deleted_at, and only while no open
// opportunity sits in it, so every open opportunity always names a live stage.
import { Decimal } from 'decimal.js';
import type { Selectable } from 'kysely';
import type { Static } from 'typebox';
import type { Tx } from '../../platform/db/tenant.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import type { CrmPipelineStagesTable } from './crm.tables.ts';
import type { StageCreate, StageUpdate } from './stages.schemas.ts';

type StageRow = Selectable<CrmPipelineStagesTable>;
type Ctx = Pick<TenantCtx, 'db' | 'tenantId' | 'deps'>;

function toStage(row: StageRow, openCount: number) {
  return {
    id: row.id,
    name: row.name,
    probability: Number(row.probability),
    position: row.position,
    openCount,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}
export type Stage = ReturnType<typeof toStage>;

/** The live stages in pipeline order. */
export function liveStages(tx: Tx, tenantId: string): Promise<StageRow[]> {
  return tx
    .selectFrom('crm_pipeline_stages')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .orderBy('position')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** A live stage of the tenant, or undefined. */
export function findStage(tx: Tx, tenantId: string, id: string): Promise<StageRow | undefined> {
  return tx
    .selectFrom('crm_pipeline_stages')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
}

async function openCounts(tx: Tx, tenantId: string): Promise<Map<string, number>> {
  const rows = await tx
    .selectFrom('crm_opportunities')
    .select(['stage_id', (eb) => eb.fn.countAll<string>().as('n')])
    .where('tenant_id', '=', tenantId)
    .where('status', '=', 'open')
    .where('deleted_at', 'is', null)
    .groupBy('stage_id')
    .execute();
  return new Map(rows.map((r) => [r.stage_id, Number(r.n)]));
}

function probabilityOf(value: number): string {
  const d = new Decimal(value);
  if (d.decimalPlaces() > 2) throw badRequest('probability', 'at most two decimals');
  return d.toFixed(2);
}

function nameOf(value: string): string {
  const trimmed = value.trim();
  if (!trimmed) throw badRequest('name', 'must not be blank');
  return trimmed;
}

/** 409 when another live stage already has the name (in any case). */
async function assertNameFree(tx: Tx, tenantId: string, name: string, except?: string): Promise<void> {
  let q = tx
    .selectFrom('crm_pipeline_stages')
    .select('id')
    .where('tenant_id', '=', tenantId)
    .where('deleted_at', 'is', null)
    .where((eb) => eb(eb.fn('lower', ['name']), '=', name.toLowerCase()));
  if (except) q = q.where('id', '<>', except);
  if (await q.executeTakeFirst()) throw conflict(`A stage named "${name}" exists already`, { field: 'name' });
}

/** Writes positions 0…n-1 in the order given (only where they change). */
async function renumber(tx: Tx, tenantId: string, ordered: Array<{ id: string; position: number }>) {
  for (const [i, s] of ordered.entries()) {
    if (s.position === i) continue;
    await tx
      .updateTable('crm_pipeline_stages')
      .set({ position: i })
      .where('tenant_id', '=', tenantId)
      .where('id', '=', s.id)
      .execute();
  }
}

/** Moves the stage `id` to `position` (clamped to the end) and closes the gaps. */
async function place(tx: Tx, tenantId: string, id: string, position: number | undefined): Promise<void> {
  const stages = await liveStages(tx, tenantId);
  const me = stages.find((s) => s.id === id)!;
  const others = stages.filter((s) => s.id !== id);
  const at = Math.min(position ?? others.length, others.length);
  others.splice(at, 0, me);
  await renumber(tx, tenantId, others);
}

export async function listStages(ctx: Ctx): Promise<Stage[]> {
  const [rows, counts] = await Promise.all([
    liveStages(ctx.db, ctx.tenantId),
    openCounts(ctx.db, ctx.tenantId),
  ]);
  return rows.map((r) => toStage(r, counts.get(r.id) ?? 0));
}

export async function getStage(ctx: Ctx, id: string): Promise<Stage> {
  const row = await findStage(ctx.db, ctx.tenantId, id);
  if (!row) throw notFound('Stage');
  return toStage(row, (await openCounts(ctx.db, ctx.tenantId)).get(id) ?? 0);
}

export async function createStage(ctx: Ctx, input: Static<typeof StageCreate>): Promise<Stage> {
  const name = nameOf(input.name);
  await assertNameFree(ctx.db, ctx.tenantId, name);
  const id = crypto.randomUUID();
  // Inserted past the end, then placed: the renumbering gives it its final position.
  await ctx.db
    .insertInto('crm_pipeline_stages')
    .values({
      tenant_id: ctx.tenantId,
      id,
      name,
      probability: probabilityOf(input.probability),
      position: 1_000_000,
    })
    .execute();
  await place(ctx.db, ctx.tenantId, id, input.position);
  return getStage(ctx, id);
}

export async function updateStage(ctx: Ctx, id: string, input: Static<typeof StageUpdate>): Promise<Stage> {
  if (!(await findStage(ctx.db, ctx.tenantId, id))) throw notFound('Stage');
  const set: { name?: string; probability?: string; updated_at: Date } = { updated_at: ctx.deps.now() };
  if (input.name !== undefined) {
    set.name = nameOf(input.name);
    await assertNameFree(ctx.db, ctx.tenantId, set.name, id);
  }
  if (input.probability !== undefined) set.probability = probabilityOf(input.probability);
  await ctx.db
    .updateTable('crm_pipeline_stages')
    .set(set)
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  if (input.position !== undefined) await place(ctx.db, ctx.tenantId, id, input.position);
  return getStage(ctx, id);
}

/** Soft delete; 409 while open opportunities sit in the stage (move them, or close them, first). */
export async function deleteStage(ctx: Ctx, id: string): Promise<void> {
  if (!(await findStage(ctx.db, ctx.tenantId, id))) throw notFound('Stage');
  const open = (await openCounts(ctx.db, ctx.tenantId)).get(id) ?? 0;
  if (open > 0) {
    throw conflict(
      `${open} open opportunit${open === 1 ? 'y sits' : 'ies sit'} in this stage; move or close them first`,
    );
  }
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('crm_pipeline_stages')
    .set({ deleted_at: now, updated_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  await renumber(ctx.db, ctx.tenantId, await liveStages(ctx.db, ctx.tenantId));
}
