// The sandbox's sample data: three customers and two products (names prefixed "Sandbox · ",
// in the tenant-wide books) and three invoices in the sandbox company, posted to its own ledger
// through the invoices module like any others: one paid, one open, one overdue. Dates are
// relative to today, so the three read the same whenever the sandbox is made.
import { addDays, dayOf } from '../../platform/dates/days.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { HttpError } from '../../platform/http/problem.ts';
import { createContact } from '../contacts/index.ts';
import { createProduct, type Product } from '../inventory/index.ts';
import { createInvoice, recordPayment, releaseInvoice } from '../invoices/index.ts';
import type { SampleKind } from './sandbox.queries.ts';

export const SAMPLE_PREFIX = 'Sandbox · ';

const CUSTOMERS = [
  {
    name: 'Protea Traders (Pty) Ltd',
    email: 'accounts@protea-traders.example.com',
    phone: '+27 21 555 0142',
    addressLine1: '14 Bree Street',
    city: 'Cape Town',
    province: 'Western Cape',
    postalCode: '8001',
  },
  {
    name: 'Karoo Coffee Roasters',
    email: 'hello@karoo-coffee.example.com',
    phone: '+27 49 555 0177',
    addressLine1: '3 Church Street',
    city: 'Graaff-Reinet',
    province: 'Eastern Cape',
    postalCode: '6280',
  },
  {
    name: 'Umhlanga Design Studio',
    email: 'studio@umhlanga-design.example.com',
    phone: '+27 31 555 0119',
    addressLine1: '8 Lighthouse Road',
    city: 'Umhlanga',
    province: 'KwaZulu-Natal',
    postalCode: '4319',
  },
];

const PRODUCTS = [
  {
    sku: 'SANDBOX-CONSULT',
    name: 'Consulting hour',
    description: 'A sample service',
    unitPrice: 850,
    isTracked: false,
  },
  {
    sku: 'SANDBOX-BEANS-1KG',
    name: 'Coffee beans, 1 kg',
    description: 'A sample stock item',
    unitPrice: 245.5,
    isTracked: true,
  },
];

/** A SKU not used by a live product: the sample's own, else with -2, -3, ... after it. */
async function createSampleProduct(ctx: TenantCtx, p: (typeof PRODUCTS)[number]): Promise<Product> {
  for (let n = 1; ; n++) {
    const sku = n === 1 ? p.sku : `${p.sku}-${n}`;
    try {
      return await createProduct(ctx, { ...p, sku, name: `${SAMPLE_PREFIX}${p.name}` });
    } catch (err) {
      // The insert is ON CONFLICT DO NOTHING, so a taken SKU leaves the transaction usable.
      if (n < 50 && err instanceof HttpError && err.extensions.code === 'SKU_TAKEN') continue;
      throw err;
    }
  }
}

/**
 * Makes the samples for the sandbox company `companyId` and answers them in the order made
 * (customers, products, then the paid, open and overdue invoices).
 */
export async function createSamples(
  ctx: TenantCtx,
  companyId: string,
): Promise<Array<{ kind: SampleKind; id: string }>> {
  const made: Array<{ kind: SampleKind; id: string }> = [];
  const customers: string[] = [];
  for (const c of CUSTOMERS) {
    const contact = await createContact(ctx, {
      ...c,
      name: `${SAMPLE_PREFIX}${c.name}`,
      contactType: 'CUSTOMER',
      country: 'South Africa',
      paymentTerms: 30,
      tags: ['sandbox'],
    });
    customers.push(contact.id);
    made.push({ kind: 'contact', id: contact.id });
  }
  const products: Product[] = [];
  for (const p of PRODUCTS) {
    const product = await createSampleProduct(ctx, p);
    products.push(product);
    made.push({ kind: 'product', id: product.id });
  }
  const [consulting, beans] = products as [Product, Product];
  const line = (p: Product, quantity: number) => ({
    description: p.name.slice(SAMPLE_PREFIX.length),
    quantity,
    unitPrice: p.unitPrice,
  });

  // The sandbox company's own context: the invoices module works on ctx.companyId.
  const sandbox: TenantCtx = { ...ctx, companyId };
  const today = dayOf(ctx.deps.now());
  const invoice = async (contactId: string, issuedDaysAgo: number, lines: ReturnType<typeof line>[]) => {
    const issueDate = addDays(today, -issuedDaysAgo);
    const created = await createInvoice(sandbox, {
      contactId,
      // The schema's union of literals built with .map() has the static type never, though
      // it validates 'invoice' as it should.
      documentType: 'invoice',
      issueDate,
      dueDate: addDays(issueDate, 30),
      paymentTermsDays: 30,
      notes: 'A sample invoice of the sandbox company.',
      lines,
    });
    return releaseInvoice(sandbox, created.id);
  };
  // Paid: issued 40 days ago, paid in full 12 days ago (before it fell due).
  const paid = await invoice(customers[0]!, 40, [line(consulting, 4)]);
  await recordPayment(sandbox, paid.id, {
    amount: paid.total,
    date: addDays(today, -12),
    method: 'eft',
    reference: 'Sample payment',
  });
  // Open: issued 3 days ago, due in 27 days.
  const open = await invoice(customers[1]!, 3, [line(beans, 10)]);
  // Overdue: issued 45 days ago, due 15 days ago, nothing paid.
  const overdue = await invoice(customers[2]!, 45, [line(consulting, 2), line(beans, 3)]);
  for (const i of [paid, open, overdue]) made.push({ kind: 'invoice', id: i.id });
  return made;
}
