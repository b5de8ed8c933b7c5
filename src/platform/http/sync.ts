// Incremental sync on growing lists: `updatedSince` and `sort`, the same on every one.
//
// - updatedSince: records whose updatedAt is at or after the timestamp (inclusive, so a record
//   written in the same instant as the last one a client saw is not missed; a client dedupes
//   by id). Voided and deleted records stay in these lists (their status or `deletedAt` says
//   so), so a sync learns of them.
// - sort: one of the list's keys, `-` before it for descending. Ties are always broken by id
//   in the same direction, so paging through a sorted list never repeats or skips a row.
import { Type } from 'typebox';
import { stringEnum } from './enums.ts';

export const SORT_KEYS = ['updatedAt', 'createdAt', 'number', 'date'] as const;
export type SortKey = (typeof SORT_KEYS)[number];

/** Spread into a growing list's query schema, with the sort keys that list offers. */
export function syncQueryProperties<const K extends readonly SortKey[]>(keys: K, defaultSort: string) {
  const values = keys.flatMap((k) => [k, `-${k}`]) as Array<K[number] | `-${K[number]}`>;
  return {
    updatedSince: Type.Optional(
      Type.String({
        format: 'date-time',
        description:
          'Only records changed at or after this instant (ISO 8601 with an offset). Voided and deleted records are included, so a sync learns of them.',
      }),
    ),
    sort: Type.Optional(
      stringEnum(values, {
        description: `Order: a key, descending with a leading \`-\`; ties by id. Default \`${defaultSort}\`.`,
      }),
    ),
  };
}

export interface SortOrder<K extends string> {
  key: K;
  direction: 'asc' | 'desc';
}

/** The parsed `sort` parameter (already checked against the enum by validation). */
export function sortOrder<K extends string>(sort: string | undefined, fallback: string): SortOrder<K> {
  const given = sort ?? fallback;
  return given.startsWith('-')
    ? { key: given.slice(1) as K, direction: 'desc' }
    : { key: given as K, direction: 'asc' };
}
