// CAMT.053 (ISO 20022 bank-to-customer statement, any version: namespaces dropped). Each Ntry is a
// line: Amt (its Ccy), CdtDbtInd (CRDT in, DBIT out), BookgDt and ValDt (Dt or DtTm), AcctSvcrRef
// kept as externalId; the first TxDtls names the other party (RltdPties: the debtor of money in,
// the creditor of money out) and the remittance text (RmtInf/Ustrd). Bal with Tp/CdOrPrtry/Cd
// OPBD and CLBD are the opening and closing balances.
import { XMLParser } from 'fast-xml-parser';
import { money } from '../../../platform/money/money.ts';
import type { StatementLine } from '../ingest.ts';
import { amountText, type ParsedStatement, type RowError, UnreadableStatement } from './types.ts';

const ARRAYS = new Set(['Stmt', 'Ntry', 'Bal', 'TxDtls', 'Ustrd', 'NtryDtls']);
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: true,
  isArray: (name) => ARRAYS.has(name),
});

type Node = Record<string, unknown>;
const node = (v: unknown): Node => (v && typeof v === 'object' ? (v as Node) : {});
const text = (v: unknown): string | undefined => {
  if (v == null) return undefined;
  if (typeof v === 'object') return text((v as Node)['#text']);
  return String(v).trim() || undefined;
};
const dateOf = (v: unknown): string | null => {
  const d = text(node(v).Dt) ?? text(node(v).DtTm);
  return d && /^\d{4}-\d{2}-\d{2}/.test(d) ? d.slice(0, 10) : null;
};

/** A signed amount: Amt with CdtDbtInd (CRDT +, DBIT -). */
function signed(amt: unknown, ind: unknown): string | null {
  const a = amountText(text(amt));
  if (a == null || a.startsWith('-')) return null;
  const i = text(ind);
  if (i === 'CRDT') return a;
  if (i === 'DBIT') return money(a).negated().toFixed(2);
  return null;
}

const partyName = (p: unknown): string | undefined => {
  const n = node(p);
  return text(n.Nm) ?? text(node(n.Pty).Nm);
};

export function parseCamt053(bytes: Uint8Array): ParsedStatement {
  const xml = new TextDecoder('utf-8').decode(bytes);
  let doc: Node;
  try {
    doc = parser.parse(xml, true) as Node;
  } catch (err) {
    throw new UnreadableStatement(`the CAMT.053 could not be read: ${(err as Error).message}`);
  }
  const stmt = (node(node(doc.Document).BkToCstmrStmt).Stmt as Node[] | undefined)?.[0];
  if (!stmt) throw new UnreadableStatement('not a CAMT.053 statement: no Document/BkToCstmrStmt/Stmt');
  const lines: StatementLine[] = [];
  const errors: RowError[] = [];
  for (const [i, e] of ((stmt.Ntry as Node[] | undefined) ?? []).entries()) {
    const line = i + 1;
    const date = dateOf(e.BookgDt);
    const amount = signed(e.Amt, e.CdtDbtInd);
    if (!date) {
      errors.push({ line, field: 'BookgDt', message: 'no booking date' });
      continue;
    }
    if (amount == null || money(amount).isZero()) {
      errors.push({ line, field: 'Amt', message: 'no amount with CdtDbtInd CRDT or DBIT' });
      continue;
    }
    const status = text(e.Sts) ?? text(node(e.Sts).Cd);
    const tx = node((node((e.NtryDtls as Node[] | undefined)?.[0]).TxDtls as Node[] | undefined)?.[0]);
    const parties = node(tx.RltdPties);
    const payee = amount.startsWith('-') ? partyName(parties.Cdtr) : partyName(parties.Dbtr);
    const ustrd = ((node(tx.RmtInf).Ustrd as unknown[] | undefined) ?? []).map(text).filter(Boolean);
    const info = text(e.AddtlNtryInf);
    const description = [payee, ...ustrd, ustrd.length ? undefined : info].filter(Boolean).join(' ');
    lines.push({
      line,
      date,
      valueDate: dateOf(e.ValDt),
      amount,
      description: description || info || '',
      reference: text(node(tx.Refs).EndToEndId) ?? text(e.NtryRef) ?? null,
      payee: payee ?? null,
      externalId: text(e.AcctSvcrRef) ?? text(node(tx.Refs).AcctSvcrRef) ?? null,
      pending: status === 'PDNG' ? true : undefined,
    });
  }
  const out: ParsedStatement = { lines: lines.filter((l) => !l.pending), errors };
  for (const b of (stmt.Bal as Node[] | undefined) ?? []) {
    const code = text(node(node(b.Tp).CdOrPrtry).Cd);
    const amount = signed(b.Amt, b.CdtDbtInd);
    if (amount == null) continue;
    if (code === 'OPBD' || code === 'PRCD') out.openingBalance ??= amount;
    if (code === 'CLBD') out.closingBalance = amount;
  }
  const period = node(stmt.FrToDt);
  const from = text(period.FrDtTm)?.slice(0, 10) ?? lines[0]?.date;
  const to = text(period.ToDtTm)?.slice(0, 10) ?? lines.at(-1)?.date;
  if (from) out.periodFrom = from;
  if (to) out.periodTo = to;
  const acct = node(stmt.Acct);
  const currency = text(acct.Ccy) ?? text(node((stmt.Ntry as Node[] | undefined)?.[0]?.Amt)['@Ccy']);
  if (currency) out.currency = currency;
  const hint = text(node(acct.Id).IBAN) ?? text(node(node(acct.Id).Othr).Id);
  if (hint) out.accountHint = hint;
  return out;
}
