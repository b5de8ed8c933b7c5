// The paged list envelope: { items, total, page, limit, totalPages }. limit at or below 0
// becomes the default (50), above the maximum becomes the maximum (200), never a 400;
// page below 1 is 1; a page past the end is empty with the same total. A page so far past the end
// that its offset would leave the integers the database takes (page=10^20 was a 400 naming nothing,
// issue 35) is read as the last page that can be asked for: empty too, never a 400.
import { type Selectable, type SelectQueryBuilder, sql } from 'kysely';
import { type TSchema, Type } from 'typebox';
import { named, nameOf } from './schema-names.ts';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 200;
/** The highest page read: its offset at the largest limit stays a safe integer (and a bigint). */
export const MAX_PAGE = Math.floor(Number.MAX_SAFE_INTEGER / MAX_LIMIT);

/** Spread into a route's query schema. */
export const pageQueryProperties = {
  page: Type.Optional(
    Type.Integer({
      description: `1-based page number; below 1 is treated as 1, above ${MAX_PAGE} as ${MAX_PAGE} (past the end: no items)`,
    }),
  ),
  limit: Type.Optional(
    Type.Integer({
      description: `Rows per page: default ${DEFAULT_LIMIT}, at most ${MAX_LIMIT}; 0 or less means the default`,
    }),
  ),
};

export interface Paging {
  page: number;
  limit: number;
  offset: number;
}

export function paging(query: { page?: number | undefined; limit?: number | undefined }): Paging {
  const page = query.page === undefined || query.page < 1 ? 1 : Math.min(Math.floor(query.page), MAX_PAGE);
  let limit = query.limit ?? DEFAULT_LIMIT;
  if (limit <= 0) limit = DEFAULT_LIMIT;
  if (limit > MAX_LIMIT) limit = MAX_LIMIT;
  return { page, limit, offset: (page - 1) * limit };
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
  totalPages: number;
}

export function pageOf<T>(items: T[], total: number, p: Paging): Page<T> {
  return { items, total, page: p.page, limit: p.limit, totalPages: Math.ceil(total / p.limit) };
}

function envelope<T extends TSchema>(item: T) {
  return Type.Object({
    items: Type.Array(item),
    total: Type.Integer({ description: 'Rows matching the filter' }),
    page: Type.Integer({ description: '1-based page number' }),
    limit: Type.Integer({ description: 'The limit that was applied' }),
    totalPages: Type.Integer(),
  });
}

const envelopes = new WeakMap<TSchema, TSchema>();

/**
 * The paged envelope of `item`: one schema per item schema, named `<Item>Page` when the item
 * is named, so every list of invoices shares one `InvoicePage` in the document.
 */
export function Paged<T extends TSchema>(item: T): ReturnType<typeof envelope<T>> {
  const known = envelopes.get(item);
  if (known) return known as ReturnType<typeof envelope<T>>;
  const schema = envelope(item);
  const name = nameOf(item);
  if (name) named(`${name}Page`, schema);
  envelopes.set(item, schema);
  return schema;
}

/**
 * One page of a filtered list query: how many rows match, then the page of them ordered by the
 * sort's columns, the id breaking ties in the same direction (so pages never overlap).
 */
export async function pageOfQuery<DB, TB extends keyof DB & string, O>(
  filtered: SelectQueryBuilder<DB, TB, O>,
  order: { columns: readonly string[]; direction: 'asc' | 'desc' },
  p: Paging,
): Promise<{ rows: Selectable<DB[TB]>[]; total: number }> {
  const { n } = await filtered
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .$castTo<{ n: string }>()
    .executeTakeFirstOrThrow();
  let page = filtered.selectAll().$castTo<Selectable<DB[TB]>>();
  for (const column of [...order.columns, 'id']) page = page.orderBy(sql.ref(column), order.direction);
  return { rows: await page.limit(p.limit).offset(p.offset).execute(), total: Number(n) };
}
