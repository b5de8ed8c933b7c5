// Employees of a company: create (idempotent on clientId; linked to an EMPLOYEE contact, made in
// the same transaction when none is named), read, list, change, terminate, delete (soft). The
// whole record is checked by employees.rules.ts on every write; the bank account number is
// sealed with SECRETS_KEY and never answered.

import { sql } from 'kysely';
import type { Static } from 'typebox';
import { claimClientId } from '../../platform/http/client-ids.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { type Page, pageOf, pageOfQuery, paging } from '../../platform/http/paging.ts';
import { badRequest, conflict, HttpError, notFound } from '../../platform/http/problem.ts';
import { sortOrder } from '../../platform/http/sync.ts';
import { secretKeysOf } from '../../platform/secrets/index.ts';
import { companyOf, today } from '../../platform/work/context.ts';
import { createContact } from '../contacts/index.ts';
import {
  type Employee,
  type EmployeeRow,
  employeeFieldsOf,
  findEmployeeRow,
  idNumberTaken,
  nextEmployeeNumber,
  numberTaken,
  toEmployee,
} from './employees.queries.ts';
import { bankColumns, type EmployeeState, employeeColumns } from './employees.rules.ts';
import type {
  EmployeeCreate,
  EmployeeListQuery,
  EmployeeTerminate,
  EmployeeUpdate,
} from './employees.schemas.ts';

type Ctx = TenantCtx;

export async function readEmployee(ctx: Ctx, id: string): Promise<Employee> {
  const row = await findEmployeeRow(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Employee');
  return toEmployee(row, today(ctx));
}

/**
 * The contact an employee is linked to: a live EMPLOYEE contact of the tenant (none: 404 naming
 * contactId; of another type: 422), not linked to another live employee of the company (409).
 */
async function assertEmployeeContact(ctx: Ctx, contactId: string, exceptId?: string): Promise<void> {
  const c = await ctx.db
    .selectFrom('contacts')
    .select(['name', 'contact_type'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', contactId)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!c) throw new HttpError(404, 'contactId: no such contact', { field: 'contactId' });
  if (c.contact_type !== 'EMPLOYEE') {
    throw new HttpError(
      422,
      `contactId: ${c.name} is a ${c.contact_type.toLowerCase()} contact; an employee links to an EMPLOYEE contact`,
      { code: 'CONTACT_NOT_EMPLOYEE', field: 'contactId' },
    );
  }
  let q = ctx.db
    .selectFrom('employees')
    .select('employee_number')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('contact_id', '=', contactId)
    .where('deleted_at', 'is', null);
  if (exceptId) q = q.where('id', '<>', exceptId);
  const linked = await q.executeTakeFirst();
  if (linked)
    throw conflict(`contactId: ${c.name} is employee ${linked.employee_number} of this company already`, {
      field: 'contactId',
    });
}

/** 409 naming the field when another live employee of the company has the number or ID number. */
async function assertUnique(
  ctx: Ctx,
  s: { employee_number: string; id_number?: string | null },
  exceptId?: string,
) {
  const companyId = companyOf(ctx);
  if (await numberTaken(ctx.db, ctx.tenantId, companyId, s.employee_number, exceptId))
    throw conflict(`employeeNumber: ${s.employee_number} is another employee's`, { field: 'employeeNumber' });
  if (s.id_number && (await idNumberTaken(ctx.db, ctx.tenantId, companyId, s.id_number, exceptId)))
    throw conflict('idNumber: another employee of the company has this ID number', { field: 'idNumber' });
}

export async function createEmployee(ctx: Ctx, input: Static<typeof EmployeeCreate>): Promise<Employee> {
  const companyId = companyOf(ctx);
  const { id, replay } = await claimClientId(ctx, input.clientId, {
    table: 'employees',
    owner: ['company_id', companyId],
    softDeleted: true,
  });
  if (replay) {
    ctx.reply.code(200);
    return readEmployee(ctx, id);
  }
  if (input.contactId && input.email !== undefined)
    throw badRequest('email', 'only for a new contact: the contact named by contactId keeps its own e-mail');
  const keys = () => secretKeysOf(ctx.deps);
  // Without SECRETS_KEY a bank account cannot be kept: 503 before anything is written.
  const bank = bankColumns(input.bankAccount ?? null, keys);
  const state: EmployeeState = {
    employeeNumber: input.employeeNumber ?? (await nextEmployeeNumber(ctx.db, ctx.tenantId, companyId)),
    firstName: input.firstName,
    lastName: input.lastName,
    idNumber: input.idNumber ?? null,
    passportNumber: input.passportNumber ?? null,
    passportCountry: input.passportCountry ?? null,
    dateOfBirth: input.dateOfBirth,
    taxNumber: input.taxNumber ?? null,
    jobTitle: input.jobTitle ?? null,
    startDate: input.startDate,
    endDate: input.endDate ?? null,
    terminationReason: input.terminationReason ?? null,
    payFrequency: input.payFrequency,
    payBasis: input.payBasis,
    rate: input.rate,
    hoursPerWeek: input.hoursPerWeek ?? 40,
    daysPerWeek: input.daysPerWeek ?? 5,
    medicalScheme: input.medicalScheme ?? false,
    medicalDependants: input.medicalDependants ?? 0,
    medicalEmployeeContribution: input.medicalEmployeeContribution ?? 0,
    medicalEmployerContribution: input.medicalEmployerContribution ?? 0,
    retirementEmployeeContribution: input.retirementEmployeeContribution ?? 0,
    retirementEmployerContribution: input.retirementEmployerContribution ?? 0,
    uifApplies: input.uifApplies ?? true,
    sdlApplies: input.sdlApplies ?? true,
    etiEligible: input.etiEligible ?? false,
    etiStartDate: input.etiStartDate ?? null,
    minimumWageExempt: input.minimumWageExempt ?? false,
    minimumHourlyWage: input.minimumHourlyWage ?? null,
  };
  const columns = employeeColumns(state, today(ctx));
  await assertUnique(ctx, columns);
  let contactId = input.contactId;
  if (contactId) await assertEmployeeContact(ctx, contactId);
  else {
    // The person's contact (name, e-mail, addresses live there), made in this transaction.
    const contact = await createContact(ctx, {
      contactType: 'EMPLOYEE',
      name: `${columns.first_name} ${columns.last_name}`,
      ...(input.email ? { email: input.email } : {}),
    });
    contactId = contact.id;
  }
  await ctx.db
    .insertInto('employees')
    .values({
      tenant_id: ctx.tenantId,
      id,
      company_id: companyId,
      contact_id: contactId,
      client_id: input.clientId ? id : null,
      ...columns,
      ...bank,
    })
    .execute();
  ctx.reply.code(201);
  return readEmployee(ctx, id);
}

/** The record as stored, in the rules' terms (a change is laid over it). */
function stateOf(row: EmployeeRow): EmployeeState {
  return { ...employeeFieldsOf(row), etiStartDate: row.eti_start_date };
}

export async function updateEmployee(
  ctx: Ctx,
  id: string,
  input: Static<typeof EmployeeUpdate>,
): Promise<Employee> {
  const row = await findEmployeeRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Employee');
  const bank =
    input.bankAccount === undefined ? {} : bankColumns(input.bankAccount, () => secretKeysOf(ctx.deps));
  const { contactId, bankAccount: _bank, ...given } = input;
  const defined = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  const state: EmployeeState = { ...stateOf(row), ...defined } as EmployeeState;
  // A new ID number brings its own date of birth unless one is sent with it.
  if (input.idNumber !== undefined && input.dateOfBirth === undefined) state.dateOfBirth = undefined;
  if (input.idNumber === null && input.dateOfBirth === undefined) state.dateOfBirth = row.date_of_birth;
  const columns = employeeColumns(state, today(ctx));
  await assertUnique(ctx, columns, id);
  if (contactId !== undefined && contactId !== row.contact_id)
    await assertEmployeeContact(ctx, contactId, id);
  await ctx.db
    .updateTable('employees')
    .set({ ...columns, ...bank, ...(contactId ? { contact_id: contactId } : {}) })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return readEmployee(ctx, id);
}

/** POST /api/employees/{id}/terminate: the last day employed and why; a later call corrects them. */
export async function terminateEmployee(
  ctx: Ctx,
  id: string,
  input: Static<typeof EmployeeTerminate>,
): Promise<Employee> {
  const row = await findEmployeeRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Employee');
  if (input.endDate < row.start_date)
    throw badRequest('endDate', `must not be before the start date (${row.start_date})`);
  const reason = input.reason.trim();
  if (!reason) throw badRequest('reason', 'must not be blank');
  await ctx.db
    .updateTable('employees')
    .set({ end_date: input.endDate, termination_reason: reason })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  return readEmployee(ctx, id);
}

/**
 * Soft delete, for a record made in error: refused (409) once leave was asked for; an employee
 * who leaves is terminated instead, and stays on record for the tax certificates.
 */
export async function deleteEmployee(ctx: Ctx, id: string): Promise<void> {
  const row = await findEmployeeRow(ctx.db, ctx.tenantId, companyOf(ctx), id, { lock: true });
  if (!row) throw notFound('Employee');
  const leave = await ctx.db
    .selectFrom('leave_requests')
    .select('id')
    .where('tenant_id', '=', ctx.tenantId)
    .where('employee_id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (leave) throw conflict('The employee has leave requests: terminate the employee instead of deleting');
  await ctx.db
    .updateTable('employees')
    .set({ deleted_at: ctx.deps.now() })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
}

type SortKey = 'name' | 'number' | 'updatedAt' | 'createdAt';

const SORT_COLUMNS = {
  name: ['last_name', 'first_name'],
  number: ['employee_number'],
  updatedAt: ['updated_at'],
  createdAt: ['created_at'],
} as const satisfies Record<SortKey, readonly string[]>;

/** `%text%` for ILIKE, its wildcards taken literally. */
function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

export async function listEmployees(
  ctx: Ctx,
  query: Static<typeof EmployeeListQuery>,
): Promise<Page<Employee>> {
  const p = paging(query);
  const order = sortOrder<SortKey>(query.sort, 'name');
  const day = today(ctx);
  let q = ctx.db
    .selectFrom('employees')
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx));
  // A sync (updatedSince) learns of deleted employees too, their deletedAt set.
  if (query.updatedSince) q = q.where('updated_at', '>=', new Date(query.updatedSince));
  else q = q.where('deleted_at', 'is', null);
  if (query.status === 'terminated') q = q.where('end_date', '<', day);
  if (query.status === 'active')
    q = q.where((eb) => eb.or([eb('end_date', 'is', null), eb('end_date', '>=', day)]));
  const text = query.q?.trim();
  if (text) {
    const pattern = containsPattern(text);
    q = q.where((eb) =>
      eb.or([
        eb('first_name', 'ilike', pattern),
        eb('last_name', 'ilike', pattern),
        eb('employee_number', 'ilike', pattern),
        eb(sql`first_name || ' ' || last_name`, 'ilike', pattern),
      ]),
    );
  }
  const { rows, total } = await pageOfQuery(
    q,
    { columns: SORT_COLUMNS[order.key], direction: order.direction },
    p,
  );
  return pageOf(
    rows.map((r) => toEmployee(r, day)),
    total,
    p,
  );
}
