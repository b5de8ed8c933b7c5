// POST /admin/billing/run-monthly: an integration posts one contact's amount for a month with
// an API key bound to that contact (the key itself, or a token exchanged from it).
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { postMonthly } from './run-monthly.service.ts';
import { BillingAggregate, RunMonthlyBody } from './transactions.schemas.ts';

export const runMonthlyRoutes: AnyRoute[] = [
  defineRoute({
    method: 'POST',
    path: '/admin/billing/run-monthly',
    operationId: 'postMonthlyBilling',
    tag: 'Contact transactions',
    module: 'transactions',
    access: 'write',
    permission: ['transactions', 'write'],
    security: 'apiKey',
    keyTokenToo: true,
    errors: ['API_KEY_REQUIRED', 'KEY_NOT_BOUND_TO_CONTACT', 'ALREADY_INVOICED'],
    summary: "Post a contact's amount for a month: created, or replaced in place while pending (200)",
    description:
      'Called with an API key bound to a contact (contactId when the key was created; a key bound to none, or ' +
      'to a contact deleted since, is a 403 KEY_NOT_BOUND_TO_CONTACT) and the scope transactions:write, as the ' +
      "bearer: the key itself or a token exchanged from it; a person's token is a 401 API_KEY_REQUIRED. " +
      "The aggregate of the key's contact and the month is created, or while pending its amount, source and " +
      'description are replaced: 200 either way, with the aggregate (a post is a statement of the month’s ' +
      'figure, not a record of its own, so repeating it is harmless). month is this month or one before it; a ' +
      'month not yet begun is a 400. On the first of the next month the job worker puts every pending ' +
      "aggregate of a month that has ended on the contact's draft invoice (one per contact; a line each, its " +
      'amount excluding VAT with standard-rated VAT on top), together with the contact transactions of those ' +
      'months; a post for an ended month not yet rolled is billed by the next roll. Once invoiced, a post for ' +
      'the month is a 409 ALREADY_INVOICED: void the invoice (or delete the draft) first, and the next post ' +
      'makes it pending again with the new figures.',
    body: RunMonthlyBody,
    response: { 200: BillingAggregate },
    handler: async ({ body }, ctx) => postMonthly(ctx, body),
  }),
];
