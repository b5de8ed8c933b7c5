// VAT tags on a manual journal's lines must be ones that can be right (issue 14, item 10). A line
// carries a tax code and rate (journals.schemas.ts); the VAT report pairs, per code and rate, the
// lines on the VAT input and output accounts (the tax) with every other line of that code and rate
// (the net it taxes). A manual journal is checked the same way, inside itself:
//   * a tagged line's rate is its code's rate on the journal's date: the standard rate (15%, 14%
//     before 2018-04-01, VAT Act s7(1); platform/money/vat-rate.ts) for the STANDARD_CODES below;
//     0 for zero, zero_export, exempt, input_zero, input_exempt;
//   * nothing is tagged when the company is not VAT-registered on that date (no output tax to
//     charge, no input tax to claim: s16(2), s20);
//   * an output code's tax sits on the VAT output account, an input code's on VAT input;
//   * per code and rate, the tax equals the rate times the tagged net, within half a cent per net
//     line: each net line stands for a line or a document whose VAT was rounded once (SARS lets a
//     vendor round per line or per invoice), and one rounding moves an amount by at most half a
//     cent, so n net lines may drift n half-cents from the exact tax, and no more (issue 34, item
//     20: a whole cent per line let through VAT no rounding gives, 15.01 on 100.00; a document
//     rounded per line is entered with its lines); accommodation_long's tax is the rate of 60% of
//     the net (s10(10)); a zero or exempt
//     code carries no tax. input_import and input_capital_import are left out of the pairing:
//     import VAT is levied by customs on the customs value plus 10% (s13(2)), which is not a net
//     line of the journal; so is imported_services, whose value was paid to a supplier abroad
//     with no VAT (s7(1)(c)): the recipient declares the tax alone.
import type { Decimal } from 'decimal.js';
import type { Tx } from '../../platform/db/tenant.ts';
import { badRequest } from '../../platform/http/problem.ts';
import { cents, Money, money, ZERO } from '../../platform/money/money.ts';
import { LONG_STAY_SHARE, standardRate } from '../../platform/money/vat-rate.ts';
import { TAX_CODES } from './journals.schemas.ts';
import type { TaxCode } from './ledger.tables.ts';

/** The output tax codes (VAT201 fields 1-13): every code but the input_ ones (fields 14-19). */
export const OUTPUT_TAX_CODES: readonly TaxCode[] = TAX_CODES.filter((c) => !c.startsWith('input_'));

/** The codes charged at the standard rate of the date. */
export const STANDARD_CODES: readonly TaxCode[] = [
  'standard',
  'standard_capital',
  'accommodation_short',
  'accommodation_long',
  'change_in_use',
  'imported_services',
  'input_standard',
  'input_capital',
  'input_import',
  'input_capital_import',
  'input_change_in_use',
  'input_other',
];

/** What one rounding to cents can move an amount by. */
const HALF_CENT = new Money('0.005');

/** Codes whose tax is not paired with a net line of the journal (see the head of this file). */
const UNPAIRED: readonly TaxCode[] = ['input_import', 'input_capital_import', 'imported_services'];

export const isOutputTaxCode = (code: TaxCode) => OUTPUT_TAX_CODES.includes(code);

/** The rate (percent) a tax code has on a date. */
export function taxCodeRate(code: TaxCode, date: string): Decimal {
  if (!STANDARD_CODES.includes(code)) return ZERO;
  return standardRate(date);
}

export interface TaggedLine {
  debit: number;
  credit: number;
  taxCode?: TaxCode | undefined;
  taxRate?: number | undefined;
  /** The account's system key when it is vat_input or vat_output. */
  vatAccount: 'vat_input' | 'vat_output' | null;
}

const field = (i: number, name: string) => `lines[${i}].${name}`;
const pct = (d: Decimal) => `${d.toString()}%`;

/**
 * Refuses, with a 400 naming the line, VAT tags that cannot be right on a journal dated `date`
 * of a company whose registration on that date is `registered`.
 */
export function checkJournalVat(lines: TaggedLine[], date: string, registered: boolean): void {
  const groups = new Map<string, { code: TaxCode; rate: Decimal; net: number[]; vat: number[] }>();
  for (const [i, l] of lines.entries()) {
    if (!l.taxCode) continue;
    if (l.taxCode === 'input_bad_debt' || l.taxCode === 'bad_debt_recovered')
      throw badRequest(
        field(i, 'taxCode'),
        `${l.taxCode} is posted by writing off an invoice (POST /api/invoices/{id}/write-off) or recovering ` +
          'it (…/write-off/recover), which take the VAT from the invoice itself (s22), not by a manual journal',
      );
    if (!registered)
      throw badRequest(
        field(i, 'taxCode'),
        `the company is not VAT-registered on ${date}: it charges and claims no VAT, so no line carries a tax code`,
      );
    const rate = taxCodeRate(l.taxCode, date);
    if (!money(l.taxRate).equals(rate))
      throw badRequest(
        field(i, 'taxRate'),
        `${l.taxCode} is ${pct(rate)} on ${date}` +
          (STANDARD_CODES.includes(l.taxCode) ? ' (15% from 2018-04-01, 14% before)' : ''),
      );
    const output = isOutputTaxCode(l.taxCode);
    if (l.vatAccount && l.vatAccount !== (output ? 'vat_output' : 'vat_input'))
      throw badRequest(
        field(i, 'taxCode'),
        `${l.taxCode} is ${output ? 'output' : 'input'} tax: its VAT line belongs on the VAT ${output ? 'output' : 'input'} account`,
      );
    const key = `${l.taxCode}|${rate.toString()}`;
    const g = groups.get(key) ?? { code: l.taxCode, rate, net: [], vat: [] };
    (l.vatAccount ? g.vat : g.net).push(i);
    groups.set(key, g);
  }
  for (const g of groups.values()) {
    if (UNPAIRED.includes(g.code)) continue;
    const output = isOutputTaxCode(g.code);
    // Output: credit − debit; input: debit − credit (as the VAT report reads them).
    const signed = (i: number) => {
      const l = lines[i]!;
      const d = money(l.debit).minus(l.credit);
      return output ? d.negated() : d;
    };
    const net = g.net.reduce((s, i) => s.plus(signed(i)), ZERO);
    const vat = g.vat.reduce((s, i) => s.plus(signed(i)), ZERO);
    const taxed = g.code === 'accommodation_long' ? net.times(LONG_STAY_SHARE) : net;
    // The exact tax, unrounded, and what rounding each net line once can move it by.
    const exact = taxed.times(g.rate).dividedBy(100);
    const expected = cents(exact);
    const tolerance = HALF_CENT.times(Math.max(1, g.net.length));
    if (vat.minus(exact).abs().lessThanOrEqualTo(tolerance)) continue;
    const share = g.code === 'accommodation_long' ? '60% of ' : '';
    const label = `${g.code} at ${pct(g.rate)}`;
    if (g.rate.isZero()) {
      const i = g.vat[0]!;
      throw badRequest(
        field(i, 'taxCode'),
        `${label} carries no VAT, but this VAT line is ${vat.abs().toFixed(2)}`,
      );
    }
    if (!g.vat.length) {
      const i = g.net[0]!;
      throw badRequest(
        field(i, 'taxCode'),
        `the net ${net.toFixed(2)} tagged ${label} needs its VAT of ${expected.toFixed(2)} on the VAT ` +
          `${output ? 'output' : 'input'} account, tagged the same, in this journal`,
      );
    }
    const i = g.vat[0]!;
    const side = lines[i]!.debit > 0 ? 'debit' : 'credit';
    throw badRequest(
      field(i, g.net.length ? side : 'taxCode'),
      g.net.length
        ? `the VAT tagged ${label} is ${vat.toFixed(2)}, but ${pct(g.rate)} of ${share}the net ${net.toFixed(2)} tagged ` +
            `the same is ${expected.toFixed(2)} (within half a cent per net line: the most that rounding each ` +
            "net line's VAT once can make)"
        : `no net line of this journal is tagged ${label}: VAT is ${pct(g.rate)} of the net it taxes, tagged ` +
            'with the same code and rate',
    );
  }
}

/** Which of the accounts are the VAT input and output accounts (by system key). */
export async function vatAccountsOf(
  tx: Tx,
  tenantId: string,
  companyId: string,
  accountIds: string[],
): Promise<Map<string, 'vat_input' | 'vat_output'>> {
  const rows = await tx
    .selectFrom('accounts')
    .select(['id', 'system_key'])
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('id', 'in', accountIds)
    .where('system_key', 'in', ['vat_input', 'vat_output'])
    .execute();
  return new Map(rows.map((r) => [r.id, r.system_key as 'vat_input' | 'vat_output']));
}
