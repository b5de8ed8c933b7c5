// Which bank layout reads a CSV, found from the file itself: the first row (of the first 50) that
// one of the layouts recognises as its header, the layouts tried in the order given (the profile
// named, the account's bank's, then every other bank's) and, on one row, the layout that finds
// the most of its columns. When none does, what the file's header holds and a mapping that would
// read it, for the user to check and save: never a guess imported.

import type { Row } from './csv.ts';
import {
  BANK_NAMES,
  COMMON_HEADERS,
  CSV_PROFILES,
  type CsvMapping,
  type CsvProfile,
  type HeaderLayout,
  isRecordLayout,
  LAYOUTS,
  resolveLayout,
} from './csv-profiles.ts';
import { decideDateFormat } from './dates.ts';
import { DATE_FORMATS, type DateFormat, dateText, UnreadableStatement } from './types.ts';

export interface FoundLayout {
  profile: CsvProfile;
  /** The layout's name, in words. */
  layout: string;
  mapping: CsvMapping;
}

const SEARCHED = 50;

/** The profiles in the order to try: the preferred first, then the others. */
export function profileOrder(...preferred: (CsvProfile | undefined)[]): CsvProfile[] {
  const first = preferred.filter((p): p is CsvProfile => p !== undefined);
  return [...new Set([...first, ...CSV_PROFILES])];
}

/**
 * The layout that reads the rows. Two banks' headers can be the same columns (FNB's Date, Amount,
 * Balance, Description and ABSA's Date, Description, Amount, Balance): then the dates below the
 * header tell them apart (2026/03/02 is FNB's, 20260302 ABSA's). On one row, the layout that reads
 * the dates wins, then the one with more of its columns, then the one that reads more dates, then
 * the order given.
 */
export function findLayout(rows: readonly Row[], order: readonly CsvProfile[]): FoundLayout | undefined {
  for (let i = 0; i < Math.min(rows.length, SEARCHED); i++) {
    const cells = rows[i]!.record;
    let best: (FoundLayout & { score: number[] }) | undefined;
    for (const profile of order)
      for (const layout of LAYOUTS[profile]) {
        if (isRecordLayout(layout)) {
          const rule = layout.mapping.rowsWhere;
          if (rule && typeof rule.column === 'number' && cells[rule.column] === rule.equals && !best)
            best = {
              profile,
              layout: layout.name,
              mapping: layout.mapping,
              score: [1, Number.POSITIVE_INFINITY],
            };
          continue;
        }
        const r = resolveLayout(cells, layout);
        if (!r) continue;
        const read = datesRead(rows, i, cells.indexOf(r.mapping.columns.date as string), layout.dateFormats);
        const score = [read > 0 ? 1 : 0, r.found, read];
        if (!best || better(score, best.score))
          best = { profile, layout: layout.name, mapping: { ...r.mapping, skipRows: i }, score };
      }
    if (best) return { profile: best.profile, layout: best.layout, mapping: best.mapping };
  }
  return undefined;
}

const better = (a: number[], b: number[]) => {
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return a[k]! > (b[k] ?? 0);
  return false;
};

/** How many of the (first 50) dates under a header row one of the formats reads. */
function datesRead(rows: readonly Row[], header: number, at: number, formats: readonly DateFormat[]): number {
  let read = 0;
  for (const row of rows.slice(header + 1, header + 51)) {
    const cell = row.record[at];
    if (cell && formats.some((f) => dateText(cell, f))) read++;
  }
  return read;
}

const COMMON: HeaderLayout = { name: 'common headers', columns: COMMON_HEADERS, dateFormats: DATE_FORMATS };

/**
 * Why a CSV is not read, with what its header holds (`columnsFound`) and, when its columns can be
 * told, a mapping that would read it (`suggestedMapping`, the body of POST /api/bank-csv-mappings).
 */
export function csvNotRead(rows: readonly Row[], why: string): UnreadableStatement {
  let header: { at: number; mapping: CsvMapping; found: number } | undefined;
  for (let i = 0; i < Math.min(rows.length, SEARCHED); i++) {
    const r = resolveLayout(rows[i]!.record, COMMON);
    if (r && (!header || r.found > header.found)) header = { at: i, mapping: r.mapping, found: r.found };
  }
  const headerRow = header ? rows[header.at]!.record : rows.find((r) => r.record.some(Boolean))?.record;
  const columnsFound = (headerRow ?? []).filter(Boolean);
  const details: Record<string, unknown> = { columnsFound };
  const reasons = [
    why,
    columnsFound.length ? `the columns found: ${columnsFound.join(', ')}` : 'the file has no row of columns',
    `the banks whose exports are read: ${CSV_PROFILES.map((p) => BANK_NAMES[p]).join(', ')}`,
  ];
  if (header) {
    const m = header.mapping;
    const dateAt = rows[header.at]!.record.indexOf(m.columns.date as string);
    const dates = rows.slice(header.at + 1).map((r) => r.record[dateAt]);
    details.suggestedMapping = {
      name: 'Bank export',
      columns: m.columns,
      dateFormat: decideDateFormat(dates, DATE_FORMATS),
      sign: m.sign,
      skipRows: header.at,
      decimalSeparator: 'auto',
    };
    reasons.push(
      'a mapping that would read it is suggested (suggestedMapping): check it, save it with ' +
        'POST /api/bank-csv-mappings and upload the file again with its mappingId',
    );
  } else
    reasons.push(
      'save a CSV mapping naming its columns (POST /api/bank-csv-mappings) and upload again with its mappingId',
    );
  return new UnreadableStatement(why, reasons, details);
}
