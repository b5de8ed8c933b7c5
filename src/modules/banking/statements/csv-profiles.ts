// How each South African bank's CSV export reads: which column is what, the date format, the sign
// convention and the rows before the header. A user's own mapping (bank_csv_mappings) has the
// same shape. Columns are named by their header (matched without case or spaces) or by index
// (0-based) for a file without a header row.
import type { DateFormat } from './types.ts';

export type Column = string | number;

export const SIGN_CONVENTIONS = ['signed', 'debit_credit'] as const;
/**
 * signed: one amount column, negative for money out. debit_credit: money out and money in in
 * columns of their own (their sign ignored), plus a fee or charge column counted as money out.
 */
export type SignConvention = (typeof SIGN_CONVENTIONS)[number];

export interface CsvMapping {
  columns: {
    date: Column;
    valueDate?: Column;
    description: Column | Column[];
    reference?: Column;
    payee?: Column;
    amount?: Column;
    debit?: Column;
    credit?: Column;
    fee?: Column;
    balance?: Column;
  };
  dateFormat: DateFormat;
  sign: SignConvention;
  /** Rows before the header (or the first line when header is false). */
  skipRows: number;
  /** Whether a header row names the columns (default true). */
  header?: boolean;
  decimalSeparator?: '.' | ',';
  delimiter?: ',' | ';' | '\t';
  /** Only rows whose column holds this (Standard Bank's HIST records). */
  rowsWhere?: { column: Column; equals: string };
}

export const CSV_PROFILES = ['fnb', 'absa', 'standard_bank', 'nedbank', 'capitec', 'investec'] as const;
export type CsvProfile = (typeof CSV_PROFILES)[number];

export const PROFILES: Record<CsvProfile, CsvMapping> = {
  // FNB Online Banking "Download (CSV)": three preamble rows (account, description, period), a
  // header Date, Amount, Balance, Description; dates 2026/03/02; one signed amount.
  fnb: {
    columns: { date: 'Date', amount: 'Amount', balance: 'Balance', description: 'Description' },
    dateFormat: 'YYYY/MM/DD',
    sign: 'signed',
    skipRows: 0,
  },
  // ABSA "Transaction history" CSV: Date, Description, Charge, Debit Amount, Credit Amount,
  // Balance; dates 20260302; a bank charge in its own column.
  absa: {
    columns: {
      date: 'Date',
      description: 'Description',
      fee: 'Charge',
      debit: 'Debit Amount',
      credit: 'Credit Amount',
      balance: 'Balance',
    },
    dateFormat: 'YYYYMMDD',
    sign: 'debit_credit',
    skipRows: 0,
  },
  // Standard Bank "CSV (statement)": record-typed rows with no header (ACC-NO, OPEN, HIST, CLOSE);
  // a HIST row is HIST,date,,amount,kind,detail,balance.
  standard_bank: {
    columns: { date: 1, amount: 3, description: [4, 5], balance: 6 },
    dateFormat: 'YYYYMMDD',
    sign: 'signed',
    skipRows: 0,
    header: false,
    rowsWhere: { column: 0, equals: 'HIST' },
  },
  // Nedbank NetBank "Export (CSV)": Date, Description, Fees, Debits, Credits, Balance; 02/03/2026.
  nedbank: {
    columns: {
      date: 'Date',
      description: 'Description',
      fee: 'Fees',
      debit: 'Debits',
      credit: 'Credits',
      balance: 'Balance',
    },
    dateFormat: 'DD/MM/YYYY',
    sign: 'debit_credit',
    skipRows: 0,
  },
  // Capitec app "Export transactions": Nr, Account, Posting Date, Transaction Date, Description,
  // Original Description, Parent Category, Category, Money In, Money Out, Fee, Balance.
  capitec: {
    columns: {
      date: 'Posting Date',
      valueDate: 'Transaction Date',
      description: 'Description',
      credit: 'Money In',
      debit: 'Money Out',
      fee: 'Fee',
      balance: 'Balance',
    },
    dateFormat: 'YYYY-MM-DD',
    sign: 'debit_credit',
    skipRows: 0,
  },
  // Investec Online "Export to CSV": Account Number, Posting Date, Value Date, Description, Type,
  // Amount, Balance; dates 02/03/2026; one signed amount.
  investec: {
    columns: {
      date: 'Posting Date',
      valueDate: 'Value Date',
      description: 'Description',
      reference: 'Type',
      amount: 'Amount',
      balance: 'Balance',
    },
    dateFormat: 'DD/MM/YYYY',
    sign: 'signed',
    skipRows: 0,
  },
};
