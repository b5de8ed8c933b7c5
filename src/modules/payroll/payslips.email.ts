// Payslips e-mailed to employees, one or a whole period's. Each message and its PDF are stored and
// the send queued in the caller's transaction (platform/mail: the job worker sends it), so a slow
// mail server never holds the request and nothing leaves if the request fails. Only a locked
// payslip leaves (finalised or paid: a calculated one may still change): 409 PERIOD_NOT_FINALISED.
// The PDF is encrypted with the employee's ID number (else passport number): a forwarded or
// misdirected e-mail shows nobody's pay. The message itself names no figure, only the period.
import type { Static } from 'typebox';
import { PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { longDate, safeFilename } from '../../platform/files/table.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, conflict } from '../../platform/http/problem.ts';
import { sendMail } from '../../platform/mail/mailer.ts';
import { periodRow } from './pay-runs.service.ts';
import { type PayslipPaper, payslipPaper, payslipPdf } from './payslips.document.ts';
import type { PayslipEmail, PayslipSent, PayslipsEmailed } from './payslips.schemas.ts';

type Ctx = TenantCtx;

const notFinal = () =>
  conflict('The period is not finalised: its payslips may still change; finalise it first', {
    code: 'PERIOD_NOT_FINALISED',
  });

async function send(ctx: Ctx, paper: PayslipPaper, to: string, message: string | undefined) {
  const { doc, password } = paper;
  const period = doc.title.replace(/^Payslip /, '');
  const subject = `Your payslip for ${period} from ${doc.organisation}`;
  const text = [
    `Dear ${paper.employeeName}`,
    ...(message?.trim() ? [message.trim()] : []),
    `Your payslip for ${period}, paid ${longDate(paper.payDate)}, is attached.` +
      (password ? ` It opens with your ${password.what}.` : ''),
    `Kind regards\n${doc.organisation}`,
  ].join('\n\n');
  const emailId = await sendMail(
    { db: ctx.db, tenantId: ctx.tenantId, deps: ctx.deps },
    {
      to,
      subject,
      text: `${text}\n`,
      kind: 'payslip',
      attachments: [
        {
          filename: `${safeFilename(doc.filename)}.pdf`,
          contentType: PDF_CONTENT_TYPE,
          content: await payslipPdf(doc, password?.value),
        },
      ],
    },
  );
  return {
    emailId,
    to,
    status: ctx.deps.mailer.configured ? ('queued' as const) : ('stored' as const),
    subject,
  };
}

/** POST /api/payslips/{id}/email: to `to`, or else the employee's e-mail address (400 naming `to`). */
export async function emailPayslip(
  ctx: Ctx,
  id: string,
  input: Static<typeof PayslipEmail>,
): Promise<Static<typeof PayslipSent>> {
  const paper = await payslipPaper(ctx, id);
  if (!paper.final) throw notFinal();
  const to = input.to?.trim() || paper.email;
  if (!to) throw badRequest('to', `${paper.employeeName} has no e-mail address; give one in to`);
  return {
    payslipId: id,
    ...(await send(ctx, paper, to, input.message)),
    sentAt: ctx.deps.now().toISOString(),
  };
}

/**
 * POST /api/payroll-periods/{id}/email-payslips: every current payslip of the period to its
 * employee's address; those without one are listed, not sent (the rest still go).
 */
export async function emailPeriodPayslips(
  ctx: Ctx,
  periodId: string,
  input: Static<typeof PayslipEmail>,
): Promise<Static<typeof PayslipsEmailed>> {
  if (input.to !== undefined) throw badRequest('to', "a period's payslips go to each employee's own address");
  const row = await periodRow(ctx, periodId, true);
  if (row.status !== 'finalised' && row.status !== 'paid') throw notFinal();
  const slips = await ctx.db
    .selectFrom('payslips as s')
    .innerJoin('employees as e', (j) =>
      j.onRef('e.tenant_id', '=', 's.tenant_id').onRef('e.id', '=', 's.employee_id'),
    )
    .select(['s.id', 's.employee_id', 'e.employee_number'])
    .where('s.tenant_id', '=', ctx.tenantId)
    .where('s.period_id', '=', periodId)
    .where('s.replaced_at', 'is', null)
    .orderBy('e.employee_number')
    .orderBy('s.id')
    .execute();
  const sent: Static<typeof PayslipsEmailed>['sent'] = [];
  const skipped: Static<typeof PayslipsEmailed>['skipped'] = [];
  // One after another: the transaction is one connection, and each PDF is a few milliseconds.
  for (const s of slips) {
    const paper = await payslipPaper(ctx, s.id);
    if (!paper.email) {
      skipped.push({
        payslipId: s.id,
        employeeId: s.employee_id,
        employeeNumber: s.employee_number,
        reason: 'no_email',
      });
      continue;
    }
    sent.push({ payslipId: s.id, ...(await send(ctx, paper, paper.email, input.message)) });
  }
  return { periodId, sentAt: ctx.deps.now().toISOString(), sent, skipped };
}
