// Aged debtors and creditors for the company of the header: the contacts module's rows (its
// aging logic, not a copy), printed with a total row.
import type { Static } from 'typebox';
import type { Row } from '../../platform/files/table.ts';
import { money, sum } from '../../platform/money/money.ts';
import { type AgedRow, agedReport } from '../contacts/index.ts';
import { asAtText, documentOf, type Report, type ReportCtx } from './reports.context.ts';

export type AgedKind = 'debtors' | 'creditors';

export async function aged(
  rc: ReportCtx,
  kind: AgedKind,
  asOf: string,
): Promise<Report<Static<typeof AgedRow>[]>> {
  const rows = await agedReport(rc.ctx, kind === 'debtors' ? 'debtors_control' : 'creditors_control', {
    asOf,
    companyId: rc.companyId,
  });
  const buckets = [
    'current',
    'days30',
    'days60',
    'days90',
    'days120',
    'older',
    'unapplied',
    'total',
  ] as const;
  const totals = buckets.map((b) => sum(rows.map((r) => money(r[b]))));
  return {
    json: rows,
    document: () =>
      documentOf(rc, {
        title: kind === 'debtors' ? 'Aged debtors' : 'Aged creditors',
        period: asAtText(asOf),
        filename: `aged-${kind}_${asOf}`,
        notes: [
          kind === 'debtors'
            ? 'What each customer owes, by days past the due date; credit notes and overpayments not yet ' +
              'applied are unapplied credit, in no bucket.'
            : 'What is owed to each supplier, by days past the due date; supplier credit notes and overpaid ' +
              'bills not yet applied are unapplied credit, in no bucket.',
        ],
        tables: [
          {
            columns: [
              { label: 'Contact', width: 3.2 },
              { label: 'Current', kind: 'money', width: 1.2 },
              { label: '1-30 days', kind: 'money', width: 1.2 },
              { label: '31-60 days', kind: 'money', width: 1.2 },
              { label: '61-90 days', kind: 'money', width: 1.2 },
              { label: '91-120 days', kind: 'money', width: 1.2 },
              { label: 'Over 120 days', kind: 'money', width: 1.2 },
              { label: 'Unapplied credit', kind: 'money', width: 1.2 },
              { label: 'Total', kind: 'money', width: 1.3 },
            ],
            rows: [
              ...rows.map((r): Row => ({ cells: [r.contactName, ...buckets.map((b) => money(r[b]))] })),
              { cells: ['Total', ...totals], style: 'grand' },
            ],
          },
        ],
      }),
  };
}
