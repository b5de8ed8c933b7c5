// The VAT lines of a document's entry: one per tax code and rate, so that the VAT return reads
// each field from them (a sale's output tax, a bill's input tax). Shared by every module that
// posts a taxed document.
import type { Decimal } from 'decimal.js';
import { sum } from '../../platform/money/money.ts';
import type { TaxCode } from './ledger.tables.ts';
import type { PostingLine } from './posting.ts';

export interface TaxedAmount {
  code: TaxCode;
  rate: Decimal;
  vat: Decimal;
}

/**
 * One line per code and rate on the VAT account (`account` is asked only when there is VAT),
 * each on the side `side` gives its sum; nothing for a group that sums to zero.
 */
export async function vatLinesByCode(
  taxed: TaxedAmount[],
  account: () => Promise<string>,
  side: (amount: Decimal) => { debit: Decimal } | { credit: Decimal },
  label: string,
): Promise<PostingLine[]> {
  const groups = new Map<string, { code: TaxCode; rate: Decimal; amounts: Decimal[] }>();
  for (const t of taxed) {
    if (t.vat.isZero()) continue;
    const k = `${t.code}:${t.rate.toFixed(3)}`;
    const group = groups.get(k) ?? { code: t.code, rate: t.rate, amounts: [] };
    group.amounts.push(t.vat);
    groups.set(k, group);
  }
  const accountId = groups.size ? await account() : '';
  const out: PostingLine[] = [];
  for (const g of groups.values()) {
    const amount = sum(g.amounts);
    if (amount.isZero()) continue;
    out.push({
      accountId,
      ...side(amount),
      description: `VAT ${g.rate.toNumber()}% on ${label}`,
      taxCode: g.code,
      taxRate: g.rate,
    });
  }
  return out;
}
