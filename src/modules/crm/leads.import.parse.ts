// A CSV of leads read into rows: the columns found by the caller's names or by the usual
// headers (Name, Full name, Company, E-mail, Phone, Mobile, …, any case and punctuation), each
// row checked on its own. Nothing here touches the database: the import and its preview share
// it, so the preview's counts are the real run's.
import { parse } from 'csv-parse/sync';
import { badRequest, HttpError } from '../../platform/http/problem.ts';
import { isEmail, phoneE164 } from './leads.phone.ts';
import { tagsOf, textOf } from './leads.queries.ts';

/** The fields a column may fill, and the query parameter naming each one's column. */
export const IMPORT_FIELDS = [
  'name',
  'companyName',
  'email',
  'phone',
  'source',
  'notes',
  'estimatedValue',
  'tags',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

export const columnParam = (f: ImportField) => `${f === 'companyName' ? 'company' : f}Column`;

/** Rows of data one import takes: a file of tiny rows within the body limit is refused, not run. */
export const MAX_IMPORT_ROWS = 50_000;

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9]/g, '');

/** The headers each field is found by when the caller names no column (normalised). */
const USUAL: Record<ImportField, string[]> = {
  name: ['name', 'fullname', 'contactname', 'leadname', 'contact', 'person'],
  companyName: ['company', 'companyname', 'organisation', 'organization', 'business', 'account'],
  email: ['email', 'emailaddress', 'mail'],
  phone: [
    'phone',
    'mobile',
    'phonenumber',
    'cell',
    'cellphone',
    'mobilephone',
    'telephone',
    'tel',
    'cellnumber',
  ],
  source: ['source', 'leadsource'],
  notes: ['notes', 'note', 'comments', 'comment', 'description'],
  estimatedValue: ['estimatedvalue', 'value', 'dealvalue', 'amount'],
  tags: ['tags', 'tag', 'labels'],
};

export interface ImportRow {
  /** The row as a spreadsheet numbers it: the header is row 1. */
  row: number;
  name: string;
  companyName: string | null;
  email: string | null;
  phone: string | null;
  phoneE164: string | null;
  source: string | null;
  notes: string | null;
  /** two decimals, as SQL takes it */
  estimatedValue: string | null;
  tags: string[];
}

export interface RowError {
  row: number;
  field: string;
  reason: string;
}

/**
 * Money as people type it into a sheet: 12500, 12500.50, 12 500,50, R12,500.00. Two decimals
 * at most; anything else is undefined.
 */
export function valueText(cell: string): string | undefined {
  let s = cell.replace(/^R\s*/i, '').replace(/[\s\u00a0']/g, '');
  if (/^\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  else if (/^\d{1,3}(\.\d{3})+(,\d{1,2})?$/.test(s)) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  if (!/^\d{1,12}(\.\d{1,2})?$/.test(s)) return undefined;
  return Number.parseFloat(s).toFixed(2);
}

/** Each field's column index (-1: none), from the caller's names or the usual headers. */
function columnsOf(header: string[], given: Partial<Record<ImportField, string>>) {
  const cells = header.map(norm);
  const index = {} as Record<ImportField, number>;
  for (const field of IMPORT_FIELDS) {
    const name = given[field];
    if (name !== undefined) {
      const at = cells.indexOf(norm(name));
      if (at < 0) throw badRequest(columnParam(field), `the file has no column "${name}"`);
      index[field] = at;
    } else {
      index[field] = cells.findIndex((c) => USUAL[field].includes(c));
    }
  }
  // "First name" and "Last name" (Outlook, Google and most CRMs export them apart) make a name.
  const first = cells.findIndex((c) => c === 'firstname' || c === 'givenname');
  const last = cells.findIndex((c) => c === 'lastname' || c === 'surname' || c === 'familyname');
  if (index.name < 0 && first < 0 && index.companyName < 0)
    throw badRequest(
      'nameColumn',
      'the file has no Name (or First name, or Company) column: name the column',
    );
  return { index, first, last };
}

/** The file's rows, checked: the good ones and, for every refused row, why. */
export function readLeadRows(
  text: string,
  given: Partial<Record<ImportField, string>>,
): { rows: number; good: ImportRow[]; errors: RowError[] } {
  let records: string[][];
  try {
    records = parse(text, {
      relax_column_count: true,
      relax_quotes: true,
      bom: true,
      skip_empty_lines: false,
    });
  } catch (err) {
    throw badRequest('body', `the CSV could not be read: ${(err as Error).message}`);
  }
  if (!records.length || records[0]!.every((c) => !c.trim()))
    throw badRequest('body', 'the file has no header row');
  if (records.length - 1 > MAX_IMPORT_ROWS) {
    const data = records.slice(1).filter((r) => r.some((c) => c.trim())).length;
    if (data > MAX_IMPORT_ROWS)
      throw new HttpError(
        413,
        `The file has ${data} rows; an import takes at most ${MAX_IMPORT_ROWS}: split it`,
        {
          code: 'PAYLOAD_TOO_LARGE',
        },
      );
  }
  const { index, first, last } = columnsOf(records[0]!, given);
  const good: ImportRow[] = [];
  const errors: RowError[] = [];
  let rows = 0;
  for (let i = 1; i < records.length; i++) {
    const record = records[i]!;
    if (record.every((c) => !c.trim())) continue; // a blank line is no row of data
    rows++;
    const row = i + 1;
    const cell = (at: number) => (at < 0 ? null : textOf(record[at]));
    const refused: RowError[] = [];
    const companyName = cell(index.companyName);
    const joined = [cell(first), cell(last)].filter(Boolean).join(' ');
    const name = cell(index.name) ?? (joined || companyName);
    if (!name) refused.push({ row, field: 'name', reason: 'no name (nor company)' });
    const email = cell(index.email);
    if (email !== null && !isEmail(email))
      refused.push({ row, field: 'email', reason: `"${email}" is not an e-mail address` });
    const phone = cell(index.phone);
    const e164 = phone === null ? null : (phoneE164(phone) ?? null);
    if (phone !== null && e164 === null)
      refused.push({ row, field: 'phone', reason: `"${phone}" is not a phone number` });
    const valueCell = cell(index.estimatedValue);
    const value = valueCell === null ? null : (valueText(valueCell) ?? null);
    if (valueCell !== null && value === null)
      refused.push({
        row,
        field: 'estimatedValue',
        reason: `"${valueCell}" is not an amount (at most two decimals)`,
      });
    if (refused.length) {
      errors.push(...refused);
      continue;
    }
    good.push({
      row,
      name: name!.slice(0, 200),
      companyName,
      email,
      phone,
      phoneE164: e164,
      source: cell(index.source),
      notes: cell(index.notes),
      estimatedValue: value,
      tags: tagsOf((cell(index.tags) ?? '').split(/[,;|]/)),
    });
  }
  return { rows, good, errors };
}
