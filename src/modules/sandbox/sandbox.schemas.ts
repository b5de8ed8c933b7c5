// TypeBox schema of the sandbox: the company record plus what it holds.
import { Type } from 'typebox';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';
import { CompanySchema } from '../companies/index.ts';

const Ids = (description: string) => Type.Array(Uuid, { description });

export const Sandbox = named(
  'Sandbox',
  Type.Object({
    ...CompanySchema.properties,
    readOnly: Type.Boolean({
      description:
        'true while the plan lacks API access (below Business): the sandbox can be read and deleted, and ' +
        'writes sent with its X-Company-Id answer 403 SANDBOX_READ_ONLY until API access returns',
    }),
    customerIds: Ids(
      'The sample customers (in the tenant-wide contact book, names starting "Sandbox · "), in the order ' +
        'made; one deleted since is left out',
    ),
    productIds: Ids('The sample products (in the tenant-wide products book, names starting "Sandbox · ")'),
    invoiceIds: Ids(
      'The sample invoices of the sandbox company, in this order: the paid one, the open one (due in the ' +
        'future), the overdue one',
    ),
  }),
);
