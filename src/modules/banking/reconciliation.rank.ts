// Ranking what a bank line could match, each suggestion with a score (0..1) and its reasons in
// words. Certain (auto-reconciled when it is the only one): the exact amount due and the
// document's number in the line's reference or description.
import { money, toNumber } from '../../platform/money/money.ts';
import {
  type CandidateLine,
  type Candidates,
  nameIn as nameAppears,
  normalNumber,
  numberTokens,
  type OpenDoc,
  textOf,
} from './reconciliation.candidates.ts';

export interface Suggestion {
  kind: 'invoice' | 'invoices' | 'bill' | 'existing' | 'create';
  score: number;
  certain: boolean;
  reasons: string[];
  label: string;
  contactId: string | null;
  accept: {
    invoices?: { invoiceId: string; amount: number }[];
    bills?: { billId: string; amount: number }[];
    existing?: { journalEntryId: string }[];
    create?: { accountId: string };
  };
}

const MAX_SUGGESTIONS = 5;
/** Several invoices of one customer are tried together only when it has at most this many open. */
const MAX_GROUP = 15;

const DAY = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY);

function dateReason(lineDate: string, dueDate: string): { reason: string; near: boolean } {
  const d = daysBetween(dueDate, lineDate);
  const n = Math.abs(d);
  const days = `${n} day${n === 1 ? '' : 's'}`;
  return {
    near: n <= 30,
    reason:
      d === 0 ? 'on the due date' : d > 0 ? `${days} after the due date` : `${days} before the due date`,
  };
}

/**
 * The bank rule's coded account for the line, when the rules (migration 0044) coded it. Read
 * defensively: the column exists only once the rules have landed; until then, null.
 */
export function codedAccountOf(line: object): string | null {
  const v = (line as Record<string, unknown>).coded_account_id;
  return typeof v === 'string' ? v : null;
}

/** What ranking needs of a line, worked out once per line. */
interface LineFacts {
  text: string;
  tokens: Set<string>;
  refTokens: Set<string>;
}

function rankDoc(
  line: CandidateLine,
  f: LineFacts,
  doc: OpenDoc,
  kind: 'invoice' | 'bill',
): Suggestion | null {
  const amount = money(line.amount).abs();
  const due = money(doc.due);
  const numberIn = f.tokens.has(normalNumber(doc.number));
  const nameIn = nameAppears(doc.contactName, f.text);
  const exact = amount.equals(due);
  if (!exact && !numberIn && !(nameIn && amount.lessThan(due))) return null;
  const reasons: string[] = [];
  let score = 0;
  if (exact) {
    score += 0.5;
    reasons.push('amount equals the amount due');
  } else if (amount.lessThan(due)) {
    score += 0.15;
    reasons.push(`part of the amount due (${amount.toFixed(2)} of ${due.toFixed(2)})`);
  } else {
    score += kind === 'invoice' ? 0.15 : 0;
    reasons.push(
      kind === 'invoice'
        ? `more than the amount due: the excess ${amount.minus(due).toFixed(2)} becomes the customer's credit`
        : `more than the amount due (${due.toFixed(2)}): pay the due and match the rest apart`,
    );
  }
  if (numberIn) {
    score += 0.35;
    const where = f.refTokens.has(normalNumber(doc.number));
    reasons.push(`${doc.number} appears in the ${where ? 'reference' : 'description'}`);
  }
  if (nameIn) {
    score += 0.1;
    reasons.push(`the ${kind === 'invoice' ? 'customer' : 'supplier'}'s name appears`);
  }
  const when = dateReason(line.date, doc.dueDate);
  // Nearer the due date ranks higher: up to 0.05, nothing from 30 days away.
  if (when.near) score += 0.05 * (1 - Math.abs(daysBetween(doc.dueDate, line.date)) / 30);
  reasons.push(when.reason);
  const payAmount = toNumber(kind === 'invoice' || amount.lessThanOrEqualTo(due) ? amount : due);
  return {
    kind,
    score: Math.min(1, Number(score.toFixed(2))),
    certain: exact && numberIn,
    reasons,
    label: `${doc.number} ${doc.contactName}`,
    contactId: doc.contactId,
    accept:
      kind === 'invoice'
        ? { invoices: [{ invoiceId: doc.id, amount: payAmount }] }
        : { bills: [{ billId: doc.id, amount: payAmount }] },
  };
}

/** Several open invoices of a customer named in the line that together make the amount. */
function groups(line: CandidateLine, f: LineFacts, invoices: OpenDoc[]): Suggestion[] {
  const target = Math.round(money(line.amount).times(100).toNumber());
  const text = f.text;
  const byContact = new Map<string, OpenDoc[]>();
  for (const d of invoices) {
    if (!nameAppears(d.contactName, text)) continue;
    byContact.set(d.contactId, [...(byContact.get(d.contactId) ?? []), d]);
  }
  const out: Suggestion[] = [];
  for (const docs of byContact.values()) {
    if (docs.length < 2 || docs.length > MAX_GROUP) continue;
    docs.sort((a, b) => a.dueDate.localeCompare(b.dueDate));
    // Subset sum in cents, oldest first: the first way found to make each sum.
    const ways = new Map<number, number[]>([[0, []]]);
    for (const [i, d] of docs.entries()) {
      const c = Math.round(money(d.due).times(100).toNumber());
      for (const [s, w] of [...ways]) if (s + c <= target && !ways.has(s + c)) ways.set(s + c, [...w, i]);
    }
    const w = ways.get(target);
    if (!w || w.length < 2) continue;
    const chosen = w.map((i) => docs[i]!);
    out.push({
      kind: 'invoices',
      score: 0.7,
      certain: false,
      reasons: [
        `${chosen.length} open invoices of the customer add up to the amount (${chosen.map((d) => d.number).join(', ')})`,
        "the customer's name appears",
      ],
      label: `${chosen.map((d) => d.number).join(' + ')} ${chosen[0]!.contactName}`,
      contactId: chosen[0]!.contactId,
      accept: { invoices: chosen.map((d) => ({ invoiceId: d.id, amount: toNumber(d.due) })) },
    });
  }
  return out;
}

/** The page's documents by due amount, by number key and by contact: a line ranks only its own. */
interface DocIndex {
  byDue: Map<string, OpenDoc[]>;
  byNumber: Map<string, OpenDoc[]>;
  byContact: Map<string, OpenDoc[]>;
}
const indexes = new WeakMap<OpenDoc[], DocIndex>();
function indexOf(docs: OpenDoc[]): DocIndex {
  const known = indexes.get(docs);
  if (known) return known;
  const add = (m: Map<string, OpenDoc[]>, k: string, d: OpenDoc) => m.set(k, [...(m.get(k) ?? []), d]);
  const ix: DocIndex = { byDue: new Map(), byNumber: new Map(), byContact: new Map() };
  for (const d of docs) {
    add(ix.byDue, money(d.due).toFixed(2), d);
    add(ix.byNumber, normalNumber(d.number), d);
    add(ix.byContact, d.contactId, d);
  }
  indexes.set(docs, ix);
  return ix;
}

/** The documents a line could match: its amount due, a number it names, a contact it names. */
function docsFor(line: CandidateLine, f: LineFacts, docs: OpenDoc[]): OpenDoc[] {
  const ix = indexOf(docs);
  const out = new Set<OpenDoc>(ix.byDue.get(money(line.amount).abs().toFixed(2)) ?? []);
  for (const t of f.tokens) for (const d of ix.byNumber.get(t) ?? []) out.add(d);
  for (const list of ix.byContact.values())
    if (nameAppears(list[0]!.contactName, f.text)) for (const d of list) out.add(d);
  return [...out];
}

export function rank(line: CandidateLine & object, c: Candidates): Suggestion[] {
  const amount = money(line.amount);
  const out: Suggestion[] = [];
  const lineTokens = new Set(numberTokens(textOf(line)));
  const f: LineFacts = {
    text: textOf(line),
    tokens: lineTokens,
    refTokens: new Set(numberTokens(line.reference ?? '')),
  };
  for (const e of c.unclaimed) {
    if (!money(e.moved).equals(amount)) continue;
    const reasons = ['amount equals a recorded bank movement not yet matched to a bank line'];
    let score = 0.55;
    const refs = numberTokens(`${e.reference ?? ''} ${e.description}`);
    const shared = refs.find((t) => lineTokens.has(t));
    if (shared) {
      score += 0.3;
      reasons.push(`${e.reference ?? shared} appears in the bank line`);
    }
    const d = daysBetween(e.date, line.date);
    if (Math.abs(d) <= 7) score += 0.15 - Math.abs(d) * 0.01;
    reasons.push(
      d === 0
        ? 'recorded on the same day'
        : `recorded ${Math.abs(d)} days ${d > 0 ? 'before' : 'after'} the bank line`,
    );
    out.push({
      kind: 'existing',
      score: Math.min(1, Number(score.toFixed(2))),
      certain: false,
      reasons,
      label: e.reference ? `${e.reference}: ${e.description}` : e.description,
      contactId: null,
      accept: { existing: [{ journalEntryId: e.id }] },
    });
  }
  if (amount.isPositive()) {
    const docs = docsFor(line, f, c.invoices);
    for (const d of docs) {
      const s = rankDoc(line, f, d, 'invoice');
      if (s) out.push(s);
    }
    out.push(...groups(line, f, docs));
  } else {
    for (const d of docsFor(line, f, c.bills)) {
      const s = rankDoc(line, f, d, 'bill');
      if (s) out.push(s);
    }
  }
  const coded = codedAccountOf(line);
  if (coded)
    out.push({
      kind: 'create',
      score: 0.6,
      certain: false,
      reasons: ['a bank rule codes the line to this account'],
      label: 'Post to the rule’s account',
      contactId: null,
      accept: { create: { accountId: coded } },
    });
  return out.sort((a, b) => b.score - a.score || a.label.localeCompare(b.label)).slice(0, MAX_SUGGESTIONS);
}
