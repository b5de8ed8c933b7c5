// Payslips (issue 21): paged (a growing list, the spec's), the current payslip of each employee
// of each calculated period; one with its lines and their IRP5 codes.
import { FileResponse, PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { type AnyRoute, defineRoute } from '../../platform/http/catalogue.ts';
import { Paged } from '../../platform/http/paging.ts';
import { routeGroup } from '../../platform/http/route-group.ts';
import { IdParams } from '../../platform/http/schema-basics.ts';
import { Payslip, PayslipListQuery, PayslipSummary } from './pay-runs.schemas.ts';
import { payslipPaper, payslipPdf } from './payslips.document.ts';
import { emailPayslip, emailPeriodPayslips } from './payslips.email.ts';
import { PayslipEmail, PayslipPdf, PayslipSent, PayslipsEmailed } from './payslips.schemas.ts';
import { listPayslips, readPayslip } from './payslips.service.ts';

const { read, write } = routeGroup({ module: 'payroll', tag: 'Payslips', companyScoped: true });
const send = { ...write, errors: ['PERIOD_NOT_FINALISED'] } as const;
const SENDING =
  'The message and the PDF are stored and the send queued in this request; the job worker sends it, so the ' +
  'answer never waits for the mail server: 202 with what was queued (status queued, or stored when no SMTP is ' +
  "configured). The PDF is encrypted (AES-256): it opens with the employee's ID number, else passport number; " +
  'the message names the period, never a figure. A period not finalised is 409 PERIOD_NOT_FINALISED (its ' +
  'payslips may still change). Sending again sends again.';

export const payslipsRoutes: AnyRoute[] = [
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payslips',
    operationId: 'listPayslips',
    summary: "The company's payslips (paged): latest period first, then by employee number",
    description: 'Filters: periodId, employeeId. limit defaults to 50, at most 200.',
    query: PayslipListQuery,
    response: { 200: Paged(PayslipSummary) },
    handler: async ({ query }, ctx) => listPayslips(ctx, query),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payslips/{id}',
    operationId: 'getPayslip',
    summary: 'One payslip with its lines (earnings, fringe benefits, deductions, employer, ETI)',
    params: IdParams,
    response: { 200: Payslip },
    handler: async ({ params }, ctx) => readPayslip(ctx, params.id),
  }),
  defineRoute({
    ...read,
    method: 'GET',
    path: '/api/payslips/{id}/pdf',
    operationId: 'getPayslipPdf',
    produces: PDF_CONTENT_TYPE,
    summary: 'The payslip as a PDF',
    description:
      'A4, what the BCEA s33(1) asks of a payslip: the employer and its address; the employee, occupation and ' +
      'tax number; the period and pay date; earnings with hours or days and rates, deductions and net pay, each ' +
      "line with its IRP5 code; taxable fringe benefits; the employer's contributions; the tax year to date " +
      '(locked periods and this one); annual and sick leave available at the period end; the bank account by its ' +
      "last four digits only. The ETI (the employer's claim) is not printed. A period not yet finalised says DRAFT.",
    params: IdParams,
    response: { 200: PayslipPdf },
    handler: async ({ params }, ctx) => {
      const { doc } = await payslipPaper(ctx, params.id);
      // Rendered after the transaction commits (the catalogue renders a FileResponse).
      return new FileResponse(PDF_CONTENT_TYPE, `${doc.filename}.pdf`, () => payslipPdf(doc));
    },
  }),
  defineRoute({
    ...send,
    method: 'POST',
    path: '/api/payslips/{id}/email',
    operationId: 'emailPayslip',
    summary: 'E-mail the payslip PDF to the employee',
    description: `To \`to\`, or else the employee's e-mail address (their contact's); neither is a 400 naming to. ${SENDING}`,
    params: IdParams,
    body: PayslipEmail,
    response: { 202: PayslipSent },
    handler: async ({ params, body }, ctx) => {
      ctx.reply.code(202);
      return emailPayslip(ctx, params.id, body ?? {});
    },
  }),
  defineRoute({
    ...send,
    tag: 'Payroll periods',
    method: 'POST',
    path: '/api/payroll-periods/{id}/email-payslips',
    operationId: 'emailPayrollPeriodPayslips',
    summary: "E-mail each of the period's payslips to its employee",
    description:
      "Each payslip goes to its employee's e-mail address; an employee without one is listed in skipped " +
      `(the others still go); \`to\` is refused (400). ${SENDING}`,
    params: IdParams,
    body: PayslipEmail,
    response: { 202: PayslipsEmailed },
    handler: async ({ params, body }, ctx) => {
      ctx.reply.code(202);
      return emailPeriodPayslips(ctx, params.id, body ?? {});
    },
  }),
];
