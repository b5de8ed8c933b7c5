// PDF with pdfkit and one embedded Unicode font, DejaVu Sans (regular and bold, from the
// dejavu-fonts-ttf package), for every PDF the platform makes: names such as "Ṱhohoyanḓou" or
// "Łódź" print as written, which pdfkit's built-in fonts (Windows-1252 only) cannot do. The
// font files are read and parsed once per process and shared by every document; each document
// embeds only the glyphs it uses (a subset) with their Unicode mapping, so its text can be
// searched and copied. The helpers are shared by every document that prints: `pdfBuffer`
// collects a document's bytes, `drawTable` lays out a table with page breaks that repeat the
// column headings (cells that wrap, a coloured heading band), `footers` writes "Page n of N",
// and `toPdf` prints a whole FileDocument (reports) with a heading on every page. Sales
// documents (invoices module) draw their own header and totals around the same table.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PDFDocument from 'pdfkit';
import { type Cell, type Column, type FileDocument, formatMoney, isDecimal, type Table } from './table.ts';

export type Pdf = PDFKit.PDFDocument;

/** The names every document knows its two fonts by: pass them to `pdf.font()`. */
export const FONT = 'DejaVuSans';
export const BOLD = 'DejaVuSans-Bold';

/** What pdf.ts asks of a parsed font (fontkit's Font); pdfkit lays out and subsets the rest. */
interface ParsedFont {
  hasGlyphForCodePoint(codePoint: number): boolean;
}

let parsed: { regular: ParsedFont; bold: ParsedFont } | undefined;

/**
 * The two faces, read and parsed on first use and kept for the process. Parsed with fontkit
 * as pdfkit depends on it (resolved from pdfkit's own place: the same version, no dependency
 * of ours to keep in step), and handed to each document already parsed: pdfkit takes a
 * fontkit font as a font source, and a parse per document costs about 55 ms, more than the
 * rest of a one-page invoice (measured: 84 ms a document with the file's bytes, 29 ms parsed).
 */
function fonts(): { regular: ParsedFont; bold: ParsedFont } {
  if (parsed) return parsed;
  const here = createRequire(import.meta.url);
  const fontkit = createRequire(here.resolve('pdfkit'))('fontkit') as {
    create(data: Uint8Array): ParsedFont;
  };
  const face = (file: string) => fontkit.create(readFileSync(here.resolve(`dejavu-fonts-ttf/ttf/${file}`)));
  parsed = { regular: face('DejaVuSans.ttf'), bold: face('DejaVuSans-Bold.ttf') };
  return parsed;
}

/** A new document that knows FONT and BOLD and writes in FONT until told otherwise. */
function newDocument(options: PDFKit.PDFDocumentOptions): Pdf {
  // font: null: no built-in font is loaded, so none is written into the file.
  const pdf = new PDFDocument({ ...options, font: null as unknown as string });
  const { regular, bold } = fonts();
  // pdfkit's types name paths and buffers only; a parsed fontkit font is taken as it is.
  pdf.registerFont(FONT, regular as unknown as Buffer);
  pdf.registerFont(BOLD, bold as unknown as Buffer);
  return pdf.font(FONT);
}

export const MARGIN = 40;
/** Room kept at the bottom of every page for the footer. */
const FOOTER = 24;
const BODY_SIZE = 8.5;
const ROW_GAP = 3.5;
const INDENT = 10;
const CELL_PAD = 4;

export interface PdfOptions {
  landscape?: boolean;
  title?: string;
  author?: string;
  /**
   * Extra room kept at the foot of every page above "Page n of N" (a document's own footer
   * text, drawn by its caller); the content stops that much higher.
   */
  footerRoom?: number;
  /**
   * Encrypts the file (AES-256, PDF 1.7 extension level 3): it opens only with this password,
   * and printing and copying stay allowed. For a document that leaves us by e-mail carrying
   * personal figures (a payslip). The owner password is random: nobody can lift the encryption.
   */
  userPassword?: string;
}

/** Runs `build` on a new A4 document and answers its bytes. Pages are buffered (footers). */
export function pdfBuffer(build: (pdf: Pdf) => void, options: PdfOptions = {}): Promise<Buffer> {
  const pdf = newDocument({
    size: 'A4',
    layout: options.landscape ? 'landscape' : 'portrait',
    margins: { top: MARGIN, left: MARGIN, right: MARGIN, bottom: MARGIN + (options.footerRoom ?? 0) },
    bufferPages: true,
    ...(options.userPassword
      ? {
          userPassword: options.userPassword,
          ownerPassword: crypto.randomUUID(),
          pdfVersion: '1.7ext3' as const,
          permissions: { printing: 'highResolution' as const, copying: true },
        }
      : {}),
    info: {
      ...(options.title ? { Title: options.title } : {}),
      ...(options.author ? { Author: options.author } : {}),
      Creator: 'Business Platform',
    },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
  });
  try {
    build(pdf);
  } finally {
    pdf.end();
  }
  return done;
}

let measurer: Pdf | undefined;

/**
 * The height of text printed in a font at a size, wrapped at `width` (default: an A4 page less
 * the margins). For sizes a document must know before its first page (a footer's room).
 */
export function textHeight(text: string, font: string, size: number, width?: number): number {
  // One document kept for measuring only: never ended, nothing written.
  measurer ??= newDocument({ size: 'A4', margin: MARGIN, autoFirstPage: true });
  measurer.font(font).fontSize(size);
  return measurer.heightOfString(text, { width: width ?? contentWidth(measurer) });
}

/** The height of one line in a font at a size (with pdfkit's line gap). */
export function lineHeight(font: string, size: number): number {
  measurer ??= newDocument({ size: 'A4', margin: MARGIN, autoFirstPage: true });
  return measurer.font(font).fontSize(size).currentLineHeight(true);
}

/** The lowest y a row may reach on this page. */
export function pageBottom(pdf: Pdf): number {
  return pdf.page.height - pdf.page.margins.bottom - FOOTER;
}

export function contentWidth(pdf: Pdf): number {
  return pdf.page.width - pdf.page.margins.left - pdf.page.margins.right;
}

/** Where a table is drawn across the page: its left edge and its width. */
interface Span {
  x: number;
  width: number;
}

/** Each column's x and width, from the relative widths, across the table's span. */
function layoutColumns(span: Span, columns: Column[]): Span[] {
  const total = columns.reduce((s, c) => s + (c.width ?? 1), 0);
  let x = span.x;
  return columns.map((c) => {
    const w = (span.width * (c.width ?? 1)) / total;
    const at = { x, width: w };
    x += w;
    return at;
  });
}

/**
 * Text as the font prints it: composed (NFC, so a letter and its combining mark become the one
 * glyph the font has, as "Ṱ"), line ends as "\n", tabs as spaces, invisible format characters
 * (zero-width spaces, byte-order marks) dropped, and anything the font has no glyph for in
 * either face (an emoji, a control character) shown as "?" rather than as an empty box.
 */
export function printable(text: string): string {
  const { regular, bold } = fonts();
  let out = '';
  const composed = text
    .normalize('NFC')
    .replace(/\r\n?/g, '\n')
    .replace(/\t/g, ' ')
    .replace(/\p{Default_Ignorable_Code_Point}/gu, '');
  for (const ch of composed) {
    const code = ch.codePointAt(0)!;
    const glyph =
      ch === '\n' || (code >= 0x20 && regular.hasGlyphForCodePoint(code) && bold.hasGlyphForCodePoint(code));
    out += glyph ? ch : '?';
  }
  return out;
}

function cellText(value: Cell): string {
  if (value === null) return '';
  if (isDecimal(value)) return formatMoney(value);
  return printable(String(value));
}

function rightAligned(column: Column): boolean {
  return column.kind === 'money' || column.kind === 'number';
}

function hline(pdf: Pdf, span: Span, y: number, thick = 0.5) {
  pdf
    .moveTo(span.x, y)
    .lineTo(span.x + span.width, y)
    .lineWidth(thick)
    .strokeColor('#555555')
    .stroke();
}

/** A row's cells as printed, and the height the row needs (wrapping columns may take lines). */
function measureRow(
  pdf: Pdf,
  columns: Column[],
  at: Span[],
  cells: Cell[],
  font: string,
  indent = 0,
): { texts: string[]; height: number } {
  pdf.font(font).fontSize(BODY_SIZE);
  const lineHeight = pdf.currentLineHeight(true);
  let height = lineHeight;
  const texts = columns.map((column, i) => {
    const text = cellText(cells[i] ?? null);
    if (text && column.wrap) {
      const width = Math.max(at[i]!.width - 2 * CELL_PAD - (i === 0 ? indent * INDENT : 0), 1);
      height = Math.max(height, pdf.heightOfString(text, { width }));
    }
    return text;
  });
  return { texts, height };
}

function drawCells(
  pdf: Pdf,
  columns: Column[],
  at: Span[],
  texts: string[],
  y: number,
  font: string,
  options: { indent?: number; height?: number; colour?: string } = {},
) {
  pdf
    .font(font)
    .fontSize(BODY_SIZE)
    .fillColor(options.colour ?? '#000000');
  const lineHeight = pdf.currentLineHeight(true);
  columns.forEach((column, i) => {
    const text = texts[i];
    if (!text) return;
    const shift = i === 0 ? (options.indent ?? 0) * INDENT : 0;
    const width = Math.max(at[i]!.width - 2 * CELL_PAD - shift, 1);
    const align = rightAligned(column) ? 'right' : 'left';
    if (column.wrap) {
      // Wrapped over as many lines as the row was measured for; a row taller than a page is
      // cut there, with an ellipsis.
      pdf.text(text, at[i]!.x + CELL_PAD + shift, y, {
        width,
        // A point to spare: the last measured line must not be cut by rounding.
        height: (options.height ?? lineHeight) + 1,
        align,
        ellipsis: true,
      });
    } else {
      pdf.text(text, at[i]!.x + CELL_PAD + shift, y, {
        width,
        height: lineHeight,
        align,
        lineBreak: false,
        ellipsis: true,
      });
    }
  });
  pdf.fillColor('#000000');
}

export interface DrawTableOptions {
  /** Called after a page break, before the column headings are repeated (the page's heading). */
  onNewPage?: (pdf: Pdf) => void;
  /** The column headings on a band of this colour (e.g. a template's primary colour). */
  headingFill?: string;
  /** The headings' text colour (default black; on a band, white or black, whichever reads). */
  headingColour?: string;
  /**
   * A narrower table: this many points wide, against the right margin when `align` is right
   * (a summary beside or under the totals). Default: the page's width between the margins.
   */
  width?: number;
  align?: 'left' | 'right';
}

/** Black or white, whichever reads better on the colour (#rrggbb). */
export function textColourOn(fill: string): string {
  const n = Number.parseInt(fill.slice(1), 16);
  const [r, g, b] = [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  // Relative luminance, roughly (ITU-R BT.601 weights).
  return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? '#000000' : '#ffffff';
}

/** Draws the table from the current y, breaking pages as needed; leaves y below it. */
export function drawTable(pdf: Pdf, table: Table, options: DrawTableOptions = {}): void {
  const full = contentWidth(pdf);
  const width = Math.min(options.width ?? full, full);
  const span: Span = {
    x: pdf.page.margins.left + (options.align === 'right' ? full - width : 0),
    width,
  };
  const at = layoutColumns(span, table.columns);
  pdf.font(FONT).fontSize(BODY_SIZE);
  const lineHeight = pdf.currentLineHeight(true);
  const rowHeight = lineHeight + ROW_GAP;
  const newPage = () => {
    pdf.addPage();
    options.onNewPage?.(pdf);
  };
  const labels = table.columns.map((c) => c.label);
  const headings = () => {
    const heading = measureRow(pdf, table.columns, at, labels, BOLD);
    const y = pdf.y;
    if (options.headingFill) {
      pdf.rect(span.x, y - ROW_GAP / 2, span.width, heading.height + ROW_GAP).fill(options.headingFill);
    }
    drawCells(pdf, table.columns, at, heading.texts, y, BOLD, {
      height: heading.height,
      colour: options.headingColour ?? (options.headingFill ? textColourOn(options.headingFill) : '#000000'),
    });
    const below = y + heading.height + ROW_GAP / 2;
    if (!options.headingFill) hline(pdf, span, below);
    pdf.y = below + ROW_GAP;
  };
  if (table.title) {
    if (pdf.y + 3 * rowHeight > pageBottom(pdf)) newPage();
    pdf
      .font(BOLD)
      .fontSize(10.5)
      .fillColor('#000000')
      .text(printable(table.title), span.x, pdf.y, { width: span.width });
    pdf.moveDown(0.3);
  }
  if (pdf.y + 2 * rowHeight > pageBottom(pdf)) newPage();
  headings();
  for (const row of table.rows) {
    const extra = row.style === 'heading' ? ROW_GAP : 0;
    const font = row.style ? BOLD : FONT;
    const measured = measureRow(pdf, table.columns, at, row.cells, font, row.indent ?? 0);
    let height = measured.height;
    if (pdf.y + height + ROW_GAP + extra > pageBottom(pdf)) {
      newPage();
      headings();
      // Taller than a whole page: cut at the page's foot.
      height = Math.min(height, pageBottom(pdf) - pdf.y - ROW_GAP - extra);
    }
    const y = pdf.y + extra;
    if (row.style === 'total' || row.style === 'grand') hline(pdf, span, y - ROW_GAP / 2, 0.4);
    drawCells(pdf, table.columns, at, measured.texts, y, font, {
      indent: row.indent ?? 0,
      height,
    });
    if (row.style === 'grand') {
      hline(pdf, span, y + height + ROW_GAP / 2, 0.4);
      hline(pdf, span, y + height + ROW_GAP / 2 + 1.5, 0.4);
    }
    pdf.y = y + height + ROW_GAP;
  }
  pdf.x = pdf.page.margins.left;
}

/** The heading of a document's first page: organisation, title, period and notes. */
function firstHeading(pdf: Pdf, doc: FileDocument) {
  const left = pdf.page.margins.left;
  pdf
    .font(BOLD)
    .fontSize(14)
    .fillColor('#000000')
    .text(printable(doc.organisation), left, pdf.page.margins.top);
  pdf.font(BOLD).fontSize(12).text(printable(doc.title));
  pdf.font(FONT).fontSize(10).text(printable(doc.period));
  if (doc.notes?.length) {
    pdf.moveDown(0.3).font(FONT).fontSize(7.5).fillColor('#444444');
    for (const note of doc.notes) pdf.text(printable(note), { width: contentWidth(pdf) });
    pdf.fillColor('#000000');
  }
  pdf.moveDown(0.8);
}

/** The heading of every later page: one line naming the document. */
function laterHeading(pdf: Pdf, doc: FileDocument) {
  const left = pdf.page.margins.left;
  pdf
    .font(BOLD)
    .fontSize(9)
    .fillColor('#000000')
    .text(printable(`${doc.organisation} · ${doc.title} · ${doc.period}`), left, pdf.page.margins.top, {
      width: contentWidth(pdf),
      lineBreak: false,
      ellipsis: true,
    });
  pdf.moveDown(0.8);
}

/** "Page n of N" and when it was made, at the foot of every page. */
export function footers(pdf: Pdf, text: string) {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const bottom = pdf.page.margins.bottom;
    // Text below the bottom margin would start a new page; the margin is lifted meanwhile.
    pdf.page.margins.bottom = 0;
    // At the same place whatever room the document keeps above it (PdfOptions.footerRoom).
    const y = pdf.page.height - MARGIN - 10;
    pdf
      .font(FONT)
      .fontSize(7.5)
      .fillColor('#555555')
      .text(printable(text), pdf.page.margins.left, y, { lineBreak: false })
      .text(`Page ${i + 1} of ${range.count}`, pdf.page.margins.left, y, {
        width: contentWidth(pdf),
        align: 'right',
        lineBreak: false,
      });
    pdf.page.margins.bottom = bottom;
  }
}

/** A whole document: heading, its tables in order, page headings and footers. */
export function toPdf(doc: FileDocument, options: Pick<PdfOptions, 'userPassword'> = {}): Promise<Buffer> {
  return pdfBuffer(
    (pdf) => {
      firstHeading(pdf, doc);
      for (const [i, table] of doc.tables.entries()) {
        if (i > 0) pdf.moveDown(1);
        drawTable(pdf, table, { onNewPage: (p) => laterHeading(p, doc) });
      }
      footers(pdf, `${doc.title} · made ${doc.generatedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`);
    },
    {
      ...(doc.landscape ? { landscape: true } : {}),
      title: `${doc.title}: ${doc.organisation}`,
      author: doc.organisation,
      ...options,
    },
  );
}
