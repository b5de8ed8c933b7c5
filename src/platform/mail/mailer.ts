// Outgoing e-mail. Every message is first kept in the emails table (in the caller's
// transaction); after commit it is sent over SMTP_URL, or, without SMTP, logged and left
// stored so that a developer can read it.
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import nodemailer, { type Transporter } from 'nodemailer';
import type { DB } from '../db/schema.ts';
import { type Tx, withTenant } from '../db/tenant.ts';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** what the message is for: password-reset, invitation, ... */
  kind: string;
}

export interface Mailer {
  configured: boolean;
  /** Keeps the message in the caller's transaction; returns its id. */
  store(tx: Tx, tenantId: string, message: MailMessage): Promise<string>;
  /** Sends a stored message (after commit). */
  deliver(db: Kysely<DB>, tenantId: string, emailId: string): Promise<void>;
  close(): void;
}

export function createMailer(smtpUrl: string | undefined, from: string, log: FastifyBaseLogger): Mailer {
  const transport: Transporter | undefined = smtpUrl ? nodemailer.createTransport(smtpUrl) : undefined;
  return {
    configured: Boolean(transport),
    async store(tx, tenantId, message) {
      const id = crypto.randomUUID();
      await tx
        .insertInto('emails')
        .values({
          tenant_id: tenantId,
          id,
          to_address: message.to,
          subject: message.subject,
          text_body: message.text,
          html_body: message.html ?? null,
          kind: message.kind,
          status: transport ? 'queued' : 'stored',
        })
        .execute();
      return id;
    },
    async deliver(db, tenantId, emailId) {
      const email = await withTenant(db, tenantId, (tx) =>
        tx
          .selectFrom('emails')
          .selectAll()
          .where('tenant_id', '=', tenantId)
          .where('id', '=', emailId)
          .executeTakeFirst(),
      );
      if (!email) return;
      if (!transport) {
        // No SMTP: the message stays in the emails table; the log says where to find it.
        log.info({ emailId, kind: email.kind, to: email.to_address }, 'e-mail stored (SMTP_URL not set)');
        return;
      }
      try {
        await transport.sendMail({
          from,
          to: email.to_address,
          subject: email.subject,
          text: email.text_body,
          ...(email.html_body ? { html: email.html_body } : {}),
        });
        await withTenant(db, tenantId, (tx) =>
          tx
            .updateTable('emails')
            .set({ status: 'sent', sent_at: new Date(), error: null })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', emailId)
            .execute(),
        );
      } catch (err) {
        log.warn({ emailId, err: (err as Error).message }, 'e-mail not sent');
        await withTenant(db, tenantId, (tx) =>
          tx
            .updateTable('emails')
            .set({ status: 'failed', error: (err as Error).message.slice(0, 500) })
            .where('tenant_id', '=', tenantId)
            .where('id', '=', emailId)
            .execute(),
        );
      }
    },
    close() {
      transport?.close();
    },
  };
}

/** Stores a message now and sends it once the request's transaction has committed. */
export async function sendMail(
  ctx: {
    deps: { mailer: Mailer; database: { db: Kysely<DB> } };
    afterCommit(fn: () => Promise<void>): void;
  },
  tx: Tx,
  tenantId: string,
  message: MailMessage,
): Promise<string> {
  const id = await ctx.deps.mailer.store(tx, tenantId, message);
  ctx.afterCommit(() => ctx.deps.mailer.deliver(ctx.deps.database.db, tenantId, id));
  return id;
}
