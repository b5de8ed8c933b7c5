// Test helpers for leave: an employee written straight to the table (the employees API is built
// apart), with the EMPLOYEE contact it is linked to.
import assert from 'node:assert/strict';
import type { as, TestApp } from '../../../test/support/app.ts';
import { withTenant } from '../../platform/db/tenant.ts';

type Api = ReturnType<typeof as>;

let n = 0;

/** An employee of the company: five days a week from 1 March 2026 unless told otherwise. */
export async function leaveEmployee(
  t: TestApp,
  api: Api,
  tenantId: string,
  companyId: string,
  o: { startDate?: string; endDate?: string | null; daysPerWeek?: number } = {},
): Promise<string> {
  n++;
  const contact = await api({
    method: 'POST',
    url: '/api/contacts',
    payload: { name: `Employee ${n}`, contactType: 'EMPLOYEE' },
  });
  assert.equal(contact.statusCode, 201, contact.body);
  const id = crypto.randomUUID();
  await withTenant(t.database.db, tenantId, (tx) =>
    tx
      .insertInto('employees')
      .values({
        tenant_id: tenantId,
        id,
        company_id: companyId,
        contact_id: contact.json().id,
        employee_number: `E${n}-${id.slice(0, 6)}`,
        first_name: 'Thandi',
        last_name: `Nkosi ${n}`,
        passport_number: `P${id.slice(0, 8)}`,
        passport_country: 'ZW',
        date_of_birth: '1990-05-17',
        start_date: o.startDate ?? '2026-03-01',
        end_date: o.endDate ?? null,
        pay_frequency: 'monthly',
        pay_basis: 'salary',
        rate: '25000.00',
        // Defaulted<Numeric> in payroll.tables.ts nests a ColumnType: its insert type is not a string.
        days_per_week: (o.daysPerWeek ?? 5).toFixed(1),
      })
      .execute(),
  );
  return id;
}
