import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { PaymentParams } from '../invoices/index.ts';
import {
  createSupplierCreditNote,
  getSupplierCreditNote,
  listSupplierCreditNotes,
} from './bills.credit-notes.ts';
import { listBillPayments, payBill, reverseBillPayment } from './bills.payments.ts';
import { approveBill, voidBill } from './bills.posting.ts';
import {
  Bill,
  BillApprove,
  BillCreate,
  BillListQuery,
  BillPayment,
  BillPaymentCreate,
  BillReject,
  BillUpdate,
  LedgerNotice,
  SupplierCreditNote,
  SupplierCreditNoteCreate,
  SupplierCreditNoteListQuery,
} from './bills.schemas.ts';
import {
  createBill,
  deleteBill,
  getBill,
  listBills,
  rejectBill,
  submitBill,
  updateBill,
} from './bills.service.ts';

// A bill is the expenses module's (DECISIONS.md), with the company header.
const { read, write, approve } = routeGroup({ module: 'expenses', tag: 'Bills', companyScoped: true });

const VoidBody = Type.Object(
  {
    date: Type.Optional(
      Type.String({ format: 'date', description: "The reversal's date; default the bill's issue date" }),
    ),
  },
  { additionalProperties: false },
);

export const billRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/credit-notes',
    operationId: 'createSupplierCreditNote',
    errors: [
      'NOT_FOUND',
      'NOT_APPROVED',
      'DUPLICATE_CREDIT_NOTE_NUMBER',
      'CONFLICT',
      'PERIOD_LOCKED',
      'INSUFFICIENT_STOCK',
      'SERIAL_NOT_IN_STOCK',
    ],
    summary: "Capture a supplier's credit note against one of its bills (posted at once)",
    description:
      "Against an approved bill of the company (billId; none or another tenant's: 404; not approved: 409 " +
      "NOT_APPROVED). It takes the bill's tax codes and rates (VAT Act s21): a line's code must be one of the " +
      "bill's (400 naming lines[i].taxCode), priced at the rate of the bill's issue date; its account defaults " +
      "to the bill's line of that code. Never more than what remains of the bill, its total less the credit " +
      'notes already against it (400 naming lines); not dated before the bill (400 issueDate). settlement ' +
      "offset: posted Dr creditors control (the bill's open item), Cr each line's account (net, tagged with its " +
      'input tax code) and Cr VAT input, so the bill owes less (at most what is due: 400 naming settlement) and ' +
      'VAT201 field 14 or 15 falls in its period; refund: the supplier paid it back, posted Dr bank ' +
      '(bankAccountId, default Bank 1000) instead, refundedAt set (at most what was paid on the bill and not ' +
      "refunded: 400 naming settlement). The same supplier's number twice is 409 DUPLICATE_CREDIT_NOTE_NUMBER. " +
      '201; 200 with the existing note when clientId was already used.',
    body: SupplierCreditNoteCreate,
    response: { 201: SupplierCreditNote, 200: SupplierCreditNote },
    handler: async ({ body }, ctx) => createSupplierCreditNote(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/credit-notes',
    operationId: 'listSupplierCreditNotes',
    summary: 'Supplier credit notes, oldest first (a bare array)',
    description: 'Filters: billId, contactId.',
    query: SupplierCreditNoteListQuery,
    response: { 200: Type.Array(SupplierCreditNote) },
    handler: async ({ query }, ctx) => listSupplierCreditNotes(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/credit-notes/{id}',
    operationId: 'getSupplierCreditNote',
    summary: 'One supplier credit note with its lines',
    params: IdParams,
    response: { 200: SupplierCreditNote },
    handler: async ({ params }, ctx) => getSupplierCreditNote(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills',
    operationId: 'createBill',
    errors: ['NOT_FOUND', 'DUPLICATE_BILL_NUMBER', 'CONFLICT', 'CREDIT_NOTE_REQUIRED'],
    summary: "Capture a supplier's bill (a draft)",
    description:
      "contactId must be a SUPPLIER contact of the tenant (none, or another tenant's: 404; a customer or " +
      "employee: 400). billNumber is the supplier's own: the same supplier's number twice (trimmed, any case, " +
      'void and deleted bills not counted) is 409 DUPLICATE_BILL_NUMBER with existingBillId and ' +
      'existingBillNumber (a unique index stands behind it, so two creates at once cannot both succeed). VAT as ' +
      'on sales: a line carries a taxCode (standard, standard_capital, zero, exempt, out_of_scope; default ' +
      'standard) or a vatRate (0 or the standard rate of the issue date), rounded half-up per line. A ' +
      'standard-rated bill above R5,000 incl. VAT claims input tax only on a full tax invoice: without a South ' +
      'African VAT number (ten digits starting with 4; anything else counts as none) in supplierVatNumber, or ' +
      "else the contact's vatNumber, it is 400 naming supplierVatNumber; from R50 to R5,000 it is kept with " +
      'vatWarning (VAT Act s16(2), s20). Negative lines net against the rest, but a bill whose VAT comes to less ' +
      "than zero is 422 CREDIT_NOTE_REQUIRED naming vatAmount: input tax is reduced by the supplier's credit note " +
      '(s21), not a bill. A line naming a productId (and variantId) must name a live product ' +
      'of the tenant (and a variant of it): 400 naming lines[i].productId or lines[i].variantId. A line posts ' +
      'to its accountId (an expense or asset ' +
      'account) or General expenses (6750). purchaseOrderId must be a sent order of the company from the same ' +
      'supplier (400 naming it); purchaseOrderNumber is then its number, and a bill that bills more than was ' +
      'received on it carries receiptMismatch (approval needs acceptMismatch). A line may name the order line ' +
      'it bills (purchaseOrderLineId: its product and unit, never more than ordered with the other live bills, ' +
      "400 naming the field); a product line of a bill naming its order is linked to the order's one line of " +
      "that product by itself (several: 400 naming purchaseOrderLineId). costCentreId (the bill's, the " +
      "default of its lines) and a line's costCentreId name the company's active cost centres (400 naming the " +
      "field otherwise); a line's cost posts to its cost centre. The recurrence fields are stored as given. " +
      '201; 200 with the existing bill when clientId was already used.',
    body: BillCreate,
    response: { 201: Bill, 200: Bill },
    handler: async ({ body }, ctx) => createBill(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills',
    operationId: 'listBills',
    summary: 'Supplier bills, newest first, paged',
    description:
      'Filters: status, contactId, from/to (issue date), dueBefore (due on or before), updatedSince (deleted bills ' +
      "too, with deletedAt). sort: date, number (the supplier's), createdAt, updatedAt, `-` for descending; default -date.",
    query: BillListQuery,
    response: { 200: Paged(Bill) },
    handler: async ({ query }, ctx) => listBills(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/{id}',
    operationId: 'getBill',
    summary: 'One supplier bill with its lines and what has been paid',
    params: IdParams,
    response: { 200: Bill },
    handler: async ({ params }, ctx) => getBill(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/bills/{id}',
    operationId: 'updateBill',
    errors: ['NOT_A_DRAFT', 'CONFLICT', 'CREDIT_NOTE_REQUIRED'],
    summary: "Change a bill's reference, notes, category, due date, lines or recurrence",
    description:
      'reference, notes, category and dueDate change while the bill is a draft or awaiting approval (409 ' +
      'NOT_A_DRAFT after). The recurrence (recurring, frequency, nextDate, endDate, recurrenceActive) changes on ' +
      'any bill but a void or rejected one: recurrenceActive true resumes a paused one (recurrenceError ' +
      'cleared) and plans its next run; a new nextDate starts the series again from it. lines replace the ' +
      "lines whole while the bill is a draft or awaiting approval (the supplier's invoice as it is: another " +
      "price or quantity than the order's), checked and priced as on create, the totals, the tax invoice check " +
      'and the three-way match worked again (409 NOT_A_DRAFT after: credit an approved bill).',
    params: IdParams,
    body: BillUpdate,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) => updateBill(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/bills/{id}',
    operationId: 'deleteBill',
    errors: ['BILL_POSTED'],
    summary: 'Delete a bill that was never posted',
    description:
      'A draft, a bill awaiting approval or a rejected bill is marked deleted (it answers 404 from then on and is ' +
      'listed only to updatedSince); ledgerNotice says nothing was posted. As in Xero, an approved bill is not ' +
      'deleted: 409 BILL_POSTED, void it instead (POST /api/bills/{id}/void reverses its entry).',
    params: IdParams,
    response: { 200: LedgerNotice },
    handler: async ({ params }, ctx) => deleteBill(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/submit',
    operationId: 'submitBill',
    errors: ['NOT_A_DRAFT'],
    summary: 'Submit a draft bill for approval',
    description: 'draft → awaiting_approval; anything else is 409 NOT_A_DRAFT. Nothing is posted.',
    params: IdParams,
    response: { 200: Bill },
    handler: async ({ params }, ctx) => submitBill(ctx, params.id),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/bills/{id}/approve',
    operationId: 'approveBill',
    errors: [
      'NOT_AWAITING_APPROVAL',
      'RECEIPT_MISMATCH',
      'PERIOD_LOCKED',
      'UNPROCESSABLE',
      'SERIAL_IN_STOCK',
    ],
    summary: 'Approve a bill: it is posted and the supplier is owed',
    description:
      'Needs expenses:approve. A bill awaiting approval (or a draft) becomes approved and posts, dated its issue ' +
      "date: Dr each line's account (net; tagged input_standard, VAT201 field 15, or input_capital, field 14), " +
      'Dr VAT input (the VAT), Cr creditors control (2000, the total; the supplier, the bill as its open item, ' +
      'so aged creditors shows it). A company not VAT-registered on the issue date claims no input tax: the ' +
      "VAT is part of each line's cost. Any other status is 409 NOT_AWAITING_APPROVAL; an issue date on or " +
      'before the lock date 409 PERIOD_LOCKED; a currency other than the base currency 422. A bill against a ' +
      'purchase order that bills more than was received (per order line, or in value where its lines name ' +
      'none; matched again at approval) is 409 RECEIPT_MISMATCH with the reason unless acceptMismatch is true. ' +
      'A line of a tracked product billing a purchase-order line moves no stock (the receipt brings it): it ' +
      'posts to GRNI (2160, the order line its open item) instead of its account, clearing what the receipts ' +
      "credited for the units it bills; a price other than the order's goes onto those receipts' units still " +
      'on hand (inventory) and to cost of sales for units gone; units not yet received stay a debit on GRNI ' +
      "until the receipt, which comes in at the bill's price. With no order line, the goods come into " +
      "stock at its cost (quantity × its unit's factor base units; one movement per serial, the cost spread over " +
      'them) and it posts to inventory. A negative line of a tracked product (goods sent back go on a supplier ' +
      "credit note), a batch product's line without batchCode or a serial product's without one serial per " +
      'base unit: 400 naming the field. A serial already in stock: 409 SERIAL_IN_STOCK.',
    params: IdParams,
    body: BillApprove,
    bodyOptional: true,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) =>
      approveBill(ctx, params.id, { acceptMismatch: body?.acceptMismatch }),
  }),
  defineRoute({
    ...approve,
    method: 'POST',
    path: '/api/bills/{id}/reject',
    operationId: 'rejectBill',
    errors: ['NOT_AWAITING_APPROVAL'],
    summary: 'Reject a bill awaiting approval, with the reason',
    description:
      'Needs expenses:approve. A bill awaiting approval (or a draft) becomes rejected, nothing posted; ' +
      'bill.rejected is emitted with the bill number, supplier, amounts and reason. Otherwise 409 ' +
      'NOT_AWAITING_APPROVAL.',
    params: IdParams,
    body: BillReject,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) => rejectBill(ctx, params.id, body.reason),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/void',
    operationId: 'voidBill',
    errors: ['ALREADY_VOID', 'HAS_PAYMENTS', 'PERIOD_LOCKED', 'INSUFFICIENT_STOCK'],
    summary: "Void a bill: an approved bill's entry is reversed",
    description:
      "An approved bill's entry is reversed (dated its issue date unless date says otherwise): expense, input " +
      'VAT and creditors cancelled; ledgerNotice says so. A bill never posted is voided with nothing to ' +
      "reverse. Payments standing on it: 409 HAS_PAYMENTS; a second void 409 ALREADY_VOID. A void bill's number " +
      'may be captured again. Tracked goods the bill bought in (no purchase order) go back out: 409 ' +
      'INSUFFICIENT_STOCK when they have been sold and the product refuses negative stock. A bill of ' +
      "purchase-order lines moves no goods: GRNI is owed again, and the price difference it put on the receipts' " +
      'units comes off what of them is still on hand, the rest out of cost of sales, in an entry dated the void.',
    params: IdParams,
    body: VoidBody,
    response: { 200: Bill },
    handler: async ({ params, body }, ctx) => voidBill(ctx, params.id, body?.date),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/bills/{id}/payments',
    operationId: 'recordBillPayment',
    errors: ['ALREADY_PAID', 'NOT_APPROVED', 'ON_HOLD', 'DISPUTED', 'CONFLICT', 'PERIOD_LOCKED'],
    summary: 'Pay a supplier bill, in part or whole',
    description:
      "Posts Dr creditors control (the bill's open item), Cr the bank account (bankAccountId, default Bank " +
      '1000). The bill becomes partially_paid, or paid (paidAt) when nothing is left due. More than is due is 400 ' +
      'naming amount; a bill not approved 409 NOT_APPROVED; a paid one 409 ALREADY_PAID; a bill on hold or ' +
      'disputed 409 ON_HOLD or DISPUTED (release or resolve it first, as a hold stops payment in Xero and Sage). 201; 200 with the ' +
      'existing payment when clientId was already used.',
    params: IdParams,
    body: BillPaymentCreate,
    response: { 201: BillPayment, 200: BillPayment },
    handler: async ({ params, body }, ctx) => payBill(ctx, params.id, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/bills/{id}/payments',
    operationId: 'listBillPayments',
    summary: "A bill's payments, oldest first",
    params: IdParams,
    response: { 200: Type.Array(BillPayment) },
    handler: async ({ params }, ctx) => listBillPayments(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/bills/{id}/payments/{paymentId}',
    operationId: 'reverseBillPayment',
    errors: ['ALREADY_REVERSED', 'PERIOD_LOCKED'],
    summary: 'Reverse a bill payment: its entry is reversed and the amount is owed again',
    description:
      'The payment stays listed, status reversed, with the reversal entry; the bill goes back to partially_paid ' +
      'or approved. A second reversal is 409 ALREADY_REVERSED.',
    params: PaymentParams,
    response: { 200: BillPayment },
    handler: async ({ params }, ctx) => reverseBillPayment(ctx, params.id, params.paymentId),
  }),
];
