// XML as a CAMT statement needs it: elements with their local names (namespace prefixes
// dropped), raw attributes, children and text.
//
// Read by hand rather than by fast-xml-parser. On the two-core machine this was written on,
// fast-xml-parser took 5 to 7 s over a 50,000-entry statement (20 MB), and its validator 1.2 to
// 1.9 s more, without which it takes mismatched tags and a file cut short without a word; this
// reader takes about one second over 28 MB. It checks what a statement needs of XML (tags that
// match, a file that ends where its XML does), decodes only the five predefined entities and
// character references, and refuses a DOCTYPE, so that no entity a file declares is ever expanded
// or fetched (no XXE, no entity bombs). Elements can be read as they end and then dropped, so a
// large statement is never held whole as a tree.
import { UnreadableStatement } from './types.ts';

export class El {
  readonly name: string;
  /** The attributes as written ( Ccy="ZAR"), read on demand: only Amt's Ccy is ever asked for. */
  readonly attrs: string;
  /** Shared by every leaf until it has a child: a million empty arrays less for the collector. */
  kids: El[] = NONE;
  text = '';
  constructor(name: string, attrs: string) {
    this.name = name;
    this.attrs = attrs;
  }
}
const NONE: El[] = [];

// What a '<' starts, where it is not a plain <Tag> or </Tag> (read by hand, the common case): a
// tag with attributes (quoted, no '<' in them) or an empty-element tag, a comment, a CDATA section,
// a processing instruction (the XML declaration), or a DOCTYPE.
const TOKEN =
  /<(\/?)([A-Za-z_\u0080-\uffff][\w.:\u0080-\uffff-]*)((?:\s+[A-Za-z_][\w.:-]*\s*=\s*(?:"[^"<]*"|'[^'<]*'))*)\s*(\/?)>|<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE/y;
const SLASH = 0x2f;
const GT = 0x3e;
const isSpace = (c: number) => c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0d;
const isNameChar = (c: number) =>
  (c >= 0x61 && c <= 0x7a) ||
  (c >= 0x41 && c <= 0x5a) ||
  (c >= 0x30 && c <= 0x3a) ||
  c === 0x5f ||
  c === 0x2d ||
  c === 0x2e ||
  c >= 0x80;
function blank(s: string, from: number, to: number): boolean {
  for (let i = from; i < to; i++) if (!isSpace(s.charCodeAt(i))) return false;
  return true;
}

/** Stands in the stack for an element whose subtree is checked but not kept. */
const SKIPPED = new El('', '');

/**
 * The document's root element; UnreadableStatement when the text is not well-formed XML. Elements
 * named in skip are checked but not kept (nor anything in them). onEnd is told of each element
 * kept as it ends: answering true drops it from the tree (it has been read), so that a
 * statement's entries are read as they come and never all held at once.
 */
export function readXml(s: string, skip: ReadonlySet<string>, onEnd: (el: El, parent: El) => boolean): El {
  const top = new El('', '');
  // The open elements, their names as written (prefix and all: an end tag must repeat it) and where.
  const open: El[] = [top];
  const openTags: string[] = [''];
  const openAt: number[] = [0];
  let cur = top;
  const add = (tag: string, attrs: string, at: number, empty: boolean) => {
    if (cur === top && top.kids.length) throw malformed(s, at, `a second root element <${tag}>`);
    const name = tag.slice(tag.indexOf(':') + 1);
    let el = SKIPPED;
    if (cur !== SKIPPED && !skip.has(name)) {
      el = new El(name, attrs);
      if (cur.kids === NONE) cur.kids = [el];
      else cur.kids.push(el);
    }
    if (empty) return;
    open.push(el);
    openTags.push(tag);
    openAt.push(at);
    cur = el;
  };
  const close = () => {
    const el = open.pop()!;
    openTags.pop();
    openAt.pop();
    cur = open.at(-1)!;
    // It is its parent's last child: its own children are inside it.
    if (el !== SKIPPED && onEnd(el, cur)) cur.kids.pop();
  };
  let i = 0;
  for (;;) {
    const lt = s.indexOf('<', i);
    const end = lt < 0 ? s.length : lt;
    if (end > i && !blank(s, i, end)) {
      if (cur === top) throw malformed(s, i, 'text outside the root element');
      if (cur !== SKIPPED) cur.text += decodeEntities(s.slice(i, end));
    }
    if (lt < 0) break;
    const c = s.charCodeAt(lt + 1);
    if (c === SLASH) {
      // An end tag: the name of the element open, then '>'.
      const tag = openTags.at(-1)!;
      let j = lt + 2 + tag.length;
      if (tag && s.startsWith(tag, lt + 2)) while (isSpace(s.charCodeAt(j))) j++;
      if (!tag || !s.startsWith(tag, lt + 2) || s.charCodeAt(j) !== GT) {
        if (s.indexOf('>', lt) < 0) throw truncated(s, tag, openAt.at(-1));
        const written = /<\/\s*([^\s>]*)/y;
        written.lastIndex = lt;
        throw malformed(s, lt, `</${written.exec(s)?.[1]}> closes <${tag || 'nothing'}>`);
      }
      close();
      i = j + 1;
      continue;
    }
    if (isNameChar(c) && !(c >= 0x30 && c <= 0x3a) && c !== 0x2d && c !== 0x2e) {
      let j = lt + 2;
      while (isNameChar(s.charCodeAt(j))) j++;
      if (s.charCodeAt(j) === GT) {
        add(s.slice(lt + 1, j), '', lt, false);
        i = j + 1;
        continue;
      }
    }
    TOKEN.lastIndex = lt;
    const m = TOKEN.exec(s);
    if (!m) {
      if (s.indexOf('>', lt) < 0) throw truncated(s, openTags.at(-1), openAt.at(-1));
      throw malformed(s, lt, `"${s.slice(lt, lt + 30)}" is not a tag`);
    }
    i = TOKEN.lastIndex;
    const [token, slash, tag, attrs, empty, cdata] = m;
    if (tag) {
      // End tags are read above; one with attributes or a '/' is not one.
      if (slash) throw malformed(s, lt, `"${token}" is not an end tag`);
      add(tag, attrs!, lt, !!empty);
    } else if (cdata !== undefined) {
      if (cur === top) throw malformed(s, lt, 'a CDATA section outside the root element');
      if (cur !== SKIPPED) cur.text += cdata;
    } else if (token === '<!DOCTYPE') {
      throw new UnreadableStatement(
        'the file declares a DOCTYPE, which no bank statement has: it is not read (its entities could ' +
          'read other files or expand without end)',
      );
    }
  }
  if (open.length > 1) throw truncated(s, openTags.at(-1), openAt.at(-1));
  if (!top.kids[0]) throw new UnreadableStatement('not XML: the file has no element');
  return top.kids[0];
}

const lineAt = (s: string, pos: number) => {
  let n = 1;
  for (let i = s.indexOf('\n'); i >= 0 && i < pos; i = s.indexOf('\n', i + 1)) n++;
  return n;
};
const malformed = (s: string, pos: number, what: string) =>
  new UnreadableStatement(`the XML is malformed at line ${lineAt(s, pos)}: ${what}`);
const truncated = (s: string, tag: string | undefined, at: number | undefined) =>
  new UnreadableStatement(
    `the file ends inside <${tag}> (opened at line ${lineAt(s, at ?? 0)}): it looks cut short; ` +
      'download the statement again',
  );

const ENTITY = /&(?:#(\d+)|#x([\da-fA-F]+)|(lt|gt|amp|quot|apos));/g;
const PREDEFINED = new Map([
  ['lt', '<'],
  ['gt', '>'],
  ['amp', '&'],
  ['quot', '"'],
  ['apos', "'"],
]);
/** The five predefined entities and character references; any other '&' stays as written. */
function decodeEntities(t: string): string {
  if (!t.includes('&')) return t;
  return t.replace(
    ENTITY,
    (all, dec: string | undefined, hex: string | undefined, named: string | undefined) => {
      if (named) return PREDEFINED.get(named)!;
      const cp = dec ? Number(dec) : Number.parseInt(hex!, 16);
      return cp > 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : all;
    },
  );
}

export const kid = (el: El | undefined, name: string): El | undefined =>
  el?.kids.find((k) => k.name === name);
export const kidsOf = (el: El | undefined, name: string): El[] =>
  el?.kids.filter((k) => k.name === name) ?? [];
export const at = (el: El | undefined, ...path: string[]): El | undefined =>
  path.reduce<El | undefined>((e, name) => kid(e, name), el);
export const textOf = (el: El | undefined): string | undefined => el?.text.trim() || undefined;
export const textAt = (el: El | undefined, ...path: string[]) => textOf(at(el, ...path));
const CCY = /(?:^|\s)Ccy\s*=\s*(?:"([^"]*)"|'([^']*)')/;
export const currencyOf = (amt: El | undefined): string | undefined => {
  const m = amt && CCY.exec(amt.attrs);
  return m ? (m[1] ?? m[2])?.trim() || undefined : undefined;
};
