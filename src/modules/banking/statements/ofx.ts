// OFX/QFX statements: 1.x (SGML: a header of KEY:VALUE lines, leaf tags left unclosed) and 2.x
// (XML). Both pass through one SGML-to-XML step (closing each leaf tag that has text and no close
// of its own), then fast-xml-parser. LEDGERBAL is the closing balance; OFX gives no opening, so it
// is the closing less the lines. FITID is kept as the line's externalId (shown, never merged on).
import { XMLParser } from 'fast-xml-parser';
import { money } from '../../../platform/money/money.ts';
import type { StatementLine } from '../ingest.ts';
import { amountText, type ParsedStatement, type RowError, UnreadableStatement } from './types.ts';

const ENTITY = /&(?!(amp|lt|gt|quot|apos|#\d+|#x[0-9a-f]+);)/gi;

/** OFX's SGML (or XML) body as well-formed XML: each leaf tag with text closed. */
export function ofxToXml(text: string): string {
  const start = text.search(/<OFX>/i);
  if (start < 0) throw new UnreadableStatement('not an OFX file: no <OFX> element');
  const body = text.slice(start);
  const tokens = body.matchAll(/<(\/?)([A-Za-z0-9._]+)[^>]*>([^<]*)/g);
  const out: string[] = [];
  const list = [...tokens];
  for (let i = 0; i < list.length; i++) {
    const [, close, name, rawText] = list[i]!;
    const value = rawText!.trim().replace(ENTITY, '&amp;');
    if (close) {
      out.push(`</${name!.toUpperCase()}>`);
      continue;
    }
    const tag = name!.toUpperCase();
    const next = list[i + 1];
    const closedNext = next && next[1] === '/' && next[2]!.toUpperCase() === tag;
    out.push(value && !closedNext ? `<${tag}>${value}</${tag}>` : `<${tag}>${value}`);
  }
  return out.join('');
}

/** An OFX date (YYYYMMDD[HHMMSS[.XXX]][[-2:SAST]]) as YYYY-MM-DD, or null. */
export function ofxDate(raw: unknown): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})/.exec(String(raw ?? '').trim());
  if (!m) return null;
  const [y, mo, d] = [+m[1]!, +m[2]!, +m[3]!];
  const dt = new Date(Date.UTC(y, mo - 1, d));
  return dt.getUTCMonth() === mo - 1 && dt.getUTCDate() === d ? `${m[1]}-${m[2]}-${m[3]}` : null;
}

const parser = new XMLParser({
  ignoreAttributes: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'STMTTRN' || name === 'STMTRS' || name === 'CCSTMTRS',
});

type Node = Record<string, unknown>;
const str = (v: unknown) => (v == null || typeof v === 'object' ? undefined : String(v).trim() || undefined);

/** Finds the first STMTRS (bank) or CCSTMTRS (card) anywhere under the OFX element. */
function statementOf(node: unknown): Node | undefined {
  if (!node || typeof node !== 'object') return undefined;
  for (const [k, v] of Object.entries(node as Node)) {
    if (k === 'STMTRS' || k === 'CCSTMTRS') return (v as Node[])[0];
    const found = statementOf(Array.isArray(v) ? v[0] : v);
    if (found) return found;
  }
  return undefined;
}

export function parseOfx(bytes: Uint8Array): ParsedStatement {
  const text = new TextDecoder('utf-8').decode(bytes);
  let doc: Node;
  try {
    doc = parser.parse(ofxToXml(text)) as Node;
  } catch (err) {
    if (err instanceof UnreadableStatement) throw err;
    throw new UnreadableStatement(`the OFX could not be read: ${(err as Error).message}`);
  }
  const st = statementOf(doc.OFX);
  if (!st) throw new UnreadableStatement('the OFX holds no bank statement (STMTRS)');
  const list = (st.BANKTRANLIST ?? {}) as Node;
  const trns = (list.STMTTRN ?? []) as Node[];
  const lines: StatementLine[] = [];
  const errors: RowError[] = [];
  for (const [i, t] of trns.entries()) {
    const line = i + 1;
    const date = ofxDate(t.DTPOSTED);
    const amount = amountText(str(t.TRNAMT));
    if (!date) {
      errors.push({ line, field: 'DTPOSTED', message: `not an OFX date: "${str(t.DTPOSTED) ?? ''}"` });
      continue;
    }
    if (amount == null || money(amount).isZero()) {
      errors.push({ line, field: 'TRNAMT', message: `not an amount: "${str(t.TRNAMT) ?? ''}"` });
      continue;
    }
    const name = str(t.NAME) ?? str((t.PAYEE as Node | undefined)?.NAME);
    const memo = str(t.MEMO);
    lines.push({
      line,
      date,
      valueDate: ofxDate(t.DTAVAIL) ?? ofxDate(t.DTUSER),
      amount,
      description: [name, memo].filter(Boolean).join(' ') || str(t.TRNTYPE) || '',
      reference: str(t.CHECKNUM) ?? str(t.REFNUM) ?? null,
      payee: name ?? null,
      externalId: str(t.FITID) ?? null,
    });
  }
  const out: ParsedStatement = { lines, errors };
  const ledger = st.LEDGERBAL as Node | undefined;
  const closing = amountText(str(ledger?.BALAMT));
  if (closing != null) {
    out.closingBalance = closing;
    const sum = lines.reduce((s, l) => s.plus(l.amount), money(0));
    out.openingBalance = money(closing).minus(sum).toFixed(2);
  }
  const from = ofxDate(list.DTSTART);
  const to = ofxDate(list.DTEND);
  if (from) out.periodFrom = from;
  if (to) out.periodTo = to;
  const currency = str(st.CURDEF);
  if (currency) out.currency = currency;
  const acct = (st.BANKACCTFROM ?? st.CCACCTFROM) as Node | undefined;
  const hint = str(acct?.ACCTID);
  if (hint) out.accountHint = hint;
  return out;
}
