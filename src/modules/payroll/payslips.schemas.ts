// TypeBox schemas of payslips leaving by e-mail: what is asked, and what was queued.
import { Type } from 'typebox';
import { stringEnum } from '../../platform/http/enums.ts';
import { Uuid } from '../../platform/http/schema-basics.ts';
import { named } from '../../platform/http/schema-names.ts';

const Timestamp = Type.String({ format: 'date-time' });
const Status = stringEnum(['queued', 'stored'] as const, {
  description: 'queued: the job worker sends it over SMTP; stored: no SMTP is configured, it is kept',
});

export const PayslipEmail = named(
  'PayslipEmail',
  Type.Object(
    {
      to: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: "One payslip only: the address to send to; default the employee's e-mail address",
        }),
      ),
      message: Type.Optional(
        Type.String({ maxLength: 4000, description: 'Your words, at the top of the e-mail' }),
      ),
    },
    { additionalProperties: false, examples: [{ message: 'Thank you for your work this month.' }] },
  ),
);

export const PayslipSent = named(
  'PayslipSendResult',
  Type.Object({
    payslipId: Uuid,
    emailId: Uuid,
    to: Type.String(),
    status: Status,
    subject: Type.String(),
    sentAt: Timestamp,
  }),
);

export const PayslipsEmailed = named(
  'PayslipsSendResult',
  Type.Object({
    periodId: Uuid,
    sentAt: Timestamp,
    sent: Type.Array(
      Type.Object({
        payslipId: Uuid,
        emailId: Uuid,
        to: Type.String(),
        status: Status,
        subject: Type.String(),
      }),
    ),
    skipped: Type.Array(
      Type.Object({
        payslipId: Uuid,
        employeeId: Uuid,
        employeeNumber: Type.String(),
        reason: stringEnum(['no_email'] as const, {
          description: "no_email: the employee's contact has no e-mail address",
        }),
      }),
      { description: 'Payslips not sent, and why' },
    ),
  }),
);

export const PayslipPdf = Type.String({
  contentMediaType: 'application/pdf',
  description:
    'The payslip as a PDF (A4); Content-Disposition names the file, e.g. payslip-E0001-2026-03-31.pdf',
});
