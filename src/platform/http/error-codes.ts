// The closed list of error codes: every problem the service sends carries one of these in
// `code`, and the OpenAPI document lists them as the Problem schema's enum, each with its
// meaning. A route declares the codes it may answer beyond those derived from its
// declaration (see openapi.ts); the status of each code is fixed here, once.
//
// Add a code here before throwing it; a code not in this list does not type-check.

export const ERROR_CODES = {
  // 400
  VALIDATION_FAILED: {
    status: 400,
    meaning: 'A field, parameter or header is missing or invalid; `field` and `errors` name each',
  },
  MALFORMED_BODY: { status: 400, meaning: 'The body is not valid JSON (or not the declared form)' },
  COMPANY_HEADER_REQUIRED: {
    status: 400,
    meaning: 'A company-scoped route was called without `X-Company-Id`',
  },
  // 401
  UNAUTHENTICATED: {
    status: 401,
    meaning: 'No token, or a token that is expired, malformed or no longer valid',
  },
  INVALID_CREDENTIALS: { status: 401, meaning: 'Wrong e-mail or password (or a password sent unhashed)' },
  TOTP_REQUIRED: { status: 401, meaning: 'Two-factor is on: send `totpCode` with the sign-in' },
  TOTP_INVALID: { status: 401, meaning: 'The two-factor or recovery code is wrong or used' },
  SIGNATURE_INVALID: {
    status: 401,
    meaning:
      "An inbound gateway notification whose signature does not verify with the tenant's stored secret",
  },
  API_KEY_REQUIRED: {
    status: 401,
    meaning: 'The route takes the API key itself as bearer, not an exchanged token',
  },
  // 403
  FORBIDDEN: { status: 403, meaning: 'Not allowed for this caller' },
  MODULE_NOT_LICENSED: { status: 403, meaning: "The tenant's plan does not include the route's module" },
  INSUFFICIENT_SCOPE: {
    status: 403,
    meaning: "The API key's (or OAuth app's) scopes lack the one named in `scope`",
  },
  PLAN_HAS_NO_API_KEYS: { status: 403, meaning: 'The plan does not include API keys' },
  PLAN_HAS_NO_WEBHOOKS: { status: 403, meaning: 'The plan does not include webhooks' },
  PLAN_HAS_NO_SANDBOX: { status: 403, meaning: 'The plan does not include the sandbox company' },
  SANDBOX_READ_ONLY: { status: 403, meaning: 'The sandbox is read-only while the plan lacks API access' },
  TEST_KEY_SANDBOX_ONLY: {
    status: 403,
    meaning: 'A test key (bpk_test_) may act only on the sandbox company',
  },
  USER_TOKEN_REQUIRED: {
    status: 403,
    meaning: "A person's own route (sessions, two-factor, password) called with an API key's token",
  },
  PERMISSION_NOT_HELD: {
    status: 403,
    meaning: 'A role or key cannot be given a permission its creator does not hold',
  },
  OWNER_REQUIRED: { status: 403, meaning: 'Only an owner may do this' },
  OWN_CLAIM: {
    status: 403,
    meaning: 'Nobody approves their own expense claim or trip (made by them, or for the employee they are)',
  },
  APPROVAL_LIMIT_EXCEEDED: {
    status: 403,
    meaning: "The claim is above the approver's role limit; `limit` names it",
  },
  API_KEY_LIMIT_REACHED: { status: 403, meaning: "The plan's number of API keys is reached" },
  COMPANY_LIMIT_REACHED: { status: 403, meaning: "The plan's number of companies is reached" },
  KEY_NOT_BOUND_TO_CONTACT: {
    status: 403,
    meaning: 'The API key is bound to no contact (contactId at its creation), or to one deleted since',
  },
  // 404
  NOT_FOUND: {
    status: 404,
    meaning: "No such record in the tenant (another tenant's id included), or no such route",
  },
  // 405
  METHOD_NOT_ALLOWED: {
    status: 405,
    meaning: 'The path exists but does not take this method; the `Allow` header lists the methods it takes',
  },
  // 409
  CONFLICT: { status: 409, meaning: 'The record conflicts with an existing one or with its current state' },
  ALREADY_RELEASED: { status: 409, meaning: 'The document is released already' },
  NOT_A_DRAFT: { status: 409, meaning: 'Only a draft can change' },
  NOT_OPEN: { status: 409, meaning: 'The document is not open for this' },
  NOT_RELEASED: { status: 409, meaning: 'The document is not released yet' },
  NOT_RECEIVABLE: { status: 409, meaning: 'The document is not one that takes payments' },
  NOT_CONVERTIBLE: { status: 409, meaning: 'The document cannot be converted' },
  NOT_A_QUOTE: { status: 409, meaning: 'Only a quote or pro forma can be accepted or declined' },
  NOT_ANSWERABLE: { status: 409, meaning: 'The quote has been answered or converted already' },
  NOT_A_MANUAL_JOURNAL: { status: 409, meaning: 'Only a manual journal can be reversed this way' },
  ALREADY_PAID: { status: 409, meaning: 'The document is paid already' },
  NOT_WRITTEN_OFF: { status: 409, meaning: 'Nothing written off on the document is left to recover' },
  WRITE_OFF_RECOVERED: {
    status: 409,
    meaning: 'Money was recovered on what was written off: reverse the recovery first',
  },
  ALREADY_VOID: { status: 409, meaning: 'The document is void already' },
  ALREADY_INVOICED: {
    status: 409,
    meaning: "The month's billing is on an invoice already: void the invoice first to change it",
  },
  INSUFFICIENT_STOCK: {
    status: 409,
    meaning:
      'The movement would take the location (and batch) below zero, and the product does not allow negative stock',
  },
  SERIAL_IN_STOCK: {
    status: 409,
    meaning: 'The serial number is in stock already (a serial is never in two places)',
  },
  SERIAL_NOT_IN_STOCK: { status: 409, meaning: 'The serial number is not in stock at that location' },
  LEAVE_BALANCE_EXCEEDED: {
    status: 409,
    meaning: 'The annual or sick leave asked for is more than the balance available; `detail` names the days',
  },
  LEAVE_OVERLAP: {
    status: 409,
    meaning: 'The leave overlaps a pending or approved request of the same employee',
  },
  STOCK_TAKE_CLOSED: {
    status: 409,
    meaning: 'The stock take is approved or cancelled: it no longer changes',
  },
  TRANSFER_CLOSED: { status: 409, meaning: 'The stock transfer is received or cancelled already' },
  LANDED_COST_POSTED: { status: 409, meaning: 'The landed cost is posted: it no longer changes' },
  BILL_LINE_USED: {
    status: 409,
    meaning: 'The bill line is used up by landed costs already (its amount is spread in full)',
  },
  ALREADY_RECONCILED: { status: 409, meaning: 'The bank line is reconciled: undo the reconciliation first' },
  DUPLICATE_BILL_NUMBER: {
    status: 409,
    meaning: "The supplier's bill number is captured already; `existingBillId` names that bill",
  },
  DUPLICATE_CREDIT_NOTE_NUMBER: {
    status: 409,
    meaning: "The supplier's credit note number is captured already; `existingCreditNoteId` names it",
  },
  NOT_AWAITING_APPROVAL: { status: 409, meaning: 'The bill, claim or trip is not awaiting approval' },
  SECOND_APPROVER_REQUIRED: {
    status: 409,
    meaning: 'The claim needs a second approval, from someone other than the one who approved it',
  },
  NOT_REIMBURSABLE: {
    status: 409,
    meaning: 'Only an approved claim or trip the employee paid personally is reimbursed',
  },
  EXPENSE_REIMBURSED: {
    status: 409,
    meaning: 'The claim or trip is reimbursed already: it no longer changes or goes',
  },
  RECEIPT_MISMATCH: {
    status: 409,
    meaning: 'The bill bills more than was received on its purchase order: `detail` says how',
  },
  ORDER_NOT_SENT: { status: 409, meaning: 'The purchase order is a draft: send it first' },
  ORDER_CLOSED: { status: 409, meaning: 'The purchase order is cancelled or fully billed' },
  ORDER_BILLED: { status: 409, meaning: 'Part of the purchase order is billed: it is not cancelled' },
  RECEIPT_BILLED: {
    status: 409,
    meaning:
      'The goods receipt is billed: without it less would be received than its order lines are billed for (reverse or credit the bill first)',
  },
  NOTHING_TO_BILL: { status: 409, meaning: 'Nothing received on the purchase order is left to bill' },
  NOT_APPROVED: { status: 409, meaning: 'The bill is not approved (or is paid or void)' },
  BILL_POSTED: { status: 409, meaning: 'The bill is posted to the ledger: void it instead of deleting it' },
  ALREADY_REVERSED: {
    status: 409,
    meaning: 'The payment, allocation, write-off, recovery, journal or goods receipt is reversed already',
  },
  ALREADY_APPLIED: { status: 409, meaning: 'The credit is applied already' },
  NOT_A_DEPOSIT: { status: 409, meaning: 'Only a deposit can be forfeited' },
  NO_CREDIT_LEFT: { status: 409, meaning: 'Nothing is left of the credit to apply, refund or forfeit' },
  CREDIT_IN_USE: {
    status: 409,
    meaning: 'The credit a payment left has been applied or refunded: undo that first',
  },
  DEPOSIT_ALREADY_APPLIED: { status: 409, meaning: 'The deposit is applied to another invoice already' },
  DOCUMENT_VOID: { status: 409, meaning: 'The document is void' },
  HAS_PAYMENTS: { status: 409, meaning: 'The document has payments or allocations: reverse them first' },
  PERIOD_LOCKED: { status: 409, meaning: 'The date is on or before the lock date' },
  PERIOD_NOT_FINALISED: {
    status: 409,
    meaning: 'The payroll period is not finalised: its payslips may still change, so they are not sent',
  },
  PERIOD_FINALISED: {
    status: 409,
    meaning: 'The payroll period is finalised (or paid): it is locked; a correction goes in the next period',
  },
  VAT_PERIOD_SUBMITTED: {
    status: 409,
    meaning: 'The VAT period is submitted already: its figures are frozen',
  },
  CONTACT_HAS_OPEN_ITEMS: { status: 409, meaning: 'The contact has open documents' },
  SKU_TAKEN: { status: 409, meaning: 'Another product or variant has this SKU' },
  PRODUCT_HAS_STOCK: {
    status: 409,
    meaning: 'The product has stock movements: its cost method and tracking can no longer change',
  },
  LOCATION_HAS_STOCK: { status: 409, meaning: 'The location holds stock: move it out before deleting it' },
  SANDBOX_IN_USE: {
    status: 409,
    meaning: 'Records outside the sandbox point into it; `blocking` names them',
  },
  ON_HOLD: { status: 409, meaning: 'The bill is on hold: release the hold before paying it' },
  DISPUTED: {
    status: 409,
    meaning: 'The bill is disputed with the supplier: resolve the dispute before paying it',
  },
  PAYMENT_BLOCKED: {
    status: 409,
    meaning:
      'A bill selected for a payment run may not be paid; `blocked` names each with its `blockedReason`',
  },
  SAME_USER: {
    status: 409,
    meaning: 'The person who changed the bank details cannot confirm them: another person must',
  },
  GATEWAY_UNAVAILABLE: {
    status: 409,
    meaning: 'The payment gateway cannot take money (no or half-finished credentials); `detail` says why',
  },
  LINK_NOT_ACTIVE: { status: 409, meaning: 'The payment link is revoked or expired already' },
  NOT_IN_REVIEW: {
    status: 409,
    meaning: 'The notification is not waiting in the review queue (matched, refused or dismissed already)',
  },
  REFERENCE_MISMATCH: {
    status: 409,
    meaning: 'The reference a gateway echoed back names another tenant (or nothing of this one)',
  },
  // 410
  LINK_GONE: {
    status: 410,
    meaning: 'The payment link was revoked or has expired: ask the business for a new one',
  },
  // 412, 413, 422, 429
  PRECONDITION_FAILED: { status: 412, meaning: '`If-Match` names a version that is no longer current' },
  PAYLOAD_TOO_LARGE: { status: 413, meaning: 'The body is larger than the route accepts' },
  URI_TOO_LONG: { status: 414, meaning: 'The request address is longer than the service reads' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, meaning: 'The body is of a media type the route does not read' },
  UNPROCESSABLE: { status: 422, meaning: 'Understood but not supported; `reasons` lists why' },
  CURRENCY_NOT_SUPPORTED: {
    status: 422,
    meaning: 'Payment links take rand (ZAR) only: the document is in another currency',
  },
  PAYROLL_TABLES_MISSING: {
    status: 422,
    meaning:
      'No statutory payroll table (PAYE tax year, UIF, SDL, ETI) covers the date; `reasons` names each one missing',
  },
  CONTACT_NOT_EMPLOYEE: {
    status: 422,
    meaning: 'An employee links to an EMPLOYEE contact: the contact named is of another type',
  },
  CREDIT_NOTE_REQUIRED: {
    status: 422,
    meaning:
      'A sales document (not a credit note) or a supplier bill whose VAT or total comes to less than zero: ' +
      "reducing output or input tax, or giving money back, is a credit note's work (VAT Act s21); `field` " +
      'names the total or VAT total (a bill: amount or vatAmount)',
  },
  IDEMPOTENCY_KEY_REUSED: { status: 422, meaning: '`Idempotency-Key` was used with a different request' },
  RATE_LIMITED: {
    status: 429,
    meaning: 'Too many requests; `limit` and `retryAfterSeconds` say when to retry',
  },
  // 5xx
  INTERNAL_ERROR: { status: 500, meaning: 'Unexpected error; deliberately generic' },
  UNAVAILABLE: { status: 503, meaning: 'A dependency is unavailable; retry with backoff' },
} as const satisfies Record<string, { status: number; meaning: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

export const ERROR_CODE_LIST = Object.keys(ERROR_CODES) as ErrorCode[];

/** The code a problem of this status carries when the thrower named none. */
export function defaultCode(status: number): ErrorCode {
  switch (status) {
    case 400:
      return 'VALIDATION_FAILED';
    case 401:
      return 'UNAUTHENTICATED';
    case 403:
      return 'FORBIDDEN';
    case 404:
      return 'NOT_FOUND';
    case 405:
      return 'METHOD_NOT_ALLOWED';
    case 409:
      return 'CONFLICT';
    case 412:
      return 'PRECONDITION_FAILED';
    case 413:
      return 'PAYLOAD_TOO_LARGE';
    case 414:
      return 'URI_TOO_LONG';
    case 415:
      return 'UNSUPPORTED_MEDIA_TYPE';
    case 422:
      return 'UNPROCESSABLE';
    case 429:
      return 'RATE_LIMITED';
    case 503:
      return 'UNAVAILABLE';
    default:
      return status >= 500 ? 'INTERNAL_ERROR' : 'VALIDATION_FAILED';
  }
}

export function statusOf(code: ErrorCode): number {
  return ERROR_CODES[code].status;
}
