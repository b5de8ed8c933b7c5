// The OFX tree of a file, as banks really write it.
//
// OFX 1.x is SGML: a header of KEY:VALUE lines, then elements whose leaves are never closed
// (<CODE>0<SEVERITY>INFO) and whose aggregates are. OFX 2.x is XML: a <?xml?> and an <?OFX?>
// header, every element closed. Banks also write the two mixed (a 2.x header, then 1.x's unclosed
// leaves). One tokenizer here reads all three into one tree, by SGML's rule, which holds for each:
// an element followed by text is a leaf, and ends at the next tag whatever that is; an element
// that holds elements is an aggregate, and must be closed. No XML parser is involved: it could not
// follow that rule, and it would expand what a file declares. Text decodes XML's five entities
// and character references only; a <!DOCTYPE> or <!ENTITY> is skipped, never processed, so nothing
// outside the file is ever read (no XXE). Comments are dropped, CDATA is text. The bytes are read
// in the character set the header declares.
//
// A file must close: every aggregate opened is closed and </OFX> is there. A truncated download
// (the file ends mid-transaction) is refused whole, never read as the part that came.
import { decodeDeclared } from '../../../platform/files/decode-text.ts';
import { UnreadableStatement } from './types.ts';

/** One element of the file: a leaf holds text, an aggregate holds elements. */
export interface Element {
  /** Upper-cased: OFX tag names are case-insensitive. */
  name: string;
  /** Where its tag starts in the text, for messages. */
  at: number;
  /** A leaf's text, entities decoded, untrimmed; undefined for an aggregate or an empty leaf. */
  text?: string;
  children?: Element[];
}

/** The <OFX> element of the file's bytes; UnreadableStatement when empty, not OFX, or cut short. */
export function ofxTree(bytes: Uint8Array): Element {
  const text = decodeDeclared(bytes, declaredCharset(bytes));
  if (!/\S/.test(text)) throw new UnreadableStatement('the file is empty');
  return readTree(text);
}

// ---------------------------------------------------------------------------------------------
// Character set: declared in the header, which is ASCII whatever the body is.

const LATIN1 = new TextDecoder('latin1');
const XML_ENCODING = /<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/i;
const HEADER_ENCODING = /^[ \t]*ENCODING[ \t]*:[ \t]*(\S+)/im;
const HEADER_CHARSET = /^[ \t]*CHARSET[ \t]*:[ \t]*(\S+)/im;

/** The character set the file declares (<?xml encoding?>, 1.x ENCODING and CHARSET), if any; a BOM wins in decodeDeclared. */
function declaredCharset(bytes: Uint8Array): string | undefined {
  const head = LATIN1.decode(bytes.subarray(0, 2048));
  const xml = XML_ENCODING.exec(head);
  if (xml) return xml[1];
  const lt = head.indexOf('<');
  const header = lt < 0 ? head : head.slice(0, lt);
  // 1.x: ENCODING:UNICODE is UTF-8 (its CHARSET says CSUNICODE); ENCODING:USASCII takes CHARSET's code page.
  const encoding = HEADER_ENCODING.exec(header)?.[1];
  if (encoding && /^(UNICODE|UTF-?8)$/i.test(encoding)) return 'utf-8';
  return HEADER_CHARSET.exec(header)?.[1];
}

// ---------------------------------------------------------------------------------------------
// Tokenizer: tags, text, CDATA; comments, declarations and processing instructions skipped.

const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const QUESTION = 0x3f;
const QUOTE = 0x22;
const APOS = 0x27;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;

const isNameStart = (c: number) => (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || c === 0x5f;
// Letters, digits, '.', '_', '-' and ':' (START.TIME, ERROR.CODE in Amex's files).
const isNameChar = (c: number) =>
  isNameStart(c) || (c >= 0x30 && c <= 0x39) || c === 0x2e || c === 0x2d || c === 0x3a;

/** The <OFX> element of the text, as a tree; UnreadableStatement when there is none, or it does not close. */
function readTree(text: string): Element {
  const tree = new TreeBuilder(text);
  const n = text.length;
  let i = 0;
  while (i < n) {
    const lt = text.indexOf('<', i);
    const end = lt < 0 ? n : lt;
    if (end > i) tree.text(i, end);
    if (lt < 0) break;
    i = markup(text, lt, tree);
  }
  return tree.end();
}

/** The markup that starts at a '<', handed to the tree; where the text goes on after it. */
function markup(text: string, lt: number, tree: TreeBuilder): number {
  const next = text.charCodeAt(lt + 1);
  if (next === BANG) {
    if (text.startsWith('<!--', lt)) return past(text, '-->', lt + 4, 'a comment', lt);
    if (text.startsWith('<![CDATA[', lt)) {
      const close = past(text, ']]>', lt + 9, 'a CDATA section', lt);
      tree.cdata(text.slice(lt + 9, close - 3), lt);
      return close;
    }
    return pastDeclaration(text, lt);
  }
  if (next === QUESTION) return past(text, '?>', lt + 2, 'a processing instruction', lt);
  const closing = next === SLASH;
  const start = closing ? lt + 2 : lt + 1;
  // A '<' that starts no tag ("A < B", banks do not always escape it) is text.
  if (!isNameStart(text.charCodeAt(start))) {
    tree.text(lt, lt + 1);
    return lt + 1;
  }
  let j = start;
  while (j < text.length && isNameChar(text.charCodeAt(j))) j++;
  const gt = text.indexOf('>', j);
  if (gt < 0) throw cutShort(`it ends inside the tag ${text.slice(lt, j)}`, text, lt);
  const name = tree.nameOf(text.slice(start, j));
  if (closing) tree.close(name, lt);
  else {
    tree.open(name, lt);
    // <NAME/>: XML's empty element.
    if (text.charCodeAt(gt - 1) === SLASH) tree.close(name, lt);
  }
  return gt + 1;
}

/** Past the terminator of a comment, CDATA or processing instruction; a file that ends first is cut short. */
function past(text: string, terminator: string, from: number, what: string, lt: number): number {
  const at = text.indexOf(terminator, from);
  if (at < 0) throw cutShort(`it ends inside ${what} opened on line ${lineAt(text, lt)}`, text, lt);
  return at + terminator.length;
}

/**
 * Past a declaration (<!DOCTYPE OFX [ <!ENTITY x SYSTEM "file:///etc/passwd"> ]>): skipped whole,
 * its internal subset and quoted strings included, and nothing of it is ever used.
 */
function pastDeclaration(text: string, lt: number): number {
  let depth = 0;
  let quote = 0;
  for (let j = lt + 2; j < text.length; j++) {
    const c = text.charCodeAt(j);
    if (quote) {
      if (c === quote) quote = 0;
    } else if (c === QUOTE || c === APOS) quote = c;
    else if (c === OPEN_BRACKET) depth++;
    else if (c === CLOSE_BRACKET) depth--;
    else if (c === GT && depth <= 0) return j + 1;
  }
  throw cutShort(`it ends inside a declaration (<!…) opened on line ${lineAt(text, lt)}`, text, lt);
}

const ENTITY = /&(?:(amp|lt|gt|quot|apos)|#(\d{1,7})|#x([0-9a-f]{1,6}));/gi;
const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** XML's five entities and character references decoded; any other '&' (M&G, &nbsp;) kept as written. */
function decodeEntities(raw: string): string {
  if (!raw.includes('&')) return raw;
  return raw.replace(
    ENTITY,
    (whole, named: string | undefined, dec: string | undefined, hex: string | undefined) => {
      if (named) return NAMED[named.toLowerCase()]!;
      const cp = dec ? Number.parseInt(dec, 10) : Number.parseInt(hex!, 16);
      const valid = cp > 0 && cp <= 0x10ffff && !(cp >= 0xd800 && cp <= 0xdfff);
      return valid ? String.fromCodePoint(cp) : whole;
    },
  );
}

// Aggregates of the OFX specification that hold what this reader reads (and their neighbours):
// the spec closes every one of them, so one left open is a broken file, not an empty leaf.
const AGGREGATES = new Set([
  'OFX',
  'SIGNONMSGSRSV1',
  'SONRS',
  'STATUS',
  'FI',
  'BANKMSGSRSV1',
  'CREDITCARDMSGSRSV1',
  'INVSTMTMSGSRSV1',
  'STMTTRNRS',
  'CCSTMTTRNRS',
  'INVSTMTTRNRS',
  'STMTRS',
  'CCSTMTRS',
  'INVSTMTRS',
  'BANKACCTFROM',
  'BANKACCTTO',
  'CCACCTFROM',
  'CCACCTTO',
  'BANKTRANLIST',
  'STMTTRN',
  'PAYEE',
  'LEDGERBAL',
  'AVAILBAL',
  'BALLIST',
  'BAL',
  'CURRENCY',
  'ORIGCURRENCY',
]);

/**
 * The tree, built as the tokens come (no token list: a 60 MB file would hold millions). Until
 * <OFX> opens everything is header and skipped; after </OFX> only blank text may follow.
 */
class TreeBuilder {
  readonly source: string;
  private readonly stack: Element[] = [];
  private root: Element | undefined;
  private done = false;
  /** Whether the top of the stack is a leaf with text: it ends at the next tag. */
  private leaf = false;
  /** The open leaf's text so far (text, CDATA and text again when a comment or CDATA splits it). */
  private readonly parts: string[] = [];
  private readonly names = new Map<string, string>();

  constructor(source: string) {
    this.source = source;
  }

  /** The tag's name upper-cased, once per spelling (a file repeats a few names millions of times). */
  nameOf(raw: string): string {
    let name = this.names.get(raw);
    if (name === undefined) {
      name = raw.toUpperCase();
      this.names.set(raw, name);
    }
    return name;
  }

  open(name: string, at: number): void {
    if (this.done) throw this.goesOn(at);
    if (!this.root && name !== 'OFX') return;
    this.endLeaf();
    const el: Element = { name, at };
    const parent = this.stack.at(-1);
    if (!parent) this.root = el;
    else if (parent.children) parent.children.push(el);
    else parent.children = [el];
    this.stack.push(el);
  }

  close(name: string, at: number): void {
    if (this.done) throw this.goesOn(at);
    if (!this.root) return;
    if (this.leaf && this.stack.at(-1)!.name === name) {
      this.endLeaf();
      return;
    }
    this.endLeaf();
    let k = this.stack.length - 1;
    while (k >= 0 && this.stack[k]!.name !== name) k--;
    if (k < 0)
      throw new UnreadableStatement(
        `the OFX is not well formed: </${name}> on line ${lineAt(this.source, at)} closes no element that is open`,
      );
    this.leftOpen(k, name, at);
    this.stack.length = k;
    if (k === 0) this.done = true;
  }

  text(from: number, to: number): void {
    if (!this.root) return; // the 1.x header's KEY:VALUE lines
    if (this.done) {
      if (!blank(this.source, from, to)) throw this.goesOn(from);
      return;
    }
    if (this.leaf) {
      this.parts.push(decodeEntities(this.source.slice(from, to)));
      return;
    }
    const top = this.stack.at(-1)!;
    // Indentation between elements, or stray text among them: no element's text.
    if (top.children || blank(this.source, from, to)) return;
    this.startLeaf(decodeEntities(this.source.slice(from, to)));
  }

  cdata(content: string, at: number): void {
    if (!this.root) return;
    if (this.done) throw this.goesOn(at);
    if (this.leaf) this.parts.push(content);
    else if (!this.stack.at(-1)!.children) this.startLeaf(content);
  }

  /** The OFX element, once the whole file is read. */
  end(): Element {
    if (!this.root) throw new UnreadableStatement('not an OFX file: no <OFX> element');
    if (!this.done) throw this.unclosedAtEnd();
    return this.root;
  }

  private startLeaf(text: string): void {
    this.parts.length = 0;
    this.parts.push(text);
    this.leaf = true;
  }

  /** The open leaf's text set (a join only when it came in parts), and the leaf closed. */
  private endLeaf(): void {
    if (!this.leaf) return;
    const leaf = this.stack.pop()!;
    leaf.text = this.parts.length === 1 ? this.parts[0]! : this.parts.join('');
    this.leaf = false;
  }

  /**
   * The elements above stack[k], still open when it closes. OFX closes every aggregate, so each
   * was a leaf with no text (1.x's "<FITID>" alone on its line), and what followed it belongs to
   * stack[k], in order; unless it is an aggregate by name, or held one: then the file is broken.
   * Each one's last child is the next one open, so they flatten in one pass (not one per level:
   * a file of a million unclosed elements would be quadratic).
   */
  private leftOpen(k: number, closer: string, at: number): void {
    const target = this.stack[k]!;
    const top = this.stack.length - 1;
    for (let j = k + 1; j <= top; j++) {
      const el = this.stack[j]!;
      const kids = el.children ?? [];
      const own = j < top ? kids.length - 1 : kids.length;
      let held = false;
      for (let i = 0; i < own && !held; i++) held = kids[i]!.children !== undefined;
      if (held || AGGREGATES.has(el.name))
        throw new UnreadableStatement(
          `the OFX is not well formed: <${el.name}> opened on line ${lineAt(this.source, el.at)} ` +
            `is not closed before </${closer}> on line ${lineAt(this.source, at)}`,
        );
      for (const kid of kids) target.children!.push(kid);
      el.children = undefined;
    }
  }

  /** The file ended inside <OFX>: the innermost element that must close (an aggregate) is named. */
  private unclosedAtEnd(): UnreadableStatement {
    this.endLeaf();
    let k = this.stack.length - 1;
    while (k > 0 && !this.stack[k]!.children && !AGGREGATES.has(this.stack[k]!.name)) k--;
    const el = this.stack[k]!;
    const path = this.stack.slice(0, k + 1).map((e) => e.name);
    // A file of thousands of nested elements is said in a line: its start and its end.
    if (path.length > 12) path.splice(6, path.length - 12, '…');
    return new UnreadableStatement(
      `the file was cut short: <${el.name}> opened on line ${lineAt(this.source, el.at)} is never closed`,
      [`open when the file ends: ${path.join(' > ')}`, 'the file must end with </OFX>: download it again'],
      { unclosed: el.name, line: lineAt(this.source, el.at) },
    );
  }

  private goesOn(at: number): UnreadableStatement {
    return new UnreadableStatement(
      `the OFX is not well formed: the file goes on after </OFX> (line ${lineAt(this.source, at)})`,
    );
  }
}

/** Whether the text between from and to is blank (spaces, line ends, and controls such as NUL or ^Z). */
function blank(text: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (text.charCodeAt(i) > 0x20) return false;
  return true;
}

function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i >= 0 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function cutShort(how: string, text: string, at: number): UnreadableStatement {
  return new UnreadableStatement(`the file was cut short: ${how}`, ['download it again'], {
    line: lineAt(text, at),
  });
}

export const child = (el: Element | undefined, name: string): Element | undefined => {
  const kids = el?.children;
  if (kids) for (const k of kids) if (k.name === name) return k;
  return undefined;
};

/** A leaf's text, trimmed; an empty leaf (<NAME></NAME>, 1.x's <FITID> alone) is absent. */
export const textIn = (el: Element | undefined, name: string): string | undefined =>
  child(el, name)?.text?.trim() || undefined;
