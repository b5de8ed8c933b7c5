// The whole route catalogue: every operation of the service, declared once. The app
// registers it, the OpenAPI document describes it, the security suite walks it.

import { Type } from 'typebox';
import { events } from './events.ts';
import { bankingRoutes } from './modules/banking/routes.ts';
import { entitlementRoutes, setupProgressRoutes } from './modules/billing/routes.ts';
import { billRoutes, paymentRunRoutes } from './modules/bills/routes.ts';
import { companyRoutes } from './modules/companies/routes.ts';
import { contactRoutes } from './modules/contacts/routes.ts';
import { crmRoutes } from './modules/crm/routes.ts';
import { expenseRoutes, mileageRoutes } from './modules/expenses/routes.ts';
import { inventoryRoutes } from './modules/inventory/routes.ts';
import { invoiceRoutes, recurringRoutes, settingsRoutes } from './modules/invoices/routes.ts';
import { accountRoutes, costCentreRoutes, journalRoutes } from './modules/ledger/routes.ts';
import { onlinePaymentRoutes } from './modules/online-payments/routes.ts';
import { payrollRoutes } from './modules/payroll/routes.ts';
import { purchaseOrderRoutes } from './modules/purchase-orders/routes.ts';
import { reportRoutes } from './modules/reports/routes.ts';
import { sandboxRoutes } from './modules/sandbox/routes.ts';
import { transactionRoutes } from './modules/transactions/routes.ts';
import { auditRoutes } from './platform/audit/audit.routes.ts';
import { apiKeyRoutes } from './platform/auth/api-keys.routes.ts';
import { loginRoutes } from './platform/auth/login.routes.ts';
import { passwordRoutes } from './platform/auth/password.routes.ts';
import { roleRoutes } from './platform/auth/roles.routes.ts';
import { sessionRoutes } from './platform/auth/sessions.routes.ts';
import { twoFactorRoutes } from './platform/auth/two-factor.routes.ts';
import { userRoutes } from './platform/auth/users.routes.ts';
import { TEST_EVENT_TYPE } from './platform/events/event-types.ts';
import { webhookRoutes } from './platform/events/webhooks.routes.ts';
import type { AnyRoute } from './platform/http/catalogue.ts';
import { discoveryRoutes } from './platform/http/discovery.routes.ts';
import { buildOpenApi, type OpenApiEvent, type OpenApiTag } from './platform/http/openapi.ts';
import { Uuid } from './platform/http/schema-basics.ts';
import { oauthAppRoutes } from './platform/oauth/apps.routes.ts';
import { authorizeRoutes } from './platform/oauth/authorize.routes.ts';
import { oauthTokenRoutes } from './platform/oauth/token.routes.ts';

export const catalogue: AnyRoute[] = [
  ...discoveryRoutes((serverUrl) => catalogueDocument(serverUrl)),
  ...loginRoutes,
  ...companyRoutes,
  ...contactRoutes,
  ...transactionRoutes,
  ...crmRoutes,
  ...passwordRoutes,
  ...twoFactorRoutes,
  ...sessionRoutes,
  ...setupProgressRoutes,
  ...roleRoutes,
  ...userRoutes,
  ...auditRoutes,
  ...apiKeyRoutes,
  ...entitlementRoutes,
  ...oauthAppRoutes,
  ...authorizeRoutes,
  ...oauthTokenRoutes,
  ...webhookRoutes(events),
  ...accountRoutes,
  ...journalRoutes,
  ...costCentreRoutes,
  ...invoiceRoutes,
  ...onlinePaymentRoutes,
  ...paymentRunRoutes,
  ...billRoutes,
  ...expenseRoutes,
  ...mileageRoutes,
  ...purchaseOrderRoutes,
  ...bankingRoutes,
  ...inventoryRoutes,
  ...payrollRoutes,
  ...sandboxRoutes,
  ...recurringRoutes,
  ...settingsRoutes,
  ...reportRoutes,
];

/**
 * The document's tags: the resource groups routes are listed under, in the order a reader
 * meets them, each with what it holds. A route's `tag` must be one of these (openapi.test.ts).
 */
export const catalogueTags: OpenApiTag[] = [
  { name: 'Service', description: 'Liveness, diagnostics and this description.' },
  {
    name: 'Authentication',
    description:
      'Registering a business, signing in (the password is sent as its SHA-256), refreshing tokens, exchanging an API key for an access token, password resets.',
  },
  { name: 'Two-factor', description: 'Authenticator-app enrolment and recovery codes.' },
  { name: 'Sessions', description: "A person's signed-in sessions, and revoking them." },
  { name: 'Users', description: 'The people of a business, invitations and deactivation.' },
  { name: 'Roles', description: 'Built-in and custom roles: sets of module permissions.' },
  {
    name: 'API keys',
    description: 'Keys for integrations, with per-module scopes; test keys act on the sandbox company only.',
  },
  {
    name: 'OAuth apps',
    description: 'Apps that act for a person through OAuth 2 (authorization code with PKCE).',
  },
  { name: 'OAuth', description: 'The OAuth 2 authorization and token endpoints and their metadata.' },
  {
    name: 'Webhooks',
    description:
      'Signed event deliveries (Standard Webhooks) to your HTTPS endpoint, with retries, delivery history and redelivery.',
  },
  { name: 'Audit log', description: 'Every write, who made it and from where.' },
  { name: 'Tenant', description: "The business's plan, its modules and the set-up checklist." },
  { name: 'Companies', description: 'The companies of a business, their addresses and VAT registration.' },
  { name: 'Sandbox', description: 'A separate company with sample data, for trying the API.' },
  {
    name: 'Contacts',
    description: 'Customers, suppliers, employees and tax practitioners; marketing consent.',
  },
  {
    name: 'Contact transactions',
    description:
      'Usage or charges recorded against a contact, and the monthly billing run that rolls them into draft invoices.',
  },
  {
    name: 'Leads',
    description:
      'Sales leads: capture (by hand, CSV import with a preview, or /external/leads from a web form), qualification and conversion to a contact.',
  },
  {
    name: 'Opportunities',
    description:
      'Deals in the pipeline with their lines, stages the business sets with a win probability each, won (to a quote) or lost with a reason; the pipeline report.',
  },
  {
    name: 'Activities',
    description: 'Calls, meetings, tasks and notes against a lead, opportunity or contact.',
  },
  {
    name: 'Targets',
    description: 'Sales targets per person or team and period, with progress from won deals.',
  },
  {
    name: 'Campaigns',
    description:
      'Marketing campaigns on one channel: leads and contacts are included only where their consent allows it.',
  },
  { name: 'Products', description: 'The products and services book, with variants and units of measure.' },
  {
    name: 'Stock locations',
    description: "Warehouses and bins, per company; each company's default and transit location.",
  },
  {
    name: 'Stock movements',
    description: 'Every change of stock, immutable; on hand and the valuation derive from them.',
  },
  {
    name: 'Batches and serials',
    description: 'Batches with expiry (FEFO) and serial numbers, never in two places.',
  },
  { name: 'Stock takes', description: 'Count sheets per location; approval posts the variances.' },
  {
    name: 'Stock transfers',
    description: 'Goods between locations of one company, at cost, through transit.',
  },
  {
    name: 'Landed costs',
    description: "Freight, duty and clearing from bills, raising received goods' cost.",
  },
  {
    name: 'Price lists',
    description:
      "Prices per contact or contact group; a sales line with a product takes the contact's price.",
  },
  {
    name: 'Invoices',
    description:
      'Sales documents of nine types (invoice, quote, credit note…): drafts, release to the ledger, payments, credit allocations, PDFs and e-mail.',
  },
  {
    name: 'Payment gateways',
    description:
      "A company's credentials at the online payment gateways, and whether each can take money (with the reason when not).",
  },
  {
    name: 'Payment links',
    description:
      'Links for what an invoice has due, paid online through a gateway; the public pay page at /pay/{token}.',
  },
  {
    name: 'Payment notifications',
    description:
      "The gateways' inbound notifications (signature-verified) and the webhook inbox with its review queue.",
  },
  {
    name: 'Bills',
    description:
      'Supplier bills: capture, approval (posting to creditors and input VAT), payments, void and rejection.',
  },
  {
    name: 'Expenses',
    description:
      'Expense claims (personal or company card): submission, approval by role limits and a second approver, posting, reimbursement, rejection.',
  },
  {
    name: 'Mileage',
    description:
      "Business trips in a private car, paid per km at SARS's prescribed rate (or the tenant's lower one).",
  },
  {
    name: 'Purchase orders',
    description:
      'Orders to suppliers: drafts, the PDF e-mailed, goods received per line, and the bill made from what was received.',
  },
  {
    name: 'Bank accounts',
    description:
      "A company's bank accounts: each is a ledger account of subtype bank, with its bank details.",
  },
  {
    name: 'Bank statements',
    description:
      'Statement files in (OFX/QFX, CAMT.053, South African bank CSVs): a preview, then an import that adds nothing twice.',
  },
  { name: 'Bank transactions', description: 'The lines of a bank account as the bank reports them.' },
  { name: 'Bank rules', description: 'Rules that code bank lines on import: conditions, actions, priority.' },
  {
    name: 'Reconciliation',
    description:
      'Matching bank lines to invoices, bills, payments and accounts: ranked suggestions with reasons, undo, the report.',
  },
  {
    name: 'Bank feeds',
    description: "A bank connected with the customer's read-only keys, synced on a schedule.",
  },
  { name: 'Recurring invoices', description: 'Schedules that raise (and optionally send) invoices.' },
  { name: 'Invoice settings', description: "A company's numbering, defaults and logo for its documents." },
  { name: 'Invoice templates', description: 'Layouts and wording for printed documents.' },
  {
    name: 'Employees',
    description:
      'The people a company employs: identity, tax number, pay, bank account (sealed), medical and retirement contributions.',
  },
  {
    name: 'Leave',
    description:
      'Leave requests, their approval, and balances as of a date (Basic Conditions of Employment Act).',
  },
  {
    name: 'Payroll periods',
    description:
      'Pay runs: open, calculate (PAYE, UIF, SDL, ETI), finalise (locked, posted), pay (payroll.run.paid), EMP201.',
  },
  { name: 'Payslips', description: 'Each employee’s payslip of a period, its lines with IRP5 codes.' },
  { name: 'Accounts', description: "A company's chart of accounts." },
  { name: 'Journals', description: 'Manual journals and the lock date.' },
  {
    name: 'Cost centres',
    description: "A company's departments, branches or projects, named on bill and journal lines.",
  },
  { name: 'Ledger', description: 'The journal lines of the double-entry ledger.' },
  {
    name: 'Reports',
    description:
      'Income statement, balance sheet, trial balance, general ledger, cash flow, VAT201 and aged debtors and creditors, as JSON, CSV or PDF.',
  },
];

/**
 * The events a webhook receives, for the document's `webhooks`: every event a built module
 * declares (src/events.ts), with its data schema, and the test event. (The spec's events of
 * modules not built yet can be subscribed to, but nothing sends them, so they are not described.)
 */
export const catalogueEvents: OpenApiEvent[] = [
  ...events.emitted.map((e) => ({
    type: e.type,
    description: e.description,
    scope: `${e.module}:read`,
    data: e.data,
  })),
  {
    type: TEST_EVENT_TYPE,
    description: 'Sent by POST /api/webhooks/{id}/test',
    data: Type.Object({ webhookId: Uuid, message: Type.String() }),
  },
];

/** The OpenAPI document of the whole catalogue: what the service serves and the scripts check. */
export function catalogueDocument(serverUrl: string): Record<string, unknown> {
  return buildOpenApi(catalogue, serverUrl, { tags: catalogueTags, events: catalogueEvents });
}
