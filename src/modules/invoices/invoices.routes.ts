import { Type } from 'typebox';
import { FileResponse, PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { allocate, listAllocations, reverseAllocation } from './allocations.ts';
import { creditRoutes } from './credits.routes.ts';
import { loadPaper } from './document-paper.ts';
import { documentFilename, renderPaper } from './document-pdf.ts';
import { sendDocument } from './document-send.ts';
import {
  ConvertBody,
  Invoice,
  InvoiceCreate,
  InvoiceListQuery,
  InvoiceUpdate,
  PdfFile,
  SendBody,
  SendResult,
} from './invoices.schemas.ts';
import {
  answerQuote,
  convertInvoice,
  createInvoice,
  getInvoice,
  listInvoices,
  updateInvoice,
} from './invoices.service.ts';
import {
  Allocation,
  AllocationCreate,
  AllocationParams,
  Payment,
  PaymentCreate,
  PaymentParams,
} from './payments.schemas.ts';
import { listPayments, recordPayment, reversePayment } from './payments.ts';
import { deleteInvoice, releaseInvoice } from './release.ts';
import { Recovery, RecoveryCreate, WriteOff, WriteOffCreate } from './write-off.schemas.ts';
import { recoverBadDebt, writeOffInvoice } from './write-off.ts';

const { read, write } = routeGroup({ module: 'invoices', companyScoped: true });

const VoidQuery = Type.Object({
  date: Type.Optional(
    Type.String({
      format: 'date',
      description:
        "The void date: a tax invoice's credit note is dated it (default today, UTC, or the invoice's issue " +
        "date when later); any other released document's reversal too (default its issue date)",
    }),
  ),
});

export const invoiceRoutes: AnyRoute[] = [
  // Customer credit, refunds, advance payments and forfeits (credits.routes.ts).
  ...creditRoutes,
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices',
    operationId: 'createInvoice',
    tag: 'Invoices',
    errors: ['CONFLICT', 'CREDIT_NOTE_REQUIRED'],
    summary: 'Create an invoice or another sales document (a draft)',
    description:
      'The nine types: invoice, quote, pro_forma, sales_order, delivery_note, credit_note, debit_note, cash_sale, ' +
      'deposit. Numbered per type per company from the invoice settings (gap-free). VAT: a line carries a taxCode ' +
      '(standard, zero, zero_export, exempt, out_of_scope; default standard) and the rate follows from it and the ' +
      'issue date (standard 15%, 14% before 2018-04-01; the others 0%); vatRate is accepted instead: 0 means zero, ' +
      'the standard rate of the date standard, any other rate (or one disagreeing with taxCode) is 400 naming ' +
      'lines[i].vatRate. A company not VAT-registered on the issue date charges none whatever the line says. ' +
      'A negative line (a discount, an item returned) is allowed while neither the total nor the VAT total ' +
      'comes to less than zero: otherwise 422 CREDIT_NOTE_REQUIRED naming total or vatTotal (giving money back ' +
      "or reducing output tax is a credit note's work, VAT Act s21); a credit note itself must not come to " +
      'less than zero (400 naming lines). Each line is rounded half-up ' +
      'to cents; totals are sums of rounded lines. dueDate before issueDate is 400. Left out, paymentTermsDays, ' +
      "terms and notes take the invoice settings' defaults (defaultPaymentTermsDays, defaultTerms, defaultNotes); " +
      'dueDate is still required. templateId names a template of the company (400 otherwise). A credit or ' +
      'debit note may name the released invoice or debit note it adjusts (creditedDocumentId; creditedInvoiceId ' +
      "is its alias): it then takes that document's VAT rate and registration (of its issue date, VAT Act s21), " +
      'must not be dated before it (400 issueDate), and a credit note must not exceed what remains of it, its ' +
      'total less the credit notes already released against it (400 lines). 201 on create; ' +
      '200 with the existing document when clientId was already used.',
    body: InvoiceCreate,
    response: { 201: Invoice, 200: Invoice },
    handler: async ({ body }, ctx) => createInvoice(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices',
    operationId: 'listInvoices',
    tag: 'Invoices',
    summary: 'Sales documents, newest first, paged',
    description:
      'Filters (applied before paging): status (draft, open, partially_paid, paid, applied, written_off, refunded, ' +
      'forfeited, overdue, void, accepted, declined, converted; applied is a credit note wholly applied to ' +
      'invoices; refunded a credit note or deposit nothing remains of after a refund; forfeited a deposit ' +
      'forfeited; overdue is an open or partly paid invoice or debit note past its due date, and such ' +
      'a document is listed under overdue, not open), documentType, contactId, from/to (issue date), dueFrom/dueTo, ' +
      "q (the number, the reference or the customer's name contains it, any case). An unknown status or " +
      'documentType is 400. sort: date (issue date, then creation), number, createdAt or updatedAt, `-` for ' +
      'descending; default -date (newest first); ties by id. updatedSince: documents changed at or after the ' +
      'instant, voided ones included, and deleted drafts too (deletedAt set; they are listed nowhere else).',
    query: InvoiceListQuery,
    response: { 200: Paged(Invoice) },
    handler: async ({ query }, ctx) => listInvoices(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}',
    operationId: 'getInvoice',
    tag: 'Invoices',
    summary: 'One sales document with its lines and what has been paid',
    params: IdParams,
    response: { 200: Invoice },
    handler: async ({ params }, ctx) => getInvoice(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/invoices/{id}',
    operationId: 'updateInvoice',
    tag: 'Invoices',
    errors: ['NOT_A_DRAFT', 'CREDIT_NOTE_REQUIRED'],
    summary: 'Change a draft (lines are replaced whole when given)',
    description:
      'A released document never changes: 409 NOT_A_DRAFT. Credit it, or void it and issue another. A credit ' +
      'or debit note is priced again, dated and capped as on create when its lines, issueDate or ' +
      'creditedDocumentId change.',
    params: IdParams,
    body: InvoiceUpdate,
    response: { 200: Invoice },
    handler: async ({ params, body }, ctx) => updateInvoice(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoices/{id}',
    operationId: 'deleteInvoice',
    tag: 'Invoices',
    errors: ['ALREADY_VOID', 'HAS_PAYMENTS', 'PERIOD_LOCKED', 'INSUFFICIENT_STOCK'],
    summary: 'Delete a draft, or void a released document (a tax invoice by a credit note)',
    description:
      'A draft is marked deleted (204; it answers 404 from then on, and is listed only to updatedSince, with ' +
      'deletedAt). A released invoice, debit note or cash sale is a tax invoice the customer may hold, so its void issues ' +
      'a credit note for the whole of it (VAT Act s21(1), (3)) in the same transaction: numbered from the credit ' +
      'note sequence, with its lines, tax codes and rates, naming it (creditedDocumentId), released (posted as ' +
      'the mirror of its entry, dated `date`, default today (UTC) or its issue date when that is later) and ' +
      'applied to it; printable and sendable as any credit note. The invoice answers 200, status void, with ' +
      'voidedByCreditNoteId naming the credit note; its own entry stays (no reversal, voidEntryId null). A cash ' +
      "sale's credit note is not applied (nothing was owing): it is refunded whole from the bank at once, the " +
      'same day (a refund, reference "Void of CS-…"). Any other released document (deposit, credit note) is ' +
      'voided with a reversing entry, dated its ' +
      'issue date unless `date` says otherwise. A document with payments or allocations (or, for a tax ' +
      'invoice, credit notes already released against it) is 409 HAS_PAYMENTS (reverse them first, or credit ' +
      'the rest); a second void is 409 ALREADY_VOID; a void date on or before the lock date is 409 PERIOD_LOCKED.',
    params: IdParams,
    query: VoidQuery,
    response: { 200: Invoice, 204: Type.Null() },
    handler: async ({ params, query }, ctx) => {
      const voided = await deleteInvoice(ctx, params.id, query.date);
      if (!voided) ctx.reply.code(204);
      return voided;
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/release',
    operationId: 'releaseInvoice',
    tag: 'Invoices',
    errors: [
      'ALREADY_RELEASED',
      'PERIOD_LOCKED',
      'UNPROCESSABLE',
      'CREDIT_NOTE_REQUIRED',
      'INSUFFICIENT_STOCK',
      'SERIAL_NOT_IN_STOCK',
      'SERIAL_IN_STOCK',
    ],
    summary: 'Release a draft: it becomes open and, for posting types, posts to the ledger',
    description:
      'invoice and debit_note: Dr debtors, Cr income and VAT output; credit_note: the mirror (applied to ' +
      'creditedDocumentId at once when it names one, up to what is due; wholly applied, its status is applied). ' +
      'A credit note more than what remains of the document it credits (credit notes released since it was ' +
      'made count) is 400 naming lines. cash_sale: Dr bank, Cr income and VAT (paid); deposit: ' +
      'Dr bank, Cr customer deposits (paid). quote, pro_forma, sales_order and delivery_note post nothing. ' +
      'A second release is 409 ALREADY_RELEASED; an issue date on or before the lock date is 409 PERIOD_LOCKED; ' +
      'a document in a currency other than the base currency is 422 (not posted yet); a draft (not a credit ' +
      'note) whose total or VAT total is below zero, 422 CREDIT_NOTE_REQUIRED. Lines naming a ' +
      'tracked product move its stock (default location): out on an invoice, cash ' +
      'sale or delivery note (Dr cost of sales, Cr inventory in the same entry; a delivery note in an entry ' +
      'of its own, and an invoice from the same sales order does not move them again), back in on a credit ' +
      'note (at the cost, batch and serials they left with when it names the invoice). A line in a `unit` ' +
      'moves quantity × its factor base units. A batch product leaves from the batch named, else first ' +
      'expiry first out (expired batches never); a serial product names one serial per base unit (400 naming ' +
      'lines[i].serials). Stock a product refusing negative stock does not have (at the issue date or after ' +
      'any later movement): 409 INSUFFICIENT_STOCK naming the line; a ' +
      'serial not in stock: 409 SERIAL_NOT_IN_STOCK; nothing written.',
    params: IdParams,
    response: { 200: Invoice },
    handler: async ({ params }, ctx) => releaseInvoice(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/convert',
    operationId: 'convertInvoice',
    tag: 'Invoices',
    errors: ['NOT_CONVERTIBLE', 'CONFLICT', 'CREDIT_NOTE_REQUIRED'],
    summary:
      'Convert: quote → invoice, pro forma or sales order; sales order → invoice or delivery note; pro forma → invoice',
    description:
      'Creates a new draft with the same customer and lines (201; 200 on a repeated clientId). It is dated ' +
      'issueDate, by default today (UTC); a date before the converted document’s issue date is a 400 naming ' +
      'issueDate. Its dueDate is issueDate plus the payment terms of the converted document (paymentTermsDays). ' +
      'A quote or pro ' +
      'forma becomes converted; a sales order stays as it is. Other pairs are 400 naming documentType.',
    params: IdParams,
    body: ConvertBody,
    response: { 201: Invoice, 200: Invoice },
    handler: async ({ params, body }, ctx) => convertInvoice(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/accept',
    operationId: 'acceptQuote',
    tag: 'Invoices',
    errors: ['NOT_A_QUOTE', 'NOT_ANSWERABLE'],
    summary: 'Mark a quote or pro forma accepted by the customer',
    params: IdParams,
    response: { 200: Invoice },
    handler: async ({ params }, ctx) => answerQuote(ctx, params.id, 'accepted'),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/decline',
    operationId: 'declineQuote',
    tag: 'Invoices',
    errors: ['NOT_A_QUOTE', 'NOT_ANSWERABLE'],
    summary: 'Mark a quote or pro forma declined by the customer',
    params: IdParams,
    response: { 200: Invoice },
    handler: async ({ params }, ctx) => answerQuote(ctx, params.id, 'declined'),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/payments',
    operationId: 'recordInvoicePayment',
    tag: 'Invoices',
    errors: ['NOT_RECEIVABLE', 'NOT_OPEN', 'ALREADY_PAID', 'PERIOD_LOCKED', 'CONFLICT'],
    summary: 'Record a payment (partial or full): Dr bank, Cr debtors',
    description:
      "More than is due leaves the excess as the customer's credit (GET /api/customer-credits): Dr bank / Cr " +
      "debtors, the invoice's item (what was due) and the credit's own item (the excess). A paid invoice is 409 " +
      'ALREADY_PAID. Two payments at once are checked one after ' +
      'the other. The payment that settles the whole balance emits invoice.paid in the same transaction. ' +
      '201; 200 with the payment when clientId was already used.',
    params: IdParams,
    body: PaymentCreate,
    response: { 201: Payment, 200: Payment },
    handler: async ({ params, body }, ctx) => recordPayment(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/write-off',
    operationId: 'writeOffInvoice',
    tag: 'Invoices',
    errors: ['NOT_RECEIVABLE', 'NOT_OPEN', 'ALREADY_PAID', 'PERIOD_LOCKED'],
    summary: 'Write off a bad debt: Cr debtors, Dr bad debts (net), Dr VAT input (VAT claimed back, s22(1))',
    description:
      'Writes off what is still due on a released invoice or debit note, or amount of it (VAT included; more ' +
      "than is due is 400 naming amount). The VAT part is the document's own VAT in proportion to its total " +
      '(amount × vatTotal / total, half-up to cents), claimed back as input tax under s22(1): the VAT report ' +
      'shows it in VAT201 field 17. A document that charged no VAT claims none, nor does a company not ' +
      'VAT-registered on the write-off date (only a vendor deducts input tax). The amount no longer counts as ' +
      'due (amountWrittenOff); nothing left due makes the document written_off. A draft or a void document is ' +
      '409 NOT_OPEN; a date before the issue date is 400 naming date; on or before the lock date 409 ' +
      'PERIOD_LOCKED. Emits invoice.updated. 201 with the write-off; undone by DELETE …/write-off/{writeOffId}.',
    params: IdParams,
    body: WriteOffCreate,
    response: { 201: WriteOff },
    handler: async ({ params, body }, ctx) => writeOffInvoice(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/write-off/recover',
    operationId: 'recoverBadDebt',
    tag: 'Invoices',
    errors: ['NOT_WRITTEN_OFF', 'PERIOD_LOCKED'],
    summary: 'Money received on a debt written off: Dr bank, Cr bad debts recovered, Cr VAT output (s22(2))',
    description:
      'The VAT part is in the proportion the write-offs claimed (amount × VAT claimed / amount written off, ' +
      'half-up to cents), declared as output tax again: the VAT report shows it in VAT201 field 12. The net ' +
      'goes to 4950 Bad debts recovered (other income). At most what was written off and not yet recovered ' +
      '(400 naming amount); a document with nothing written off left to recover is 409 NOT_WRITTEN_OFF. The ' +
      'document itself does not change: it stays written off. 201 with the recovery.',
    params: IdParams,
    body: RecoveryCreate,
    response: { 201: Recovery },
    handler: async ({ params, body }, ctx) => recoverBadDebt(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/payments',
    operationId: 'listInvoicePayments',
    tag: 'Invoices',
    summary: "The document's payments, reversed ones included (bare array)",
    params: IdParams,
    response: { 200: Type.Array(Payment) },
    handler: async ({ params }, ctx) => listPayments(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoices/{id}/payments/{paymentId}',
    operationId: 'reverseInvoicePayment',
    tag: 'Invoices',
    errors: ['ALREADY_REVERSED', 'CREDIT_IN_USE', 'PERIOD_LOCKED'],
    summary: 'Reverse a payment: its entry is reversed and the amount is due again',
    description: 'Its overpayment credit goes with it; 409 CREDIT_IN_USE if that was applied or refunded.',
    params: PaymentParams,
    response: { 200: Payment },
    handler: async ({ params }, ctx) => reversePayment(ctx, params.id, params.paymentId),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/allocations',
    operationId: 'createInvoiceAllocation',
    tag: 'Invoices',
    errors: [
      'NOT_RECEIVABLE',
      'NOT_OPEN',
      'ALREADY_APPLIED',
      'DEPOSIT_ALREADY_APPLIED',
      'NO_CREDIT_LEFT',
      'ALREADY_PAID',
      'PERIOD_LOCKED',
      'CONFLICT',
    ],
    summary: 'Apply a released credit note or deposit of the same customer to this invoice',
    description:
      'A credit note or customer credit (GET /api/customer-credits): `amount` or as much as fits (400 beyond ' +
      "what remains or is due; another customer's: 400 sourceId). An advance payment also draws its output VAT " +
      'out in proportion (Dr income in advance, Dr VAT output, tagged standard), so VAT counts once. A deposit: ' +
      'applied once, whole (409 DEPOSIT_ALREADY_APPLIED), its excess over what is due left as customer credit. ' +
      'The source is locked, so two applications cannot over-apply it.',
    params: IdParams,
    body: AllocationCreate,
    response: { 201: Allocation },
    handler: async ({ params, body }, ctx) => allocate(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/allocations',
    operationId: 'listInvoiceAllocations',
    tag: 'Invoices',
    summary:
      'Credit notes and deposits applied to it, or (for a credit note or deposit) where it was applied',
    params: IdParams,
    response: { 200: Type.Array(Allocation) },
    handler: async ({ params }, ctx) => listAllocations(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/invoices/{id}/allocations/{allocationId}',
    operationId: 'reverseInvoiceAllocation',
    tag: 'Invoices',
    errors: ['ALREADY_REVERSED', 'ALREADY_VOID', 'CREDIT_IN_USE', 'PERIOD_LOCKED'],
    summary: 'Undo an allocation: its entry is reversed',
    description:
      'The invoice owes that much again; the credit is open again (a deposit excess it left goes too: 409 ' +
      'CREDIT_IN_USE if used). The application of the ' +
      'credit note a void issued is part of the void: 409 ALREADY_VOID.',
    params: AllocationParams,
    response: { 200: Invoice },
    handler: async ({ params }, ctx) => reverseAllocation(ctx, params.id, params.allocationId),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/invoices/{id}/pdf',
    operationId: 'getInvoicePdf',
    tag: 'Invoices',
    produces: PDF_CONTENT_TYPE,
    summary: 'The document as a PDF',
    description:
      'A4, built-in fonts. Title by type: Tax Invoice (an invoice or cash sale of a company VAT-registered on ' +
      'the issue date, with its VAT number; else Invoice or Cash Sale), Tax Credit Note / Credit Note, Tax Debit ' +
      'Note / Debit Note (a note naming the document it adjusts prints "Credit note for invoice INV-…" or ' +
      '"Debit note for invoice INV-…" under the title), Quote, Pro Forma Invoice, Sales Order, Delivery Note (descriptions and quantities, no ' +
      'prices) and Deposit. It shows the company (logo, name, address, VAT and registration numbers), the ' +
      'customer (name, address, VAT number when known), number, dates and reference, each line, the totals, what ' +
      'is paid and due, the banking details of the invoice settings (invoices, debit notes, pro formas), notes ' +
      "and terms, and the template's colours and footer (the document's template, else the settings' default). " +
      'Amounts: thousands grouped with a space, a decimal point, "R 1 149.99". Drafts print DRAFT across each ' +
      'page, voided documents VOID. Long documents break over pages that repeat the column headings.',
    params: IdParams,
    response: { 200: PdfFile },
    handler: async ({ params }, ctx) => {
      const paper = await loadPaper(ctx, params.id);
      // Rendered after the transaction commits (the catalogue renders a FileResponse).
      return new FileResponse(PDF_CONTENT_TYPE, documentFilename(paper), () => renderPaper(paper));
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/invoices/{id}/send',
    operationId: 'sendInvoice',
    tag: 'Invoices',
    errors: ['NOT_RELEASED', 'DOCUMENT_VOID'],
    summary: 'E-mail the document with its PDF attached',
    description:
      "To `to`, or else the customer's e-mail address; neither is a 400 naming to. The message and its PDF are " +
      'stored and the send queued in this request; the job worker sends it (retrying a busy mail server), so ' +
      "the answer never waits for the mail server: 202 with the e-mail's id and status (queued, or stored when " +
      "no SMTP is configured). Sets the document's sentAt; sending again sends again. The subject and text name " +
      'the company, the number, the total and the due date; `message` comes first in the text. A draft is 409 ' +
      'NOT_RELEASED (release it first: the customer receives the document as numbered and posted); a voided ' +
      'document is 409 DOCUMENT_VOID.',
    params: IdParams,
    body: SendBody,
    response: { 202: SendResult },
    handler: async ({ params, body }, ctx) => sendDocument(ctx, params.id, body),
  }),
];
