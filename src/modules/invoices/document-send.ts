// E-mailing a sales document with its PDF attached. Everything happens in the caller's
// transaction (a request's, or a recurring run's): the PDF is made, the message and its
// attachment are stored and the send job queued (platform/mail: sendMail), and sentAt is set.
// The job worker talks to the mail server later, so a slow server never holds the request, and
// a change that rolls back sends nothing. A draft is not sent (release it first: what the
// customer receives is the document as numbered and posted), nor a voided document.

import type { Decimal } from 'decimal.js';
import { PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import { formatAmount, longDate } from '../../platform/files/table.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { sendMail } from '../../platform/mail/mailer.ts';
import { companyOf, type WorkCtx } from '../../platform/work/context.ts';
import { announceById } from './announce.ts';
import { loadPaper, type Paper } from './document-paper.ts';
import { documentFilename, documentTitle, renderPaper } from './document-pdf.ts';
import { findInvoiceRow } from './invoices.queries.ts';

export interface SendInput {
  to?: string | undefined;
  message?: string | undefined;
}

export interface Sent {
  emailId: string;
  to: string;
  /** queued: the job worker sends it over SMTP; stored: no SMTP_URL, it is kept and logged. */
  status: 'queued' | 'stored';
  subject: string;
  sentAt: string;
}

const amount = (p: Paper, value: Decimal) => formatAmount(value, p.currency);

/** The subject: what it is, its number, from whom, how much and by when. */
export function subjectOf(p: Paper): string {
  const what = `${documentTitle(p.type, p.vatRegistered)} ${p.number} from ${p.company.name}`;
  switch (p.type) {
    case 'delivery_note':
      return what;
    case 'quote':
      return `${what}: ${amount(p, p.total)}, valid until ${longDate(p.dueDate)}`;
    case 'invoice':
    case 'debit_note':
    case 'pro_forma':
      return `${what}: ${amount(p, p.total)} due ${longDate(p.dueDate)}`;
    case 'cash_sale':
    case 'deposit':
      return `${what}: ${amount(p, p.total)} received`;
    default:
      return `${what}: ${amount(p, p.total)}`;
  }
}

/** The body: the caller's message, then what is attached, what is due and where to pay. */
export function bodyOf(p: Paper, message: string | undefined): string {
  const title = documentTitle(p.type, p.vatRegistered);
  const parts: string[] = [`Dear ${p.customer.name}`];
  if (message?.trim()) parts.push(message.trim());
  const dated = `dated ${longDate(p.issueDate)}`;
  if (p.type === 'delivery_note') {
    parts.push(`Please find attached ${title} ${p.number}, ${dated}.`);
  } else {
    let line = `Please find attached ${title} ${p.number}, ${dated}, for ${amount(p, p.total)}`;
    if (p.type === 'quote') line += `, valid until ${longDate(p.dueDate)}`;
    else if (p.type === 'invoice' || p.type === 'debit_note' || p.type === 'pro_forma')
      line += `, due on ${longDate(p.dueDate)}`;
    parts.push(`${line}.`);
    if ((p.type === 'invoice' || p.type === 'debit_note') && !p.due.eq(p.total))
      parts.push(`${amount(p, p.due)} of it is still due.`);
  }
  const s = p.settings;
  const payable = p.type === 'invoice' || p.type === 'debit_note' || p.type === 'pro_forma';
  if (payable && (s.bankName || s.bankAccountNumber)) {
    parts.push(
      [
        'Please pay into:',
        ...[
          ['Bank', s.bankName],
          ['Account name', s.bankAccountName],
          ['Account number', s.bankAccountNumber],
          ['Branch code', s.bankBranchCode],
          ['Account type', s.bankAccountType],
          ['Reference', p.number],
        ]
          .filter(([, v]) => v)
          .map(([k, v]) => `  ${k}: ${v}`),
      ].join('\n'),
    );
  }
  if (p.payUrl) parts.push(`Pay online: ${p.payUrl}`);
  parts.push(`Kind regards\n${p.company.name}`);
  return `${parts.join('\n\n')}\n`;
}

/**
 * Sends the document to `to`, or to its customer's e-mail address (400 naming `to` when there is
 * neither). Draft: 409 NOT_RELEASED; void: 409 DOCUMENT_VOID.
 */
export async function sendDocument(ctx: WorkCtx, id: string, input: SendInput): Promise<Sent> {
  const companyId = companyOf(ctx);
  const row = await findInvoiceRow(ctx.db, ctx.tenantId, companyId, id);
  if (!row) throw notFound('Document');
  const what = `${row.document_type.replace('_', ' ')} ${row.number}`;
  if (row.status === 'draft')
    throw conflict(
      `This ${what} is a draft; release it before sending it (POST /api/invoices/${id}/release)`,
      {
        code: 'NOT_RELEASED',
      },
    );
  if (row.status === 'void')
    throw conflict(`This ${what} is void; it is not sent`, { code: 'DOCUMENT_VOID' });
  const paper = await loadPaper(ctx, id);
  const to = input.to?.trim() || paper.customer.email;
  if (!to) throw badRequest('to', `${paper.customer.name} has no e-mail address; give one in to`);
  const subject = subjectOf(paper);
  const pdf = await renderPaper(paper);
  const emailId = await sendMail(
    { db: ctx.db, tenantId: ctx.tenantId, deps: ctx.deps },
    {
      to,
      subject,
      text: bodyOf(paper, input.message),
      kind: row.document_type,
      attachments: [{ filename: documentFilename(paper), contentType: PDF_CONTENT_TYPE, content: pdf }],
    },
  );
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('invoices')
    .set({ sent_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  // Its sentAt changed: a sync learns of it.
  await announceById(ctx, 'invoice.updated', id);
  return {
    emailId,
    to,
    status: ctx.deps.mailer.configured ? 'queued' : 'stored',
    subject,
    sentAt: now.toISOString(),
  };
}
