// Employees of a company (issue 21). Pay (rate, contributions, bank account) is in every answer:
// the routes need payroll:read already, so whoever reaches them may see pay, and nobody without
// the payroll permission reaches them (an EMPLOYEE contact read through /api/contacts carries
// none of it).
//
// The list is paged (the envelope), though the spec names employees among neither its growing
// nor its bounded lists: the book only grows (nobody is hard-deleted, and people who leave stay
// on record for the tax certificates of the years they worked), it can run to thousands at a
// business with seasonal staff, and a sync reads it with updatedSince, as for contacts and
// products, which are paged for the same reasons.
import { Type } from 'typebox';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { createdOrExisting } from '../../platform/http/idempotent.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import {
  Employee,
  EmployeeCreate,
  EmployeeListQuery,
  EmployeeTerminate,
  EmployeeUpdate,
} from './employees.schemas.ts';
import {
  createEmployee,
  deleteEmployee,
  listEmployees,
  readEmployee,
  terminateEmployee,
  updateEmployee,
} from './employees.service.ts';

const { read, write } = routeGroup({ module: 'payroll', tag: 'Employees', companyScoped: true });

const RULES =
  'An employee is identified by a South African ID number (13 digits: its check digit must hold and its ' +
  'first six digits be a real date of birth, whose century is the latest not after today) or by ' +
  'passportNumber with passportCountry. dateOfBirth, when given with an ID number, must agree with its six digits ' +
  '(and then settles the century: 250101 may be 1925-01-01); left ' +
  'out, it is taken from the ID number. taxNumber is the SARS income tax number: 10 digits, starting 0, 1, ' +
  '2, 3 or 9, with its modulus 10 check digit. endDate and etiStartDate are not before startDate. Money has ' +
  'at most two decimals (daysPerWeek one). Medical dependants and contributions need medicalScheme true. ' +
  'Each broken rule is a 400 naming its field. employeeNumber and idNumber are unique among the live ' +
  "employees of the company (409 naming the field). bankAccount's number is sealed with SECRETS_KEY (a " +
  'server without it answers 503 naming it when a bank account is sent; everything else works) and answered ' +
  'as accountNumberMasked, the last four digits.';

export const employeesRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/employees',
    operationId: 'listEmployees',
    summary: "The company's employees (paged), by last name then first name",
    description:
      'status: active (no endDate, or one today or later) or terminated (endDate before today). q looks, in ' +
      'any case, in the first and last names and employeeNumber. sort: number, createdAt or updatedAt, `-` ' +
      'for descending; default by last name, first name; ties by id. Deleted employees are left out, except ' +
      'with updatedSince: a sync then sees every employee changed since, deleted ones with deletedAt set. ' +
      'Filters apply before paging; limit defaults to 50, at most 200.',
    query: EmployeeListQuery,
    response: { 200: Paged(Employee) },
    handler: async ({ query }, ctx) => listEmployees(ctx, query),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/employees',
    operationId: 'createEmployee',
    errors: ['CONFLICT', 'CONTACT_NOT_EMPLOYEE'],
    summary: 'Add an employee (201), or answer the one a clientId already made (200)',
    description:
      `${RULES} contactId links an existing EMPLOYEE contact (none in the business: 404 naming contactId; a ` +
      'contact of another type: 422 CONTACT_NOT_EMPLOYEE; one linked to another employee of the company: 409); ' +
      'left out, an EMPLOYEE contact is made from firstName, lastName and email in the same transaction. ' +
      'employeeNumber defaults to the next free E0001, E0002, ... Defaults: hoursPerWeek 40, daysPerWeek 5, ' +
      'uifApplies and sdlApplies true, medicalScheme and etiEligible false, contributions 0. A clientId of ' +
      "another company's or a deleted employee is a 409 naming clientId.",
    body: EmployeeCreate,
    response: createdOrExisting(Employee),
    handler: async ({ body }, ctx) => createEmployee(ctx, body),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/employees/{id}',
    operationId: 'getEmployee',
    summary: 'One employee, with pay and the bank account masked',
    description: "A deleted employee, another company's or another tenant's, is a 404.",
    params: IdParams,
    response: { 200: Employee },
    handler: async ({ params }, ctx) => readEmployee(ctx, params.id),
  }),
  defineRoute({
    ...write,
    method: 'PATCH',
    path: '/api/employees/{id}',
    operationId: 'updateEmployee',
    errors: ['CONFLICT', 'CONTACT_NOT_EMPLOYEE'],
    summary: 'Change an employee: only the fields sent; null clears an optional one',
    description:
      `${RULES} The record as it will be is held to the rules. A new idNumber brings its date of birth ` +
      'unless dateOfBirth comes with it. bankAccount is replaced whole (the number again too) or removed ' +
      'with null. contactId moves the link to another EMPLOYEE contact.',
    params: IdParams,
    body: EmployeeUpdate,
    response: { 200: Employee },
    handler: async ({ params, body }, ctx) => updateEmployee(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'POST',
    path: '/api/employees/{id}/terminate',
    operationId: 'terminateEmployee',
    summary: 'End the employment: the last day employed and the reason',
    description:
      'endDate before the start date is a 400 naming endDate. The employee is terminated from the day after ' +
      'endDate (status), and is still paid for the days up to it. Sent again, it corrects the date and reason; ' +
      'PATCH with endDate null reinstates.',
    params: IdParams,
    body: EmployeeTerminate,
    response: { 200: Employee },
    handler: async ({ params, body }, ctx) => terminateEmployee(ctx, params.id, body),
  }),
  defineRoute({
    ...write,
    method: 'DELETE',
    path: '/api/employees/{id}',
    operationId: 'deleteEmployee',
    errors: ['CONFLICT'],
    summary: 'Delete an employee added in error (soft): the id answers 404 from then on',
    description:
      'Refused (409) once the employee has leave requests: terminate instead. The EMPLOYEE contact stays. ' +
      'A list read with updatedSince still shows the employee, with deletedAt set.',
    params: IdParams,
    response: { 204: Type.Null() },
    handler: async ({ params }, ctx) => {
      await deleteEmployee(ctx, params.id);
      ctx.reply.code(204);
      return null;
    },
  }),
];
