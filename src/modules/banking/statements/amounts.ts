// Money as banks write it, read with what the whole file says rather than cell by cell.
//
// One cell cannot tell "1,234" (a thousand) from "1,234" (one and a bit): the file can. Every
// amount and balance of a file is scanned first (scanMoney), the decimal mark is decided from all
// of them (decideDecimalMark: "1.234,56" and "50,00" say comma, "1,234.56" and "50.00" say point),
// and only then is each cell read, strictly (readMoney: thousands in groups of three, at most two
// decimals), so that a cell the decision does not fit is an error on its row, never money 100x
// too large. A file whose cells say both, or only what could be either, is not guessed.
//
// Signs: a leading or trailing minus, brackets, or a Cr / Dr beside an unsigned amount. Where a
// statement marks its credits (FNB: "1,200.00 Cr" and a bare "50.00" for money out) a bare amount
// is a debit: unmarkedMeaning decides that per column, from all of its cells.

export type DecimalMark = '.' | ',';

/**
 * An amount already in the one spelling readMoney answers with a decimal point ("-1234.50": two
 * decimals, no leading zero, the sign in front): most cells of most files, and every amount the
 * parsers hand on, so that it is its own key and needs no scan.
 */
export const PLAIN_AMOUNT = /^-?(0|[1-9]\d*)\.\d\d$/;

/** A money cell taken apart: the number as written, and what its sign and marker said. */
export interface MoneyCell {
  /** Digits and separators only: "1 234,56". */
  body: string;
  /** An explicit sign: a minus (leading, trailing or brackets) or a plus; null when none. */
  sign: '-' | '+' | null;
  /** A Cr or Dr written beside it. */
  marker: 'cr' | 'dr' | null;
}

// Characters that only ever group thousands: spaces (plain, no-break, narrow no-break) and
// apostrophes (Swiss style).
const GROUPING = /[\s\u00a0\u202f'\u2019]/g;
const BODY = /^\d[\d.,\s\u00a0\u202f'\u2019]*$/;
const MARKER_AFTER = /^(.*?)\s*(cr|dr)\.?$/i;
const MARKER_BEFORE = /^(cr|dr)\.?\s+(.*)$/i;
const CURRENCY_BEFORE = /^(?:ZAR|R)\s*(?=[\d+-])/i;
const CURRENCY_AFTER = /\s*(?:ZAR|R)$/i;

/** The cell taken apart, or null when it is not a money text at all ("six", "n/a"). */
export function scanMoney(raw: string | undefined | null): MoneyCell | null {
  if (raw == null) return null;
  let s = raw.trim();
  if (!s) return null;
  let sign: MoneyCell['sign'] = null;
  let marker: MoneyCell['marker'] = null;
  const setSign = (x: '-' | '+') => {
    if (sign && sign !== x) return false;
    sign = x;
    return true;
  };
  if (s.startsWith('(') && s.endsWith(')')) {
    sign = '-';
    s = s.slice(1, -1).trim();
  }
  const after = MARKER_AFTER.exec(s);
  const before = MARKER_BEFORE.exec(s);
  if (after && /[\d)]$/.test(after[1]!.trim())) {
    marker = after[2]!.toLowerCase() as 'cr' | 'dr';
    s = after[1]!.trim();
  } else if (before) {
    marker = before[1]!.toLowerCase() as 'cr' | 'dr';
    s = before[2]!.trim();
  }
  if (s.startsWith('(') && s.endsWith(')')) {
    if (!setSign('-')) return null;
    s = s.slice(1, -1).trim();
  }
  // A sign and a currency in either order before the number ("-R50", "R -50"), or a sign after it.
  for (let i = 0; i < 2; i++) {
    if (/^[-+]/.test(s)) {
      if (!setSign(s[0] as '-' | '+')) return null;
      s = s.slice(1).trim();
    }
    s = s.replace(CURRENCY_BEFORE, '');
  }
  s = s.replace(CURRENCY_AFTER, '');
  if (/[-+]$/.test(s)) {
    if (!setSign(s.at(-1) as '-' | '+')) return null;
    s = s.slice(0, -1).trim();
  }
  if (!BODY.test(s)) return null;
  return { body: s, sign, marker };
}

/**
 * What one number says of the decimal mark: '.' or ',' when it can only be that, 'either' when it
 * could be both ("1,234", "1.234"), null when it has no mark at all ("1234", "1 234").
 */
export function markEvidence(body: string): DecimalMark | 'either' | null {
  const b = body.replace(GROUPING, '');
  const dot = b.lastIndexOf('.');
  const comma = b.lastIndexOf(',');
  if (dot < 0 && comma < 0) return null;
  // Both: the last one is the decimal mark ("1.234,56", "1,234.56").
  if (dot >= 0 && comma >= 0) return dot > comma ? '.' : ',';
  const mark: DecimalMark = dot >= 0 ? '.' : ',';
  const parts = b.split(mark);
  // The same mark twice can only group thousands ("1.234.567"): the decimal mark is the other.
  if (parts.length > 2) return mark === '.' ? ',' : '.';
  const [whole, fraction] = parts as [string, string];
  // Three digits after one mark, after one to three digits that are not a lone zero: a thousands
  // separator or a decimal mark, the number cannot say which.
  if (fraction.length === 3 && whole.length <= 3 && whole !== '0' && !/\s/.test(body)) return 'either';
  return mark;
}

export type MarkDecision =
  | { mark: DecimalMark }
  | { ambiguous: string[] }
  | { conflicting: { point: string; comma: string } };

/** The file's decimal mark, from every money cell in it. */
export function decideDecimalMark(bodies: Iterable<string>): MarkDecision {
  let point: string | undefined;
  let comma: string | undefined;
  const either: string[] = [];
  for (const body of bodies) {
    const e = markEvidence(body);
    if (e === '.') point ??= body;
    else if (e === ',') comma ??= body;
    else if (e === 'either' && either.length < 3) either.push(body);
  }
  if (point && comma) return { conflicting: { point, comma } };
  if (point) return { mark: '.' };
  if (comma) return { mark: ',' };
  if (either.length) return { ambiguous: either };
  return { mark: '.' };
}

/** Words for a decision that is not a mark: what the user is told. */
export function markProblem(d: Exclude<MarkDecision, { mark: DecimalMark }>): string {
  if ('conflicting' in d)
    return (
      `the amounts use both marks: "${d.conflicting.point}" has a decimal point, ` +
      `"${d.conflicting.comma}" a decimal comma`
    );
  return (
    `every amount with a mark could be read two ways (${d.ambiguous.map((a) => `"${a}"`).join(', ')}: ` +
    'a thousands separator or a decimal mark)'
  );
}

/**
 * The number as "-1234.50" (two decimals, sign in front), with the file's decimal mark; null when
 * the cell does not fit it: thousands not in groups of three, two decimal marks, or cents below a
 * cent ("1.234" with a decimal point: three decimals, not a thousand).
 */
export function readNumber(body: string, mark: DecimalMark): string | null {
  const parts = body.split(mark);
  if (parts.length > 2) return null;
  const [rawWhole, fraction = ''] = parts as [string, string?];
  let whole = rawWhole;
  if (!/^\d+$/.test(whole)) {
    // Grouped: one separator throughout, groups of three after the first group of one to three.
    const sep = whole.replace(/\d/g, '')[0]!;
    const group = new RegExp(`^\\d{1,3}(?:${sep === '.' ? '\\.' : sep}\\d{3})+$`);
    if (sep === mark || !group.test(whole)) return null;
    whole = whole.split(sep).join('');
  }
  if (fraction && !/^\d+$/.test(fraction)) return null;
  if (fraction.length > 2 && /[1-9]/.test(fraction.slice(2))) return null;
  const cents = fraction.slice(0, 2).padEnd(2, '0');
  return `${whole.replace(/^0+(?=\d)/, '')}.${cents}`;
}

/** How a column's unsigned, unmarked amounts read: as written, or as the kind the column does not mark. */
export type Unmarked = 'plain' | 'debit' | 'credit';

/**
 * How a column's bare amounts read. South African statements mark credits ("1,200.00 Cr") and
 * leave debits bare, the balance column marking both ("14,950.00 Cr", "50.00 Dr"): so a column
 * with Cr markers means money out by a bare amount, whether or not some amounts also say Dr; one
 * with Dr markers only means money in; one with none reads as written, unless the file marks its
 * balances (`marksElsewhere`): then its amounts follow the statement's convention too (a file of
 * debits only has no Cr to show). A column with minus signs reads as written.
 */
export function unmarkedMeaning(
  cells: Iterable<MoneyCell | null | undefined>,
  marksElsewhere = false,
): Unmarked {
  let cr = false;
  let dr = false;
  for (const c of cells) {
    if (!c) continue;
    if (c.sign === '-' && !c.marker) return 'plain';
    if (c.marker === 'cr') cr = true;
    else if (c.marker === 'dr') dr = true;
  }
  if (cr) return 'debit';
  if (dr) return 'credit';
  return marksElsewhere ? 'debit' : 'plain';
}

/** Whether any cell carries a Cr or Dr. */
export const hasMarkers = (cells: Iterable<MoneyCell | null | undefined>) => {
  for (const c of cells) if (c?.marker) return true;
  return false;
};

/**
 * The signed amount ("-1234.50") of a scanned cell; null when the number does not fit the mark,
 * or its sign and marker contradict each other ("-50.00 Cr").
 */
export function readMoney(cell: MoneyCell, mark: DecimalMark, unmarked: Unmarked = 'plain'): string | null {
  const n = readNumber(cell.body, mark);
  if (n == null) return null;
  let negative: boolean;
  if (cell.marker) {
    // "-50.00 Dr" says money out twice; "-50.00 Cr" and "+50.00 Dr" contradict themselves.
    if (cell.sign && (cell.sign === '-') !== (cell.marker === 'dr')) return null;
    negative = cell.marker === 'dr';
  } else if (cell.sign) negative = cell.sign === '-';
  else negative = unmarked === 'debit';
  return negative && !/^0\.00$/.test(n) ? `-${n}` : n;
}

/** One value read on its own (a CAMT amount, a setting): the mark given, or decided from itself. */
export function moneyText(raw: string | undefined | null, mark?: DecimalMark): string | null {
  const cell = scanMoney(raw);
  if (!cell) return null;
  if (mark) return readMoney(cell, mark);
  const e = markEvidence(cell.body);
  return readMoney(cell, e === ',' ? ',' : '.');
}
