// How each South African bank's CSV exports read. A bank has written more than one layout over the
// years and between its apps (ABSA's signed "Amount" beside its Charge / Debit / Credit columns;
// Standard Bank's record-typed HIST rows beside a header with Payments and Deposits), and names a
// column more than one way ("Description", "Transaction Description"; "Money In", "Money In (R)").
// So a profile is a list of layouts, each naming every role by all the headers it goes by, with the
// date formats the bank writes; the one the file uses is found from its header, and the date
// format and decimal mark from its rows (csv.ts). A user's own mapping (bank_csv_mappings) names
// each column once.
import type { DateFormat } from './types.ts';

export type Column = string | number;

export const SIGN_CONVENTIONS = ['signed', 'debit_credit'] as const;
/**
 * signed: one amount column, negative for money out. debit_credit: money out and money in in
 * columns of their own (their sign ignored), plus a fee or charge column counted as money out.
 */
export type SignConvention = (typeof SIGN_CONVENTIONS)[number];

export const DECIMAL_SEPARATORS = ['auto', '.', ','] as const;
/** auto: decided from every amount and balance in the file. */
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

/** The columns of one file, each named once: what the reader reads with. */
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
  /** Formats the bank writes, the file's own decided from its dates (a profile's; dateFormat is the first). */
  dateFormats?: readonly DateFormat[];
  sign: SignConvention;
  /** Rows before the header (or the first line when header is false). */
  skipRows: number;
  /** Whether a header row names the columns (default true). */
  header?: boolean;
  decimalSeparator?: DecimalSeparator;
  delimiter?: ',' | ';' | '\t';
  /** Only rows whose column holds this (Standard Bank's HIST records). */
  rowsWhere?: { column: Column; equals: string };
}

export const CSV_PROFILES = ['fnb', 'absa', 'standard_bank', 'nedbank', 'capitec', 'investec'] as const;
export type CsvProfile = (typeof CSV_PROFILES)[number];

export const BANK_NAMES: Record<CsvProfile, string> = {
  fnb: 'FNB',
  absa: 'ABSA',
  standard_bank: 'Standard Bank',
  nedbank: 'Nedbank',
  capitec: 'Capitec',
  investec: 'Investec',
};

/** The headers a role goes by, any of them. */
type Names = readonly string[];

/** One layout of a bank's export, found by its header. */
export interface HeaderLayout {
  name: string;
  columns: {
    date: Names;
    valueDate?: Names;
    /** Each column joined into the description when the file has it; the first is required. */
    description: readonly Names[];
    reference?: Names;
    payee?: Names;
    amount?: Names;
    debit?: Names;
    credit?: Names;
    fee?: Names;
    balance?: Names;
  };
  dateFormats: readonly DateFormat[];
}

/** A layout with no header: its mapping whole (Standard Bank's record-typed rows). */
export interface RecordLayout {
  name: string;
  mapping: CsvMapping;
}

export type Layout = HeaderLayout | RecordLayout;

/** How headers compare: case, spaces, punctuation and a currency in brackets ("Fees (R)") ignored. */
export const headerKey = (s: string) =>
  s
    .toLowerCase()
    .replace(/\((?:r|zar)\)/g, '')
    .replace(/[^a-z0-9]/g, '');

// Each bank's internet banking also runs in Afrikaans, and exports its headers so: Datum,
// Beskrywing, Bedrag, Saldo.
const DESCRIPTION = [
  'Description',
  'Transaction Description',
  'Narrative',
  'Details',
  'Beskrywing',
  'Transaksiebeskrywing',
  'Omskrywing',
];
const BALANCE = ['Balance', 'Running Balance', 'Bal', 'Saldo', 'Lopende Saldo'];
const DATE = ['Date', 'Transaction Date', 'Datum', 'Transaksiedatum'];
const AMOUNT = ['Amount', 'Bedrag'];

export const LAYOUTS: Record<CsvProfile, readonly Layout[]> = {
  // FNB Online Banking "Download (CSV)": preamble rows (account, period, opening balance), then
  // Date, Amount, Balance, Description; dates 2026/03/02 or 02 Mar 2026; one amount, signed, or
  // unsigned with Cr on the credits only (the reader tells which from the column).
  fnb: [
    {
      name: 'FNB transactions download',
      columns: {
        date: DATE,
        amount: AMOUNT,
        balance: BALANCE,
        description: [DESCRIPTION],
      },
      dateFormats: ['YYYY/MM/DD', 'DD MMM YYYY', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
  ],
  absa: [
    // ABSA "Transaction history" export: Date, Description, Amount, Balance; 20260302; one signed amount.
    {
      name: 'ABSA transaction history (signed amount)',
      columns: { date: DATE, description: [DESCRIPTION], amount: AMOUNT, balance: BALANCE },
      dateFormats: ['YYYYMMDD', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
    // The older layout: a bank charge, money out and money in in columns of their own.
    {
      name: 'ABSA transaction history (charge, debit and credit columns)',
      columns: {
        date: DATE,
        description: [DESCRIPTION],
        fee: ['Charge', 'Charges', 'Koste', 'Fooie'],
        debit: ['Debit Amount', 'Debit', 'Debietbedrag', 'Debiet'],
        credit: ['Credit Amount', 'Credit', 'Kredietbedrag', 'Krediet'],
        balance: BALANCE,
      },
      dateFormats: ['YYYYMMDD', 'DD/MM/YYYY', 'YYYY-MM-DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
  ],
  standard_bank: [
    // "CSV (statement)": record-typed rows with no header (ACC-NO, OPEN, HIST, CLOSE); a HIST row
    // is HIST,date,,amount,kind,detail,balance.
    {
      name: 'Standard Bank statement records (HIST rows)',
      mapping: {
        columns: { date: 1, amount: 3, description: [4, 5], balance: 6 },
        dateFormat: 'YYYYMMDD',
        sign: 'signed',
        skipRows: 0,
        header: false,
        rowsWhere: { column: 0, equals: 'HIST' },
      },
    },
    // Online banking's transaction export: Date, Description, Payments, Deposits, Balance.
    {
      name: 'Standard Bank transactions (payments and deposits)',
      columns: {
        date: DATE,
        description: [DESCRIPTION],
        debit: ['Payments', 'Payment', 'Betalings'],
        credit: ['Deposits', 'Deposit', "Deposito's", 'Deposito'],
        fee: ['Fees', 'Charges', 'Fooie'],
        balance: BALANCE,
      },
      dateFormats: [
        'DD/MM/YYYY',
        'YYYY/MM/DD',
        'DD MMM YYYY',
        'YYYY-MM-DD',
        'YYYYMMDD',
        'DD/MM/YY',
        'MM/DD/YYYY',
      ],
    },
  ],
  // Nedbank NetBank "Export (CSV)": [Tranlistno,] Date, Description, Fees, Debits, Credits, Balance,
  // the money columns also as "Fees(R)" and the like; 02/03/2026.
  nedbank: [
    {
      name: 'Nedbank NetBank export',
      columns: {
        date: DATE,
        description: [DESCRIPTION],
        fee: ['Fees', 'Fee', 'Fooie'],
        debit: ['Debits', 'Debit', 'Debiete', 'Debiet'],
        credit: ['Credits', 'Credit', 'Krediete', 'Krediet'],
        balance: BALANCE,
      },
      dateFormats: ['DD/MM/YYYY', 'YYYY/MM/DD', 'DD MMM YYYY', 'YYYY-MM-DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
  ],
  // Capitec app "Export transactions": Nr, Account, Posting Date, Transaction Date, Description,
  // Original Description, Parent Category, Category, Money In, Money Out, Fee, Balance; the newer
  // export writes "Money In (R)" with DD/MM/YYYY and "R 1 234.56".
  capitec: [
    {
      name: 'Capitec transaction export',
      columns: {
        date: ['Posting Date', 'Date'],
        valueDate: ['Transaction Date'],
        description: [DESCRIPTION],
        credit: ['Money In'],
        debit: ['Money Out'],
        fee: ['Fee', 'Fees'],
        balance: BALANCE,
      },
      dateFormats: ['YYYY-MM-DD', 'DD/MM/YYYY', 'YYYY/MM/DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
  ],
  // Investec Online "Export to CSV": Account Number, Posting Date, Value Date, Description, Type,
  // Amount, Balance; dates 02/03/2026; one signed amount.
  investec: [
    {
      name: 'Investec Online export',
      columns: {
        date: ['Posting Date', 'Transaction Date'],
        valueDate: ['Value Date'],
        description: [DESCRIPTION],
        reference: ['Type'],
        amount: ['Amount'],
        balance: BALANCE,
      },
      dateFormats: ['DD/MM/YYYY', 'YYYY-MM-DD', 'YYYY/MM/DD', 'DD/MM/YY', 'MM/DD/YYYY'],
    },
  ],
};

/**
 * The headers every CSV export goes by, whoever the bank: what a suggested mapping is made of
 * when no bank's layout reads the file.
 */
export const COMMON_HEADERS: HeaderLayout['columns'] = {
  date: [...DATE, 'Posting Date', 'Txn Date', 'Trans Date', 'Booking Date', 'Boekingsdatum'],
  valueDate: ['Value Date'],
  description: [[...DESCRIPTION, 'Memo', 'Particulars', 'Transaction', 'Payee', 'Omschrijving']],
  reference: ['Reference', 'Ref', 'Reference Number', 'Verwysing'],
  amount: [...AMOUNT, 'Transaction Amount', 'Value'],
  debit: [
    'Debit',
    'Debits',
    'Debit Amount',
    'Money Out',
    'Payments',
    'Withdrawals',
    'Paid Out',
    'Out',
    'Debiet',
  ],
  credit: ['Credit', 'Credits', 'Credit Amount', 'Money In', 'Deposits', 'Paid In', 'In', 'Krediet'],
  fee: ['Fee', 'Fees', 'Charge', 'Charges', 'Bank Charges', 'Fooie', 'Koste'],
  balance: BALANCE,
};

type Role = Exclude<keyof HeaderLayout['columns'], 'description'>;
const ROLES: readonly Role[] = [
  'date',
  'valueDate',
  'reference',
  'payee',
  'amount',
  'debit',
  'credit',
  'fee',
  'balance',
];

/**
 * The mapping a header layout gives for a header row, naming each column as the file writes it;
 * null when the row lacks a column the layout needs (the date, a description, and an amount or
 * money in or out). `found` counts the roles the row has: the better layout has more.
 */
export function resolveLayout(
  cells: readonly string[],
  layout: HeaderLayout,
): { mapping: CsvMapping; found: number } | null {
  const keys = cells.map(headerKey);
  const taken = new Set<number>();
  const pick = (names: Names | undefined): string | undefined => {
    if (!names) return undefined;
    for (const n of names) {
      const at = keys.indexOf(headerKey(n));
      if (at >= 0 && !taken.has(at)) {
        taken.add(at);
        return cells[at]!;
      }
    }
    return undefined;
  };
  const c = layout.columns;
  const columns: CsvMapping['columns'] = { date: '', description: [] };
  let found = 0;
  for (const role of ROLES) {
    const name = pick(c[role]);
    if (name !== undefined) {
      columns[role] = name;
      found++;
    }
  }
  const description = c.description.map(pick).filter((d): d is string => d !== undefined);
  if (!columns.date || description.length === 0) return null;
  const signed = columns.amount !== undefined;
  if (!signed && columns.debit === undefined && columns.credit === undefined) return null;
  if (signed) {
    // A layout with one signed amount column has no money-in or money-out columns to mix in.
    delete columns.debit;
    delete columns.credit;
  }
  columns.description = description.length === 1 ? description[0]! : description;
  return {
    mapping: {
      columns,
      dateFormat: layout.dateFormats[0]!,
      dateFormats: layout.dateFormats,
      sign: signed ? 'signed' : 'debit_credit',
      skipRows: 0,
      decimalSeparator: 'auto',
    },
    found: found + description.length,
  };
}

export const isRecordLayout = (l: Layout): l is RecordLayout => 'mapping' in l;
