// A sales document on paper: A4, the platform's embedded Unicode font, the shared table and
// footer helpers (platform/files/pdf.ts). The first page carries the logo and the supplier (name, address, VAT
// and registration numbers), the title and the document's number and dates, and the customer;
// then the lines (wrapping descriptions, page breaks that repeat the column headings and name
// the document at the top of each later page), a VAT breakdown per rate and tax code when the
// lines mix them, the totals beside the banking details, notes
// and terms; the template's footer and "Page n of N" at the foot of every page; DRAFT or VOID
// across every page of a draft or a voided document.
//
// A VAT-registered company's invoice is a "Tax Invoice" with what section 20(4) of the VAT Act
// asks of a full tax invoice: the words "Tax Invoice", the supplier's name, address and VAT
// number, the recipient's name and address (and VAT number when the contact has one), the
// serial number and date, each line's description, quantity and value, the VAT charged and the
// total. Amounts read as the reports print them: thousands grouped with a space, a decimal
// point; the totals with the currency (R 1 149.99).
import type { Decimal } from 'decimal.js';
import { imageSize } from '../../platform/files/images.ts';
import {
  BOLD,
  contentWidth,
  drawTable,
  FONT,
  footers,
  lineHeight,
  MARGIN,
  type Pdf,
  pageBottom,
  pdfBuffer,
  printable,
  textColourOn,
  textHeight,
} from '../../platform/files/pdf.ts';
import {
  type Column,
  formatAmount,
  formatNumber,
  longDate,
  type Row,
  safeFilename,
  type Table,
} from '../../platform/files/table.ts';
import { money } from '../../platform/money/money.ts';
import type { Paper, PaperTaxCode } from './document-paper.ts';
import type { DocumentType } from './invoices.tables.ts';

/** The title a document prints under: what it is, and whether it is a tax document. */
export function documentTitle(type: DocumentType, vatRegistered: boolean): string {
  switch (type) {
    case 'invoice':
    case 'cash_sale':
      return vatRegistered ? 'Tax Invoice' : type === 'invoice' ? 'Invoice' : 'Cash Sale';
    case 'credit_note':
      return vatRegistered ? 'Tax Credit Note' : 'Credit Note';
    case 'debit_note':
      return vatRegistered ? 'Tax Debit Note' : 'Debit Note';
    case 'quote':
      return 'Quote';
    case 'pro_forma':
      return 'Pro Forma Invoice';
    case 'sales_order':
      return 'Sales Order';
    case 'delivery_note':
      return 'Delivery Note';
    case 'deposit':
      return 'Deposit';
  }
}

/** INV-0001.pdf */
export function documentFilename(p: Pick<Paper, 'number'>): string {
  return `${safeFilename(p.number)}.pdf`;
}

/** Types a customer pays against: they print the banking details and what is still due. */
const PAYABLE: ReadonlySet<DocumentType> = new Set(['invoice', 'debit_note', 'pro_forma']);
/** Types whose due date means something on paper, and what it is called. */
const DUE_LABEL: Partial<Record<DocumentType, string>> = {
  invoice: 'Due date',
  debit_note: 'Due date',
  pro_forma: 'Due date',
  sales_order: 'Due date',
  quote: 'Valid until',
};

const SMALL = 8.5;
const GAP = 14;
/**
 * Room under a name in large type before the smaller lines under it: a mark below a letter
 * (the circumflex under the "Ṱ" and "ḓ" of Ṱhohoyanḓou) reaches below the font's descent.
 */
const NAME_GAP = 2;

interface Ink {
  primary: string;
  accent: string;
  /** The primary colour where it reads on white (a title, a total), else black. */
  heading: string;
}

function percent(value: Decimal): string {
  return `${formatNumber(value, 0, 4)}%`;
}

function subtitleOf(p: Paper): string | null {
  // A credit or debit note names the document it adjusts (VAT Act s21(3)).
  if (p.credits && (p.type === 'credit_note' || p.type === 'debit_note'))
    return `${p.type === 'credit_note' ? 'Credit' : 'Debit'} note for ${p.credits.type.replace('_', ' ')} ${p.credits.number}`;
  if (p.type === 'cash_sale' && p.vatRegistered) return 'Cash sale';
  if (p.type === 'pro_forma') return 'Not a tax invoice';
  if (p.type === 'deposit') return 'Deposit received';
  return null;
}

/** The label and value pairs under the title. */
function metaOf(p: Paper): Array<[string, string]> {
  const out: Array<[string, string]> = [
    ['Number', p.number],
    ['Date', longDate(p.issueDate)],
  ];
  const due = DUE_LABEL[p.type];
  if (due) out.push([due, longDate(p.dueDate)]);
  if (p.reference) out.push(['Reference', p.reference]);
  if (p.currency !== 'ZAR') out.push(['Currency', p.currency]);
  return out;
}

/** Logo (when it reads as a PNG or JPEG), supplier, title and meta; leaves y below the taller side. */
function header(pdf: Pdf, p: Paper, title: string, ink: Ink) {
  const left = pdf.page.margins.left;
  const top = pdf.page.margins.top;
  const width = contentWidth(pdf);
  const leftWidth = width * 0.52;
  const rightX = left + width * 0.56;
  const rightWidth = width * 0.44;

  // Right: the title, then the number, dates and reference.
  pdf.font(BOLD).fontSize(20).fillColor(ink.heading).text(printable(title), rightX, top, {
    width: rightWidth,
    align: 'right',
  });
  const subtitle = subtitleOf(p);
  if (subtitle) {
    pdf.font(FONT).fontSize(9).fillColor('#444444').text(printable(subtitle), rightX, pdf.y, {
      width: rightWidth,
      align: 'right',
    });
  }
  let ry = pdf.y + 6;
  pdf.fontSize(SMALL);
  const step = pdf.currentLineHeight(true) + 2;
  for (const [label, value] of metaOf(p)) {
    pdf
      .font(BOLD)
      .fillColor('#000000')
      .text(label, rightX, ry, { width: rightWidth * 0.4, lineBreak: false });
    pdf.font(FONT).text(printable(value), rightX + rightWidth * 0.4, ry, {
      width: rightWidth * 0.6,
      align: 'right',
      lineBreak: false,
      ellipsis: true,
    });
    ry += step;
  }

  // Left: the logo, then who issues it.
  let ly = top;
  // Stored logos were read through when uploaded (templates.ts); what is not a PNG or JPEG by
  // its signature is left out rather than failing the document.
  const size = p.look.logo ? imageSize(p.look.logo) : undefined;
  if (p.look.logo && size?.width && size.height) {
    try {
      pdf.image(p.look.logo, left, top, { fit: [170, 60] });
      ly = top + size.height * Math.min(170 / size.width, 60 / size.height) + 8;
    } catch {
      // An image pdfkit cannot place prints no logo rather than no document.
    }
  }
  pdf.font(BOLD).fontSize(12).fillColor('#000000').text(printable(p.company.name), left, ly, {
    width: leftWidth,
  });
  pdf.y += NAME_GAP;
  pdf.font(FONT).fontSize(SMALL).fillColor('#333333');
  const lines = [
    ...p.company.lines,
    p.vatRegistered && p.company.vatNumber ? `VAT No. ${p.company.vatNumber}` : null,
    p.company.registrationNo ? `Reg. No. ${p.company.registrationNo}` : null,
    [p.company.email, p.company.phone].filter(Boolean).join('  ·  ') || null,
  ];
  for (const line of lines) if (line) pdf.text(printable(line), left, pdf.y, { width: leftWidth });
  pdf.y = Math.max(pdf.y, ry) + GAP;
  pdf.fillColor('#000000');
}

/** The customer, on the accent colour. */
function customerBox(pdf: Pdf, p: Paper, ink: Ink) {
  const left = pdf.page.margins.left;
  const width = contentWidth(pdf) * 0.52;
  const pad = 7;
  const inner = width - 2 * pad;
  const label =
    { delivery_note: 'Deliver to', quote: 'Quote for', credit_note: 'Credit to' }[p.type as string] ??
    'Bill to';
  const lines = [
    ...p.customer.lines,
    ...(p.customer.vatNumber ? [`VAT No. ${p.customer.vatNumber}`] : []),
  ].map(printable);
  const name = printable(p.customer.name);
  pdf.font(BOLD).fontSize(8);
  let height = pdf.heightOfString(label, { width: inner }) + 2;
  pdf.fontSize(10);
  height += pdf.heightOfString(name, { width: inner }) + NAME_GAP;
  pdf.font(FONT).fontSize(SMALL);
  for (const line of lines) height += pdf.heightOfString(line, { width: inner });
  const y = pdf.y;
  pdf.rect(left, y, width, height + 2 * pad).fill(ink.accent);
  const text = textColourOn(ink.accent);
  pdf
    .font(BOLD)
    .fontSize(8)
    .fillColor(text === '#000000' ? ink.heading : text)
    .text(label.toUpperCase(), left + pad, y + pad, { width: inner });
  pdf.moveDown(0.15);
  pdf
    .font(BOLD)
    .fontSize(10)
    .fillColor(text)
    .text(name, left + pad, pdf.y, { width: inner });
  pdf.y += NAME_GAP;
  pdf.font(FONT).fontSize(SMALL);
  for (const line of lines) pdf.text(line, left + pad, pdf.y, { width: inner });
  pdf.y = y + height + 2 * pad + GAP;
  pdf.fillColor('#000000');
}

/** The lines as a table of the shared renderer: no prices on a delivery note, no VAT when not registered. */
/**
 * Whether the document prints VAT (columns, breakdown, "Total excl. VAT"): a VAT-registered
 * company's, but never a deposit, which is no supply until applied or forfeited (VAT Act s1).
 */
export function printsVat(p: Pick<Paper, 'vatRegistered' | 'type'>): boolean {
  return p.vatRegistered && p.type !== 'deposit';
}

export function linesTable(p: Paper): Table {
  if (p.type === 'delivery_note') {
    return {
      columns: [
        { label: 'Description', width: 6, wrap: true },
        { label: 'Quantity', kind: 'number', width: 1.2 },
      ],
      rows: p.lines.map((l) => ({ cells: [l.description, formatNumber(l.quantity, 0, 4)] })),
    };
  }
  const columns: Column[] = [
    // Widths for DejaVu Sans at 8.5 pt: a discount of "12.25%", a unit price of "12 500.00".
    { label: 'Description', width: printsVat(p) ? 2.55 : 3.8, wrap: true },
    { label: 'Qty', kind: 'number', width: 0.7 },
    { label: 'Unit price', kind: 'number', width: 1.1 },
    { label: 'Disc.', kind: 'number', width: 0.85 },
  ];
  if (printsVat(p)) {
    columns.push(
      { label: 'VAT rate', kind: 'number', width: 0.9 },
      { label: 'Net', kind: 'money', width: 1.15 },
      { label: 'VAT', kind: 'money', width: 1 },
      { label: 'Total', kind: 'money', width: 1.15 },
    );
  } else {
    columns.push({ label: 'Amount', kind: 'money', width: 1.2 });
  }
  const rows: Row[] = p.lines.map((l) => {
    const common = [
      l.description,
      formatNumber(l.quantity, 0, 4),
      formatNumber(l.unitPrice, 2, 4),
      l.discountRate.isZero() ? '' : percent(l.discountRate),
    ];
    return {
      cells: printsVat(p) ? [...common, percent(l.vatRate), l.net, l.vat, l.total] : [...common, l.net],
    };
  });
  return { columns, rows };
}

/** One rate of one tax code: the lines' amounts summed as stored (each already rounded). */
export interface VatBand {
  taxCode: PaperTaxCode;
  rate: Decimal;
  /** The taxable amount: the lines' nets, after discounts, excl. VAT. */
  net: Decimal;
  vat: Decimal;
  total: Decimal;
}

/** The order bands print in: standard first, then zero-rated, exempt, out of scope. */
const CODE_ORDER: PaperTaxCode[] = [
  'standard',
  'accommodation_short',
  'accommodation_long',
  'zero',
  'zero_export',
  'exempt',
  'out_of_scope',
];

/**
 * The lines summed per tax code and rate, when a document mixes them (15% and 0%, or standard
 * and exempt); null when every line is taxed alike, and then the totals say all there is. The
 * bands add up to the document's totals: the totals are the sums of the same rounded lines
 * (vat.ts, documentTotals), and nothing here rounds again.
 */
export function vatBreakdown(p: Paper): VatBand[] | null {
  if (!printsVat(p) || p.type === 'delivery_note') return null;
  const bands = new Map<string, VatBand>();
  for (const l of p.lines) {
    if (!l.taxCode) continue;
    const key = `${l.taxCode}:${l.vatRate.toString()}`;
    const band = bands.get(key) ?? {
      taxCode: l.taxCode,
      rate: l.vatRate,
      net: money(0),
      vat: money(0),
      total: money(0),
    };
    bands.set(key, {
      ...band,
      net: band.net.plus(l.net),
      vat: band.vat.plus(l.vat),
      total: band.total.plus(l.total),
    });
  }
  if (bands.size < 2) return null;
  return [...bands.values()].sort(
    (a, b) => CODE_ORDER.indexOf(a.taxCode) - CODE_ORDER.indexOf(b.taxCode) || b.rate.comparedTo(a.rate),
  );
}

/** "Standard rate 15%", "Zero-rated 0%", "Exempt". */
function bandLabel(band: VatBand): string {
  switch (band.taxCode) {
    case 'standard':
      return `Standard rate ${percent(band.rate)}`;
    case 'zero':
      return `Zero-rated ${percent(band.rate)}`;
    case 'zero_export':
      return `Zero-rated export ${percent(band.rate)}`;
    case 'exempt':
      return 'Exempt';
    case 'out_of_scope':
      return 'Out of scope';
    case 'accommodation_short':
      return `Accommodation ${percent(band.rate)}`;
    case 'accommodation_long':
      // s10(10): the rate applies to 60% of the value of a stay of more than 28 days.
      return `Accommodation over 28 days ${percent(band.rate)} on 60%`;
  }
}

/** The breakdown as a table of the shared renderer: a row per band, then their sums. */
export function vatBreakdownTable(bands: VatBand[]): Table {
  const sum = (pick: (b: VatBand) => Decimal) => bands.reduce((s, b) => s.plus(pick(b)), money(0));
  return {
    columns: [
      { label: 'VAT breakdown', width: 1.9 },
      { label: 'Excl. VAT', kind: 'money', width: 1.1 },
      { label: 'VAT', kind: 'money', width: 0.9 },
      { label: 'Incl. VAT', kind: 'money', width: 1.1 },
    ],
    rows: [
      ...bands.map((b) => ({ cells: [bandLabel(b), b.net, b.vat, b.total] })),
      {
        cells: ['Total', sum((b) => b.net), sum((b) => b.vat), sum((b) => b.total)],
        style: 'total' as const,
      },
    ],
  };
}

/** The totals block's rows: [label, amount, bold]. */
export function totalsOf(p: Paper): Array<[string, Decimal, boolean]> {
  const out: Array<[string, Decimal, boolean]> = [];
  if (!p.discountTotal.isZero()) {
    out.push(['Before discount', p.subtotal.plus(p.discountTotal), false]);
    out.push(['Discount', p.discountTotal.negated(), false]);
  }
  if (printsVat(p)) {
    const rates = [...new Set(p.lines.filter((l) => !l.vat.isZero()).map((l) => l.vatRate.toString()))];
    out.push(['Total excl. VAT', p.subtotal, false]);
    out.push([
      rates.length === 1
        ? `VAT at ${formatNumber(p.lines.find((l) => !l.vat.isZero())!.vatRate, 0, 3)}%`
        : 'VAT',
      p.vatTotal,
      false,
    ]);
    out.push(['Total incl. VAT', p.total, true]);
  } else {
    out.push(['Total', p.total, true]);
  }
  if (p.type === 'credit_note') {
    out.push(['Applied to invoices', p.credited, false]);
    out.push(['Credit remaining', p.due, true]);
  } else if (
    p.type === 'invoice' ||
    p.type === 'debit_note' ||
    p.type === 'cash_sale' ||
    p.type === 'deposit'
  ) {
    out.push(['Amount paid', p.paid, false]);
    if (!p.credited.isZero()) out.push(['Credit notes applied', p.credited, false]);
    out.push(['Amount due', p.due, true]);
  }
  return out;
}

/** "Bank", "Account name", ... of the settings, when any is set, for a document that is paid against. */
function bankingOf(p: Paper): Array<[string, string]> {
  if (!PAYABLE.has(p.type) || p.status === 'void') return [];
  const s = p.settings;
  const rows: Array<[string, string | null]> = [
    ['Bank', s.bankName],
    ['Account name', s.bankAccountName],
    ['Account number', s.bankAccountNumber],
    ['Branch code', s.bankBranchCode],
    ['Account type', s.bankAccountType],
  ];
  const given = rows.filter((r): r is [string, string] => Boolean(r[1]));
  return given.length ? [...given, ['Payment reference', p.number]] : [];
}

/** The totals on the right (on the accent colour) and the banking details on the left, side by side. */
function totalsAndBanking(pdf: Pdf, p: Paper, ink: Ink, newPage: () => void) {
  const totals = totalsOf(p);
  const banking = bankingOf(p);
  const left = pdf.page.margins.left;
  const width = contentWidth(pdf);
  const boxWidth = width * 0.44;
  const boxX = left + width - boxWidth;
  const pad = 6;
  pdf.font(FONT).fontSize(9);
  const row = pdf.currentLineHeight(true) + 4;
  const totalsHeight = totals.length * row + 2 * pad - 4;
  const bankingHeight = banking.length ? (banking.length + 1) * (row - 1) + pad : 0;
  const height = Math.max(totalsHeight, bankingHeight);
  pdf.y += 6;
  if (pdf.y + height > pageBottom(pdf)) newPage();
  const y = pdf.y;
  pdf.rect(boxX, y, boxWidth, totalsHeight).fill(ink.accent);
  const onAccent = textColourOn(ink.accent);
  totals.forEach(([label, amount, bold], i) => {
    const ty = y + pad + i * row;
    pdf
      .font(bold ? BOLD : FONT)
      .fontSize(9)
      .fillColor(bold && onAccent === '#000000' ? ink.heading : onAccent);
    pdf.text(label, boxX + pad, ty, { width: boxWidth * 0.55, lineBreak: false });
    pdf.text(formatAmount(amount, p.currency), boxX + boxWidth * 0.45, ty, {
      width: boxWidth * 0.55 - pad,
      align: 'right',
      lineBreak: false,
    });
  });
  if (banking.length) {
    const bx = left;
    const bWidth = width - boxWidth - 20;
    pdf
      .font(BOLD)
      .fontSize(9)
      .fillColor(ink.heading)
      .text('Banking details', bx, y + pad, { width: bWidth });
    banking.forEach(([label, value], i) => {
      const by = y + pad + (i + 1) * (row - 1);
      pdf.font(BOLD).fontSize(SMALL).fillColor('#000000');
      pdf.text(label, bx, by, { width: bWidth * 0.42, lineBreak: false });
      pdf.font(FONT).text(printable(value), bx + bWidth * 0.42, by, {
        width: bWidth * 0.58,
        lineBreak: false,
        ellipsis: true,
      });
    });
  }
  pdf.fillColor('#000000');
  pdf.y = y + height + GAP;
  pdf.x = left;
}

/** "Pay online: <the pay page>" (issue 18), a link in the PDF too. */
function payOnline(pdf: Pdf, url: string, ink: Ink, newPage: () => void) {
  const left = pdf.page.margins.left;
  pdf.font(BOLD).fontSize(9);
  if (pdf.y + 2 * pdf.currentLineHeight(true) > pageBottom(pdf)) newPage();
  pdf.fillColor(ink.heading).text('Pay online: ', left, pdf.y, { width: contentWidth(pdf), continued: true });
  pdf.font(FONT).fillColor('#000000').text(url, { link: url });
  pdf.y += 8;
}

/** A heading and its text (notes, terms), on this page if it fits, else at the top of the next. */
function textBlock(pdf: Pdf, heading: string, body: string, ink: Ink, newPage: () => void) {
  const left = pdf.page.margins.left;
  const width = contentWidth(pdf);
  const text = printable(body);
  pdf.font(BOLD).fontSize(9);
  const headingHeight = pdf.currentLineHeight(true) + 2;
  pdf.font(FONT).fontSize(SMALL);
  const bodyHeight = pdf.heightOfString(text, { width });
  if (pdf.y + headingHeight + bodyHeight > pageBottom(pdf)) newPage();
  pdf.font(BOLD).fontSize(9).fillColor(ink.heading).text(heading, left, pdf.y, { width });
  pdf.y += 2;
  const room = pageBottom(pdf) - pdf.y;
  pdf
    .font(FONT)
    .fontSize(SMALL)
    .fillColor('#000000')
    .text(text, left, pdf.y, { width, height: Math.min(bodyHeight + 1, room), ellipsis: true });
  pdf.y += 8;
}

/** Who took delivery: a delivery note's signature lines. */
function receivedBlock(pdf: Pdf, ink: Ink, newPage: () => void) {
  const left = pdf.page.margins.left;
  const width = contentWidth(pdf);
  if (pdf.y + 70 > pageBottom(pdf)) newPage();
  pdf
    .font(BOLD)
    .fontSize(9)
    .fillColor(ink.heading)
    .text('Received in good order', left, pdf.y + 6, { width });
  const y = pdf.y + 26;
  const third = width / 3;
  for (const [i, label] of ['Name', 'Signature', 'Date'].entries()) {
    const x = left + i * third;
    pdf
      .moveTo(x, y)
      .lineTo(x + third - 16, y)
      .lineWidth(0.5)
      .strokeColor('#555555')
      .stroke();
    pdf
      .font(FONT)
      .fontSize(7.5)
      .fillColor('#555555')
      .text(label, x, y + 3, { lineBreak: false });
  }
  pdf.fillColor('#000000');
  pdf.y = y + 20;
}

/** Across every page of a draft or a voided document, faintly. */
function watermark(pdf: Pdf, word: string) {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const { width, height } = pdf.page;
    pdf.save();
    pdf.rotate(-35, { origin: [width / 2, height / 2] });
    pdf.font(BOLD).fontSize(110).fillColor('#999999').fillOpacity(0.18);
    pdf.text(word, 0, height / 2 - 55, { width, align: 'center', lineBreak: false });
    pdf.restore();
  }
}

/** The template's footer at the foot of every page, above "Page n of N". */
function templateFooter(pdf: Pdf, footer: string, height: number) {
  const range = pdf.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    pdf.switchToPage(i);
    const bottom = pdf.page.margins.bottom;
    pdf.page.margins.bottom = 0;
    const y = pdf.page.height - MARGIN - 14 - height;
    pdf
      .font(FONT)
      .fontSize(7.5)
      .fillColor('#444444')
      .text(footer, pdf.page.margins.left, y, {
        width: contentWidth(pdf),
        height: height + 1,
        align: 'center',
        ellipsis: true,
      });
    pdf.page.margins.bottom = bottom;
  }
}

/** The document as a PDF. */
export function renderPaper(p: Paper): Promise<Buffer> {
  const title = documentTitle(p.type, p.vatRegistered);
  const ink: Ink = {
    primary: p.look.primaryColour,
    accent: p.look.accentColour,
    heading: textColourOn(p.look.primaryColour) === '#ffffff' ? p.look.primaryColour : '#000000',
  };
  const footer = p.look.footer ? printable(p.look.footer) : null;
  // The footer's height at the width of the page (A4 less the margins): room kept on every page.
  const footerHeight = footer ? measureFooter(footer) : 0;
  return pdfBuffer(
    (pdf) => {
      const later = () => {
        pdf
          .font(BOLD)
          .fontSize(9)
          .fillColor('#000000')
          .text(
            printable(`${p.company.name} · ${title} ${p.number} (continued)`),
            pdf.page.margins.left,
            pdf.page.margins.top,
            { width: contentWidth(pdf), lineBreak: false, ellipsis: true },
          );
        pdf.moveDown(0.8);
      };
      const newPage = () => {
        pdf.addPage();
        later();
      };
      header(pdf, p, title, ink);
      customerBox(pdf, p, ink);
      drawTable(pdf, linesTable(p), { onNewPage: later, headingFill: ink.primary });
      const bands = vatBreakdown(p);
      if (bands) {
        pdf.y += 8;
        drawTable(pdf, vatBreakdownTable(bands), {
          onNewPage: later,
          headingFill: ink.accent,
          width: contentWidth(pdf) * 0.6,
          align: 'right',
        });
      }
      if (p.type === 'delivery_note') receivedBlock(pdf, ink, newPage);
      else totalsAndBanking(pdf, p, ink, newPage);
      if (p.payUrl) payOnline(pdf, p.payUrl, ink, newPage);
      if (p.notes) textBlock(pdf, 'Notes', p.notes, ink, newPage);
      if (p.terms) textBlock(pdf, 'Terms', p.terms, ink, newPage);
      if (footer) templateFooter(pdf, footer, footerHeight);
      if (p.status === 'draft') watermark(pdf, 'DRAFT');
      if (p.status === 'void') watermark(pdf, 'VOID');
      footers(pdf, `${title} ${p.number} · ${p.company.name}`);
    },
    {
      title: `${title} ${p.number}`,
      author: p.company.name,
      footerRoom: footer ? footerHeight + 8 : 0,
    },
  );
}

/** How tall the footer prints across the page (7.5 pt, at most four lines). */
function measureFooter(footer: string): number {
  return Math.min(textHeight(footer, FONT, 7.5), 4 * lineHeight(FONT, 7.5));
}
