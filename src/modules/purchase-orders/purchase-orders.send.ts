// The purchase order on paper, and e-mailed to the supplier. The PDF is the platform's document
// (platform/files: a heading, the lines as a table, totals), not the sales documents' paper,
// which is made for invoices to customers. Sending happens in the caller's transaction (the
// message and its PDF are stored and the send queued: platform/mail), so a slow mail server
// never holds the request and a change that rolls back sends nothing.
import { PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { type FileDocument, formatAmount, longDate } from '../../platform/files/table.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { sendMail } from '../../platform/mail/mailer.ts';
import { money } from '../../platform/money/money.ts';
import type { OrderRecord } from './purchase-orders.queries.ts';
import { assertReceivable, getOrder, lockOrder, recordOf, supplierOf } from './purchase-orders.service.ts';

const TAX_LABEL: Record<string, string> = {
  standard: 'Standard',
  standard_capital: 'Standard',
  zero: 'Zero-rated',
  exempt: 'Exempt',
  out_of_scope: 'No VAT',
};

/** The order as a document: who orders from whom, when, where to deliver, the lines and totals. */
export async function orderDocument(ctx: TenantCtx, order: OrderRecord): Promise<FileDocument> {
  const company = await ctx.db
    .selectFrom('companies')
    .select(['name', 'vat_number'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', order.companyId)
    .executeTakeFirstOrThrow();
  const amount = (v: number) => formatAmount(money(v), order.currency);
  const notes = [
    `Supplier: ${order.supplierName}`,
    ...(company.vat_number ? [`Our VAT No. ${company.vat_number}`] : []),
    ...(order.expectedDate ? [`Expected by ${longDate(order.expectedDate)}`] : []),
    ...(order.deliveryAddress ? [`Deliver to: ${order.deliveryAddress}`] : []),
    ...(order.reference ? [`Reference: ${order.reference}`] : []),
    ...(order.notes ? [order.notes] : []),
    ...(order.status === 'draft' ? ['DRAFT: not yet sent to the supplier'] : []),
    ...(order.status === 'cancelled' ? ['CANCELLED'] : []),
  ];
  return {
    title: `Purchase Order ${order.number}`,
    organisation: company.name,
    period: `Dated ${longDate(order.issueDate)}`,
    notes,
    filename: order.number,
    generatedAt: ctx.deps.now(),
    tables: [
      {
        columns: [
          { label: 'Description', width: 4, wrap: true },
          { label: 'Quantity', kind: 'number' },
          { label: 'Unit price', kind: 'money' },
          { label: 'VAT', width: 1 },
          { label: 'Amount', kind: 'money' },
        ],
        rows: [
          ...order.lines.map((l) => ({
            cells: [
              l.description,
              l.quantity,
              money(l.unitPrice),
              `${TAX_LABEL[l.taxCode] ?? l.taxCode} ${l.vatRate}%`,
              money(l.netAmount),
            ],
          })),
          { cells: ['Subtotal', null, null, null, money(order.subtotal)], style: 'total' as const },
          { cells: ['VAT', null, null, null, money(order.vatTotal)] },
          {
            cells: [`Total (${amount(order.total)})`, null, null, null, money(order.total)],
            style: 'grand' as const,
          },
        ],
      },
    ],
  };
}

/** The PDF's bytes. pdfkit is loaded with the first PDF, not at start-up. */
export async function orderPdf(doc: FileDocument): Promise<Buffer> {
  return (await import('../../platform/files/pdf.ts')).toPdf(doc);
}

export interface SendInput {
  to?: string | undefined;
  message?: string | undefined;
}

/**
 * POST /api/purchase-orders/{id}/send: the PDF e-mailed to `to` or the supplier's address (400
 * naming `to` when neither); a draft becomes sent. A cancelled order is not sent (409), nor one
 * whose lines name a product no longer live (400 naming lines[i].productId: it could not be received).
 */
export async function sendOrder(ctx: TenantCtx, id: string, input: SendInput) {
  const row = await lockOrder(ctx, id);
  if (row.status === 'cancelled')
    throw conflict(`Purchase order ${row.number} is cancelled: it is not sent`, { code: 'ORDER_CLOSED' });
  await assertReceivable(ctx, id);
  const supplier = await supplierOf(ctx, row.contact_id).catch(() => null);
  const to = input.to?.trim() || supplier?.email;
  if (!to)
    throw badRequest('to', `${supplier?.name ?? 'The supplier'} has no e-mail address; give one in to`);
  const now = ctx.deps.now();
  const updated = await ctx.db
    .updateTable('purchase_orders')
    .set({ sent_at: now, ...(row.status === 'draft' ? { status: 'sent' as const } : {}) })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirstOrThrow();
  const order = await recordOf(ctx, updated);
  const doc = await orderDocument(ctx, order);
  const total = formatAmount(money(order.total), order.currency);
  const subject = `Purchase Order ${order.number} from ${doc.organisation}: ${total}`;
  const text = [
    `Dear ${order.supplierName}`,
    ...(input.message?.trim() ? [input.message.trim()] : []),
    `Please find attached our Purchase Order ${order.number}, dated ${longDate(order.issueDate)}, for ${total}` +
      (order.expectedDate ? `, to be delivered by ${longDate(order.expectedDate)}.` : '.'),
    `Please quote ${order.number} on your delivery note and tax invoice.`,
    `Kind regards\n${doc.organisation}`,
  ].join('\n\n');
  const emailId = await sendMail(
    { db: ctx.db, tenantId: ctx.tenantId, deps: ctx.deps },
    {
      to,
      subject,
      text: `${text}\n`,
      kind: 'purchase_order',
      attachments: [
        { filename: `${order.number}.pdf`, contentType: PDF_CONTENT_TYPE, content: await orderPdf(doc) },
      ],
    },
  );
  return {
    emailId,
    to,
    status: ctx.deps.mailer.configured ? ('queued' as const) : ('stored' as const),
    subject,
    sentAt: now.toISOString(),
    purchaseOrder: order,
  };
}

/** GET /api/purchase-orders/{id}/pdf: the document to render (after the transaction commits). */
export async function orderFile(ctx: TenantCtx, id: string): Promise<FileDocument> {
  return orderDocument(ctx, await getOrder(ctx, id));
}
