import { FileResponse, PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Bill } from '../bills/index.ts';
import { billOrder, receiveOrder } from './purchase-orders.receiving.ts';
import { reverseReceipt } from './purchase-orders.reversal.ts';
import {
  BillFromOrder,
  PurchaseOrder,
  PurchaseOrderCreate,
  PurchaseOrderListQuery,
  PurchaseOrderNotice,
  PurchaseOrderPdf,
  PurchaseOrderSend,
  PurchaseOrderSent,
  PurchaseOrderUpdate,
  ReceiptCreate,
  ReceiptIdParams,
  ReceiptReverse,
} from './purchase-orders.schemas.ts';
import { orderFile, orderPdf, sendOrder } from './purchase-orders.send.ts';
import {
  cancelOrder,
  createOrder,
  deleteOrder,
  getOrder,
  listOrders,
  updateOrder,
} from './purchase-orders.service.ts';

const { read, write } = routeGroup({ module: 'expenses', tag: 'Purchase orders', companyScoped: true });
const params = IdParams;

export const purchaseOrderRoutes: AnyRoute[] = [
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders',
    operationId: 'createPurchaseOrder',
    errors: ['NOT_FOUND', 'CONFLICT'],
    summary: 'Prepare a purchase order to a supplier (a draft, numbered PO-0001 per company)',
    description:
      "contactId must be a SUPPLIER contact of the tenant (none, or another tenant's: 404; a customer: 400). " +
      "Lines are priced as a bill's (taxCode standard, standard_capital, zero, exempt, out_of_scope; default " +
      'standard at the rate of the issue date; VAT half-up per line) so that the bill made from the order ' +
      'agrees with it; accountId (an expense or asset account, default General expenses 6750) is where that ' +
      "bill's line will post. An order is a commitment, not a transaction: nothing is posted, now or when it is " +
      'received. Numbers come from a gap-free counter per company (PO-0001, PO-0002, ...). 201; 200 with the ' +
      'existing order when clientId was already used.',
    body: PurchaseOrderCreate,
    response: { 201: PurchaseOrder, 200: PurchaseOrder },
    handler: async ({ body }, ctx) => createOrder(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/purchase-orders',
    operationId: 'listPurchaseOrders',
    summary: 'Purchase orders, newest first, paged',
    description:
      'Filters: status, contactId, from/to (issue date), updatedSince (deleted drafts too, with deletedAt). sort: ' +
      'date, number, createdAt, updatedAt, `-` for descending; default -date.',
    query: PurchaseOrderListQuery,
    response: { 200: Paged(PurchaseOrder) },
    handler: async ({ query }, ctx) => listOrders(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/purchase-orders/{id}',
    operationId: 'getPurchaseOrder',
    summary: 'One purchase order: per line what was ordered, received and billed; its receipts and bills',
    params,
    response: { 200: PurchaseOrder },
    handler: async ({ params }, ctx) => getOrder(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/purchase-orders/{id}',
    operationId: 'updatePurchaseOrder',
    errors: ['NOT_A_DRAFT', 'NOT_FOUND'],
    summary: 'Change a draft purchase order',
    description:
      'Only a draft changes (409 NOT_A_DRAFT once sent). lines, when given, replace every line; a new issueDate ' +
      'prices the lines again at its rates.',
    params,
    body: PurchaseOrderUpdate,
    response: { 200: PurchaseOrder },
    handler: async ({ params, body }, ctx) => updateOrder(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/purchase-orders/{id}',
    operationId: 'deletePurchaseOrder',
    errors: ['ORDER_CLOSED', 'ORDER_BILLED', 'CONFLICT'],
    summary: 'Delete a draft purchase order, or cancel a sent one',
    description:
      'A draft is marked deleted (404 from then on; listed only to updatedSince). An order already sent to the ' +
      'supplier stays on record: a sent or partly received one is cancelled, as POST .../cancel does (with its ' +
      '409s). ledgerNotice says nothing was posted.',
    params,
    response: { 200: PurchaseOrderNotice },
    handler: async ({ params }, ctx) => deleteOrder(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders/{id}/send',
    operationId: 'sendPurchaseOrder',
    errors: ['ORDER_CLOSED'],
    summary: 'E-mail the purchase order to the supplier with its PDF attached (draft → sent)',
    description:
      "To `to`, or else the supplier's e-mail address; neither is a 400 naming to. The message and its PDF are " +
      'stored and the send queued in this request; the job worker sends it, so the answer never waits for the ' +
      'mail server: 202 with the e-mail, its status (queued, or stored when no SMTP is configured) and the ' +
      'order. A draft becomes sent; sending again sends again. A cancelled order is 409 ORDER_CLOSED. An order ' +
      'a receipt would refuse is not sent: a line naming a product (or variant, or unit) no longer live is a 400 ' +
      'naming lines[i].productId (lines[i].variantId, lines[i].unit).',
    params,
    body: PurchaseOrderSend,
    response: { 202: PurchaseOrderSent },
    handler: async ({ params, body }, ctx) => {
      ctx.reply.code(202);
      return sendOrder(ctx, params.id, body ?? {});
    },
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/purchase-orders/{id}/pdf',
    operationId: 'getPurchaseOrderPdf',
    produces: PDF_CONTENT_TYPE,
    summary: 'The purchase order as a PDF',
    description:
      'A4: the company, the supplier, number and date, expected date, delivery address and reference, each line ' +
      '(quantity, unit price, VAT, amount), subtotal, VAT and total. A draft says DRAFT, a cancelled order ' +
      'CANCELLED.',
    params,
    response: { 200: PurchaseOrderPdf },
    handler: async ({ params }, ctx) => {
      const doc = await orderFile(ctx, params.id);
      // Rendered after the transaction commits (the catalogue renders a FileResponse).
      return new FileResponse(PDF_CONTENT_TYPE, `${doc.filename}.pdf`, () => orderPdf(doc));
    },
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders/{id}/receipts',
    operationId: 'receivePurchaseOrder',
    errors: ['ORDER_NOT_SENT', 'ORDER_CLOSED', 'PERIOD_LOCKED', 'SERIAL_IN_STOCK'],
    summary: 'Record goods received against the order, per line',
    description:
      'Each line names a line of the order (400 naming lines[i].lineId otherwise) and a quantity: never more ' +
      'than was ordered less what was received before (400 naming lines[i].quantity); date not before the ' +
      "order's issue date. The order becomes partially_received, or received when every line is in full. A " +
      'draft is 409 ORDER_NOT_SENT (send it first); a cancelled or billed order 409 ORDER_CLOSED. Lines of a ' +
      "tracked product come into stock (default location) at the order line's net unit price (units already " +
      "billed: at the bill's price), posted in one entry dated the receipt: Dr inventory, Cr GRNI (2160, the " +
      'order line its open item; the bill clears it); a date on or before the lock ' +
      'date is 409 PERIOD_LOCKED. Nothing else is posted (the bill is, when approved). 201 with the order.',
    params,
    body: ReceiptCreate,
    response: { 201: PurchaseOrder },
    handler: async ({ params, body }, ctx) => receiveOrder(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders/{id}/receipts/{receiptId}/reverse',
    operationId: 'reversePurchaseOrderReceipt',
    errors: ['ALREADY_REVERSED', 'RECEIPT_BILLED', 'INSUFFICIENT_STOCK', 'PERIOD_LOCKED'],
    summary: 'Reverse a goods receipt entered by mistake (it stays, marked reversed)',
    description:
      "date: the reversal's (default today; not before the receipt's, 400); reason: optional. The receipt is " +
      "marked reversed (reversedAt, reversalDate, reason on the order's receipts), never deleted; its lines no " +
      "longer count as received and the order's status falls back (received → partially_received → sent; a " +
      'cancelled order stays cancelled). Each stock movement the receipt made goes out again (type return_out, ' +
      'reversesMovementId naming it) at the value it came in with (FIFO: from its own layer), batches and serials ' +
      'as they came, in one entry dated the reversal: Dr GRNI 2160 / Cr inventory, the amounts the receipt ' +
      'posted (a value moved since, e.g. a landed cost, goes to cost of sales). 409 ALREADY_REVERSED the second ' +
      'time; 409 RECEIPT_BILLED when an order line would be billed for more than remains received (reverse or ' +
      'credit the bill first); 409 INSUFFICIENT_STOCK when the goods have gone (sold, transferred); 409 ' +
      'PERIOD_LOCKED on or before the lock date. Nothing is written when refused. 200 with the order.',
    params: ReceiptIdParams,
    body: ReceiptReverse,
    response: { 200: PurchaseOrder },
    handler: async ({ params, body }, ctx) => reverseReceipt(ctx, params.id, params.receiptId, body ?? {}),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders/{id}/cancel',
    operationId: 'cancelPurchaseOrder',
    errors: ['ORDER_NOT_SENT', 'ORDER_CLOSED', 'ORDER_BILLED', 'CONFLICT'],
    summary: 'Cancel a sent or partly received purchase order',
    description:
      'sent or partially_received → cancelled (what was received stays recorded). A draft is 409 ORDER_NOT_SENT ' +
      '(delete it); an order of which anything is billed 409 ORDER_BILLED; a cancelled or billed one 409 ' +
      'ORDER_CLOSED; one received in full 409 CONFLICT (bill it).',
    params,
    response: { 200: PurchaseOrder },
    handler: async ({ params }, ctx) => cancelOrder(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/purchase-orders/{id}/bill',
    operationId: 'billPurchaseOrder',
    errors: [
      'ORDER_NOT_SENT',
      'ORDER_CLOSED',
      'NOTHING_TO_BILL',
      'DUPLICATE_BILL_NUMBER',
      'CONFLICT',
      'CREDIT_NOTE_REQUIRED',
    ],
    summary: 'Convert to a bill: a draft bill of what was received and not yet billed',
    description:
      "The supplier's billNumber (409 DUPLICATE_BILL_NUMBER as on POST /api/bills), issueDate and dueDate; the " +
      "lines are the received quantities not yet on a live bill, at the order's prices, tax codes and accounts, " +
      'each naming its order line (purchaseOrderLineId); purchaseOrderId and purchaseOrderNumber are set. The ' +
      "supplier's invoice may differ (price, quantity): change the draft's lines (PATCH /api/bills/{id}) before " +
      'approving it. When ' +
      'everything ordered is received and billed the order becomes billed. Nothing received left to bill is 409 ' +
      'NOTHING_TO_BILL. 201 with the bill (submit and approve it as any bill).',
    params,
    body: BillFromOrder,
    response: { 201: Bill },
    handler: async ({ params, body }, ctx) => billOrder(ctx, params.id, body),
  }),
];
