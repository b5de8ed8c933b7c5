// Idempotent create on a caller-supplied clientId: the clientId becomes the record's id.
// The insert is ON CONFLICT DO NOTHING on the (tenant_id, id) key, so of two concurrent
// submissions exactly one inserts and both answer the same record: 201 for the one that
// created it, 200 for a replay.
import { type TSchema, Type } from 'typebox';
import type { TenantCtx } from './context.ts';
import { uuid } from './schema-basics.ts';

export const clientIdProperty = Type.Optional(
  uuid({
    description:
      'Caller-chosen UUID that becomes the record id. Sending it again answers 200 with the existing record.',
  }),
);

export interface IdempotentCreate<T> {
  /** the id to use: the clientId or a new UUID */
  id: string;
  /** inserts with ON CONFLICT DO NOTHING; true when a row was inserted */
  insert: (id: string) => Promise<boolean>;
  /** loads the record by id */
  load: (id: string) => Promise<T>;
}

export async function createIdempotent<T>(ctx: TenantCtx, op: IdempotentCreate<T>): Promise<T> {
  const created = await op.insert(op.id);
  ctx.reply.code(created ? 201 : 200);
  return op.load(op.id);
}

export function idFor(clientId: string | undefined): string {
  return clientId ? clientId.toLowerCase() : crypto.randomUUID();
}

/** 201 and 200 both answer the record. */
export function createdOrExisting<T extends TSchema>(schema: T) {
  return { 201: schema, 200: schema };
}
