// A product's VAT by tax code, as document lines take it (issue 34, item 19). A product used to
// take any vatRate from 0 to 100 (7, 14) that invoices then ignored, charging 15%. Now it carries
// salesTaxCode and purchaseTaxCode; vatRate is accepted as lines take it (0 → zero, the standard
// rate of today → standard, VAT Act s7(1)(a): 15% since 2018-04-01) and any other rate, or one
// that is not the code's, is a 400 naming vatRate. A line naming the product and neither taxCode
// nor vatRate takes the product's code. Migration 0076 maps the rates products held.

import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { sql } from 'kysely';
import { as, type Registered, register, startTestApp, type TestApp } from '../../../test/support/app.ts';
import { unmigratedDatabase } from '../../../test/support/db.ts';
import { assertProblem } from '../../../test/support/problem.ts';
import { migrate, readMigrations } from '../../platform/db/migrate.ts';
import { withTenant } from '../../platform/db/tenant.ts';
import { SALES_TAX_CODES } from '../../platform/money/vat-rate.ts';
import { BILL_TAX_CODES } from '../bills/bills.vat.ts';
import { PRODUCT_PURCHASE_TAX_CODES, PRODUCT_SALES_TAX_CODES } from './products.tax.ts';

let t: TestApp;
let a: Registered;
let books: ReturnType<typeof as>;
let api: ReturnType<typeof as>;
const cleanups: Array<() => Promise<void>> = [];
before(async () => {
  t = await startTestApp({ jobsWork: false });
  t.clock.set('2026-03-20T10:00:00Z');
  a = await register(t.app, { plan: 'business', vatRegistered: true, vatNumber: '4123456789' });
  books = as(t.app, a.token);
  api = as(t.app, a.token, a.companyId);
});
after(async () => {
  await t.close();
  for (const c of cleanups.reverse()) await c();
});

async function product(body: Record<string, unknown>) {
  return books({ method: 'POST', url: '/api/inventory/products', payload: { unitPrice: 100, ...body } });
}

describe("a product's tax codes", () => {
  test('the codes a product takes are the codes lines take', () => {
    assert.deepEqual([...PRODUCT_SALES_TAX_CODES].sort(), [...SALES_TAX_CODES].sort());
    assert.deepEqual([...PRODUCT_PURCHASE_TAX_CODES].sort(), [...BILL_TAX_CODES].sort());
  });

  test('vatRate 14 or 7 is refused (no code has it on 2026-03-20); 0 and 15 name zero and standard', async () => {
    for (const vatRate of [14, 7]) {
      const res = await product({ sku: `R-${vatRate}`, name: 'Odd rate', vatRate });
      assert.match(String(assertProblem(res, 400, 'vatRate').detail), /not the rate of any tax code/);
    }
    const zero = await product({ sku: 'R-0', name: 'Brown bread', vatRate: 0 });
    assert.equal(zero.statusCode, 201, zero.body);
    assert.deepEqual([zero.json().salesTaxCode, zero.json().vatRate], ['zero', 0]);
    const std = await product({ sku: 'R-15', name: 'Kettle', vatRate: 15 });
    assert.deepEqual(
      [std.json().salesTaxCode, std.json().purchaseTaxCode, std.json().vatRate],
      ['standard', 'standard', null],
    );
    // A code and a rate that is not its rate: refused, naming vatRate.
    const clash = await product({ sku: 'R-X', name: 'Export', salesTaxCode: 'zero_export', vatRate: 15 });
    assert.match(String(assertProblem(clash, 400, 'vatRate').detail), /zero_export/);
    const exp = await product({
      sku: 'R-E',
      name: 'Export',
      salesTaxCode: 'zero_export',
      purchaseTaxCode: 'standard_capital',
    });
    assert.deepEqual(
      [exp.json().salesTaxCode, exp.json().purchaseTaxCode, exp.json().vatRate],
      ['zero_export', 'standard_capital', 0],
    );
    // PATCH: a rate the current code has keeps it; another rate changes it; 14 is refused.
    const same = await books({
      method: 'PATCH',
      url: `/api/inventory/products/${exp.json().id}`,
      payload: { vatRate: 0 },
    });
    assert.equal(same.json().salesTaxCode, 'zero_export');
    const back = await books({
      method: 'PATCH',
      url: `/api/inventory/products/${exp.json().id}`,
      payload: { vatRate: null },
    });
    assert.deepEqual([back.json().salesTaxCode, back.json().vatRate], ['standard', null]);
    const odd = await books({
      method: 'PATCH',
      url: `/api/inventory/products/${exp.json().id}`,
      payload: { vatRate: 14 },
    });
    assertProblem(odd, 400, 'vatRate');
  });

  test('an invoice line naming a zero-rated product, and a bill line naming an exempt one, take their codes', async () => {
    const bread = (
      await product({ sku: 'BREAD', name: 'Brown bread', salesTaxCode: 'zero', purchaseTaxCode: 'exempt' })
    ).json();
    const contact = await books({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Spaza', contactType: 'CUSTOMER' },
    });
    // 10 × 100.00 = 1,000.00 zero-rated (s11(1)): VAT 0, total 1,000.00 (it was charged 15%: 1,150).
    const inv = await api({
      method: 'POST',
      url: '/api/invoices',
      payload: {
        contactId: contact.json().id,
        documentType: 'invoice',
        issueDate: '2026-03-20',
        dueDate: '2026-04-19',
        lines: [
          { description: 'Brown bread', quantity: 10, unitPrice: 100, productId: bread.id },
          // The line's own code wins over the product's.
          {
            description: 'Brown bread, delivered',
            quantity: 1,
            unitPrice: 100,
            productId: bread.id,
            taxCode: 'standard',
          },
        ],
      },
    });
    assert.equal(inv.statusCode, 201, inv.body);
    // 1,000.00 at 0% + 100.00 at 15% = 15.00 VAT; total 1,115.00.
    assert.deepEqual(
      inv.json().lines.map((l: { taxCode: string; vatAmount: number }) => [l.taxCode, l.vatAmount]),
      [
        ['zero', 0],
        ['standard', 15],
      ],
    );
    assert.deepEqual([inv.json().vatTotal, inv.json().total], [15, 1115]);
    const supplier = await books({
      method: 'POST',
      url: '/api/contacts',
      payload: { name: 'Mill', contactType: 'SUPPLIER' },
    });
    // 20 × 50.00 = 1,000.00 exempt for the purchase code: no input tax; total 1,000.00.
    const bill = await api({
      method: 'POST',
      url: '/api/bills',
      payload: {
        contactId: supplier.json().id,
        billNumber: 'MILL-1',
        issueDate: '2026-03-20',
        dueDate: '2026-04-19',
        lines: [{ description: 'Flour', quantity: 20, unitPrice: 50, productId: bread.id }],
      },
    });
    assert.equal(bill.statusCode, 201, bill.body);
    assert.deepEqual([bill.json().vatAmount, bill.json().amount], [0, 1000]);
  });
});

test('0076 maps the rates products held: 0 zero, none or 15 standard, anything else standard and flagged', async () => {
  const database = await unmigratedDatabase(cleanups);
  await migrate(
    database,
    readMigrations().filter((m) => m.version < 76),
  );
  const tenantId = crypto.randomUUID();
  const ids = {
    zero: crypto.randomUUID(),
    none: crypto.randomUUID(),
    std: crypto.randomUUID(),
    old: crypto.randomUUID(),
  };
  await withTenant(database.db, tenantId, async (tx) => {
    await tx.insertInto('tenants').values({ id: tenantId, name: 'Before', plan: 'free' }).execute();
    await sql`insert into products (tenant_id, id, sku, name, unit_price, vat_rate) values
      (${tenantId}, ${ids.zero}, 'Z', 'Zero', 10, 0),
      (${tenantId}, ${ids.none}, 'N', 'None', 10, null),
      (${tenantId}, ${ids.std}, 'S', 'Standard', 10, 15),
      (${tenantId}, ${ids.old}, 'O', 'Old rate', 10, 14)`.execute(tx);
  });
  await migrate(database, readMigrations());
  const rows = await withTenant(database.db, tenantId, (tx) =>
    sql<{ id: string; sales_tax_code: string; purchase_tax_code: string; tax_note: string | null }>`
      select id, sales_tax_code, purchase_tax_code, tax_note from products where tenant_id = ${tenantId}`.execute(
      tx,
    ),
  );
  const of = (id: string) => rows.rows.find((r) => r.id === id)!;
  // 0: zero-rated goods are zero-rated bought and sold (s11(1) follows the goods).
  assert.deepEqual(
    [of(ids.zero).sales_tax_code, of(ids.zero).purchase_tax_code, of(ids.zero).tax_note],
    ['zero', 'zero', null],
  );
  assert.deepEqual([of(ids.none).sales_tax_code, of(ids.none).tax_note], ['standard', null]);
  assert.deepEqual([of(ids.std).sales_tax_code, of(ids.std).tax_note], ['standard', null]);
  // 14: no code has it today; the documents charged 15% all along, so standard, with a note.
  assert.equal(of(ids.old).sales_tax_code, 'standard');
  assert.match(String(of(ids.old).tax_note), /14/);
});
