// Outgoing e-mail. sendMail() keeps every message (and its attachments) in the emails table
// and queues its send job, both in the caller's transaction, so a message exists and is sent
// exactly when the change it belongs to commits. The job worker (send.ts) then sends it over
// SMTP_URL with retries, or, without SMTP, logs it and leaves it stored so that a developer
// can read it. No request ever waits for a mail server.
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Tx } from '../db/tenant.ts';
import type { Jobs } from '../jobs/jobs.ts';

export interface MailAttachment {
  /** The name the recipient sees, e.g. `INV-0001.pdf`. */
  filename: string;
  /** e.g. `application/pdf`. */
  contentType: string;
  content: Buffer;
}

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** what the message is for: password-reset, invitation, ... */
  kind: string;
  attachments?: MailAttachment[];
}

/** The job queue of e-mails to send; its data names the tenant and the stored message. */
export const EMAIL_QUEUE = 'email-send';

export interface EmailJob {
  tenantId: string;
  emailId: string;
}

/** What `transmit` did: handed the message to the SMTP server, or only logged it (no SMTP_URL). */
export type Transmitted = 'sent' | 'stored';

export interface Mailer {
  /** SMTP_URL is set: messages leave; otherwise they are kept in `emails` and logged. */
  configured: boolean;
  /**
   * Sends one message now (the job worker calls it, never a request). Throws what the SMTP
   * server or the connection answered; nodemailer's error carries `responseCode`.
   */
  transmit(message: MailMessage & { emailId: string }): Promise<Transmitted>;
  close(): void;
}

/** nodemailer waits up to 10 minutes on a silent server by default; a job should not. */
const SMTP_TIMEOUTS = { connectionTimeout: 30_000, greetingTimeout: 30_000, socketTimeout: 60_000 };

export function createMailer(
  smtpUrl: string | undefined,
  from: string,
  log: Pick<FastifyBaseLogger, 'info'>,
): Mailer {
  const transport: Transporter | undefined = smtpUrl
    ? nodemailer.createTransport({ url: smtpUrl, ...SMTP_TIMEOUTS })
    : undefined;
  return {
    configured: Boolean(transport),
    async transmit(message) {
      if (!transport) {
        // No SMTP: the message stays in the emails table; the log says where to find it.
        log.info(
          { emailId: message.emailId, kind: message.kind, to: message.to },
          'e-mail stored (SMTP_URL not set)',
        );
        return 'stored';
      }
      await transport.sendMail({
        from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        ...(message.attachments?.length
          ? {
              attachments: message.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: a.content,
              })),
            }
          : {}),
      });
      return 'sent';
    },
    close() {
      transport?.close();
    },
  };
}

/** What sendMail needs: the caller's transaction and tenant, and the mailer and job queue. */
export interface MailCtx {
  /** The caller's transaction: a request's `ctx.db`, or a job's own `withTenant` transaction. */
  db: Tx;
  tenantId: string;
  deps: { mailer: Pick<Mailer, 'configured'>; jobs: Pick<Jobs, 'sendInTx'> };
}

/**
 * Keeps a message (with its attachments) and queues its sending, in the caller's transaction:
 * a rolled-back change sends nothing, a committed one is sent by the job worker. Returns the
 * message's id. A request's TenantCtx is a MailCtx: `await sendMail(ctx, { to, subject, ... })`.
 */
export async function sendMail(ctx: MailCtx, message: MailMessage): Promise<string> {
  const { db, tenantId } = ctx;
  const id = crypto.randomUUID();
  await db
    .insertInto('emails')
    .values({
      tenant_id: tenantId,
      id,
      to_address: message.to,
      subject: message.subject,
      text_body: message.text,
      html_body: message.html ?? null,
      kind: message.kind,
      status: ctx.deps.mailer.configured ? 'queued' : 'stored',
    })
    .execute();
  const attachments = message.attachments ?? [];
  if (attachments.length) {
    await db
      .insertInto('email_attachments')
      .values(
        attachments.map((a, position) => ({
          tenant_id: tenantId,
          id: crypto.randomUUID(),
          email_id: id,
          position,
          filename: a.filename,
          content_type: a.contentType,
          content: a.content,
          size: a.content.byteLength,
        })),
      )
      .execute();
  }
  // In the caller's transaction (never jobs.send: embedded, that waits for the connection
  // the caller holds).
  await ctx.deps.jobs.sendInTx(db, EMAIL_QUEUE, { tenantId, emailId: id } satisfies EmailJob);
  return id;
}
