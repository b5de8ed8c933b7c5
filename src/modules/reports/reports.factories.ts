// Test helpers of the reports: manual journals through the API, reports fetched as JSON, CSV
// parsed back, PDF text extracted (unpdf, offline), and postings through the posting service
// for what a manual journal may not touch (control accounts, VAT codes on documents).
import assert from 'node:assert/strict';
import type { LightMyRequestResponse } from 'fastify';
import type { as, TestApp } from '../../../test/support/app.ts';
import { parseCsv } from '../../../test/support/csv.ts';

export { pdfOf } from '../../../test/support/pdf.ts';

import { withTenant } from '../../platform/db/tenant.ts';
import { type PostingLine, post } from '../ledger/index.ts';

export type Api = ReturnType<typeof as>;

/** [account code, debit] or [account code, 0, credit]. */
export type JournalLine = [code: string, debit: number, credit?: number];

/** POST /api/ledger/journals, asserting 201. */
export async function journal(api: Api, date: string, description: string, lines: JournalLine[]) {
  const res = await api({
    method: 'POST',
    url: '/api/ledger/journals',
    payload: {
      date,
      description,
      reference: `REF-${date}`,
      lines: lines.map(([accountCode, debit, credit]) =>
        credit ? { accountCode, credit } : { accountCode, debit },
      ),
    },
  });
  assert.equal(res.statusCode, 201, res.body);
  return res.json() as { id: string };
}

/** GET a report as JSON, asserting 200. */
export async function report<T = Record<string, unknown>>(api: Api, url: string): Promise<T> {
  const res = await api({ method: 'GET', url });
  assert.equal(res.statusCode, 200, `${url}: ${res.body}`);
  assert.match(String(res.headers['content-type']), /^application\/json/);
  return res.json() as T;
}

/** The account ids of a company's chart by code. */
export async function accountIds(api: Api): Promise<Record<string, string>> {
  const res = await api({ method: 'GET', url: '/api/accounts' });
  assert.equal(res.statusCode, 200, res.body);
  return Object.fromEntries((res.json() as { id: string; code: string }[]).map((a) => [a.code, a.id]));
}

/** A posting through the posting service (documents may post to control accounts). */
export async function postEntry(
  t: TestApp,
  tenantId: string,
  companyId: string,
  date: string,
  description: string,
  lines: PostingLine[],
): Promise<string> {
  return withTenant(t.database.db, tenantId, (tx) =>
    post({ db: tx, tenantId }, { companyId, date, description, source: { type: 'test' }, lines }),
  );
}

/** A CSV answer: its type and file name checked, its records parsed. */
export function csvOf(res: LightMyRequestResponse, filename: RegExp): string[][] {
  assert.equal(res.statusCode, 200, res.body);
  assert.equal(res.headers['content-type'], 'text/csv; charset=utf-8');
  assert.match(String(res.headers['content-disposition']), /^attachment; filename="[\w.-]+\.csv"$/);
  assert.match(String(res.headers['content-disposition']), filename);
  return parseCsv(res.body);
}
