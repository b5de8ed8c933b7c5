// What a sales document prints: read in the caller's transaction (the request's, or a recurring
// run's), as exact decimals from the stored NUMERIC strings, into a plain object that
// document-pdf.ts renders without the database (after the request has committed, for a
// download). The company as it was registered for VAT on the issue date, the customer even if
// deleted since (the document still names them), the settings' banking details, and the look:
// the document's template, else the settings' default, else the built-in one.

import type { Decimal } from 'decimal.js';
import { notFound } from '../../platform/http/problem.ts';
import { money } from '../../platform/money/money.ts';
import { companyOf, today, type WorkCtx } from '../../platform/work/context.ts';
import type { SalesTaxCode } from '../ledger/index.ts';
import {
  amountDue,
  creditedOf,
  findInvoiceRow,
  type InvoiceRow,
  linesOf,
  paidOf,
  RECEIVABLE_TYPES,
  settlements,
  shownStatus,
} from './invoices.queries.ts';
import type { DocumentType, Status } from './invoices.tables.ts';
import { type DocumentSettings, loadSettings } from './settings.queries.ts';

export interface PaperParty {
  name: string;
  /** Printed under the name: "trading as", the address lines, in order. */
  lines: string[];
  vatNumber: string | null;
  email: string | null;
}

/**
 * A line's tax code as the document prints it (DECISIONS.md, "Money and VAT"): the code stored
 * on the line, or none when the company was not VAT-registered on the issue date (no VAT).
 */
export type PaperTaxCode = SalesTaxCode;

export function taxCodeOf(stored: SalesTaxCode, vatRegistered: boolean): PaperTaxCode | null {
  return vatRegistered ? stored : null;
}

export interface PaperLine {
  description: string;
  quantity: Decimal;
  unitPrice: Decimal;
  discountRate: Decimal;
  vatRate: Decimal;
  taxCode: PaperTaxCode | null;
  net: Decimal;
  vat: Decimal;
  total: Decimal;
}

export interface PaperLook {
  primaryColour: string;
  accentColour: string;
  footer: string | null;
  logo: Buffer | null;
}

export interface Paper {
  id: string;
  type: DocumentType;
  number: string;
  status: Status;
  issueDate: string;
  dueDate: string;
  currency: string;
  reference: string | null;
  terms: string | null;
  notes: string | null;
  /** VAT-registered on the issue date: a tax invoice (or tax credit or debit note). */
  vatRegistered: boolean;
  /** The document a credit or debit note adjusts: its type and number. */
  credits: { type: DocumentType; number: string } | null;
  subtotal: Decimal;
  discountTotal: Decimal;
  vatTotal: Decimal;
  total: Decimal;
  paid: Decimal;
  credited: Decimal;
  due: Decimal;
  lines: PaperLine[];
  /** The pay page of its newest active, unexpired payment link while something is due (issue 18). */
  payUrl: string | null;
  company: PaperParty & { registrationNo: string | null; phone: string | null };
  customer: PaperParty;
  settings: DocumentSettings;
  look: PaperLook;
}

export const BUILT_IN_LOOK: PaperLook = {
  primaryColour: '#1f4e79',
  accentColour: '#f2f2f2',
  footer: null,
  logo: null,
};

const present = (values: Array<string | null | undefined>): string[] =>
  values.map((v) => v?.trim()).filter((v): v is string => Boolean(v));

/** "Cape Town 8001": a city and its postal code on one line. */
function cityLine(city: string | null, postalCode: string | null): string | null {
  return present([city, postalCode]).join(' ') || null;
}

async function companyParty(ctx: WorkCtx, companyId: string, issueDate: string) {
  const c = await ctx.db
    .selectFrom('companies')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
  // The VAT number of the registration in force on the issue date (the company's own otherwise).
  const registration = await ctx.db
    .selectFrom('company_vat_registrations')
    .select(['registered', 'vat_number'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('effective_from', '<=', issueDate)
    .orderBy('effective_from', 'desc')
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return {
    name: c.name,
    lines: present([
      c.trade_name && c.trade_name !== c.name ? `Trading as ${c.trade_name}` : null,
      c.address_line1,
      c.address_line2,
      cityLine(c.city, c.postal_code),
      c.province,
      c.country,
    ]),
    vatNumber: registration?.vat_number ?? c.vat_number,
    registrationNo: c.registration_no,
    email: c.email,
    phone: c.phone,
  };
}

async function customerParty(ctx: WorkCtx, contactId: string): Promise<PaperParty> {
  const c = await ctx.db
    .selectFrom('contacts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .executeTakeFirstOrThrow();
  // The street address, or the postal one when no street address is kept.
  const street = present([
    c.address_line1,
    c.address_line2,
    cityLine(c.city, c.postal_code),
    c.province,
    c.country,
  ]);
  const postal = present([
    c.postal_address_line1,
    c.postal_address_line2,
    cityLine(c.postal_city, c.postal_postal_code),
    c.postal_province,
    c.postal_country,
  ]);
  return {
    name: c.name,
    lines: [
      ...(c.trading_name && c.trading_name !== c.name ? [`Trading as ${c.trading_name}`] : []),
      ...(street.length ? street : postal),
    ],
    vatNumber: c.vat_number?.trim() || null,
    email: c.email?.trim() || null,
  };
}

/** The document's look: its own template if live, else the settings' default, else the built-in one. */
async function lookOf(ctx: WorkCtx, row: InvoiceRow, settings: DocumentSettings): Promise<PaperLook> {
  for (const id of [row.template_id, settings.defaultTemplateId]) {
    if (!id) continue;
    const t = await ctx.db
      .selectFrom('invoice_templates')
      .select(['primary_colour', 'accent_colour', 'footer', 'logo'])
      .where('tenant_id', '=', ctx.tenantId)
      .where('company_id', '=', row.company_id)
      .where('id', '=', id)
      .where('deleted_at', 'is', null)
      .executeTakeFirst();
    if (!t) continue;
    return {
      primaryColour: t.primary_colour,
      accentColour: t.accent_colour,
      footer: t.footer,
      logo: t.logo ? Buffer.from(t.logo.buffer, t.logo.byteOffset, t.logo.byteLength) : null,
    };
  }
  return BUILT_IN_LOOK;
}

/**
 * The pay page's address of a payment link. The pay page is the online-payments module's; the
 * address is here because a printed or e-mailed document carries it, and invoices is the lower
 * module (online-payments imports this through index.ts, never the other way round).
 */
export function payUrl(deps: { config: { publicBaseUrl: string } }, token: string): string {
  return `${deps.config.publicBaseUrl}/pay/${token}`;
}

/** The pay page of the document's newest live payment link, when it has something due online. */
async function payUrlOf(ctx: WorkCtx, row: InvoiceRow, due: Decimal): Promise<string | null> {
  const payable = RECEIVABLE_TYPES.has(row.document_type) && row.status !== 'draft' && row.status !== 'void';
  if (!payable || row.currency !== 'ZAR' || due.lessThanOrEqualTo(0)) return null;
  const link = await ctx.db
    .selectFrom('payment_links')
    .select('token')
    .where('tenant_id', '=', ctx.tenantId)
    .where('invoice_id', '=', row.id)
    .where('status', '=', 'active')
    .where('expires_at', '>', ctx.deps.now())
    .orderBy('created_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  return link ? payUrl(ctx.deps, link.token) : null;
}

/** Everything the document prints, or 404 (another company's or tenant's id, a deleted draft). */
export async function loadPaper(ctx: WorkCtx, id: string): Promise<Paper> {
  const companyId = companyOf(ctx);
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  const lines = (await linesOf(ctx.db, ctx.tenantId, [id])).get(id)!;
  const settled = (await settlements(ctx.db, ctx.tenantId, [id])).get(id)!;
  const settings = await loadSettings(ctx.db, ctx.tenantId, companyId);
  const adjusted = row.credited_invoice_id
    ? await findInvoiceRow(ctx.db, ctx.tenantId, companyId, row.credited_invoice_id)
    : undefined;
  const credits = adjusted ? { type: adjusted.document_type, number: adjusted.number } : null;
  return {
    id: row.id,
    type: row.document_type,
    number: row.number,
    status: shownStatus(row, today(ctx)),
    issueDate: row.issue_date,
    dueDate: row.due_date,
    currency: row.currency,
    reference: row.reference,
    terms: row.terms,
    notes: row.notes,
    vatRegistered: row.vat_registered,
    credits,
    subtotal: money(row.subtotal),
    discountTotal: money(row.discount_total),
    vatTotal: money(row.vat_total),
    total: money(row.total),
    paid: money(paidOf(row, settled)),
    credited: money(creditedOf(row, settled)),
    due: money(amountDue(row, settled)),
    payUrl: await payUrlOf(ctx, row, money(amountDue(row, settled))),
    lines: lines.map((l) => ({
      description: l.description,
      quantity: money(l.quantity),
      unitPrice: money(l.unit_price),
      discountRate: money(l.discount_rate),
      vatRate: money(l.vat_rate),
      taxCode: taxCodeOf(l.tax_code, row.vat_registered),
      net: money(l.net_amount),
      vat: money(l.vat_amount),
      total: money(l.total_amount),
    })),
    company: await companyParty(ctx, companyId, row.issue_date),
    customer: await customerParty(ctx, row.contact_id),
    settings,
    look: await lookOf(ctx, row, settings),
  };
}
