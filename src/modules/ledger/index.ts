// The ledger module's public surface: the posting service every module calls, the chart's
// system accounts and account codes, VAT on a date and on a document's lines, and the checks
// made before posting (the bank account, the currency). Routes are in routes.ts.
export { nextBankAccountCode, type SystemBankAccount, systemBankAccount } from './account-codes.ts';
export {
  type AccountTotal,
  accountTotals,
  cashFlowTotals,
  costCentreTotals,
  type DayRange,
  splitRange,
  type TaxTotal,
  taxTotals,
} from './balances.ts';
export { assertCostCentre, type CostCentre, costCentreOf } from './cost-centres.service.ts';
export { assertBaseCurrency, bankAccount } from './document-checks.ts';
// The VAT and rounding of a document's lines, for every module that prices lines.
export {
  assertNotBelowZero,
  type DocumentTotals,
  documentTotals,
  type LineAmounts,
  lineAmounts,
  lineTaxCode,
  lineVat,
  rateOfCode,
  type SalesTaxCode,
  type VatLineInput,
} from './document-vat.ts';
export { TaxCode as TaxCodeSchema } from './journals.schemas.ts';
export {
  isOutputTaxCode,
  OUTPUT_TAX_CODES,
  STANDARD_CODES as STANDARD_RATED_TAX_CODES,
} from './journals.vat.ts';
export type { AccountSubtype, AccountType, TaxCode } from './ledger.tables.ts';
export {
  applyLegalForm,
  assertOpenPeriod,
  type LedgerCtx,
  ledgerCtxOf,
  type Posting,
  type PostingLine,
  post,
  reversalOf,
  reverse,
  seedDefaultChart,
  systemAccount,
} from './posting.ts';
export { type TaxedAmount, vatLinesByCode } from './vat-lines.ts';
export { vatRegisteredOn } from './vat-registration.ts';
