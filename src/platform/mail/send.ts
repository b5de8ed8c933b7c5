// Sending a stored e-mail: the job handler of EMAIL_QUEUE, run by the job worker after the
// transaction that stored the message committed. A transient failure (no connection, a
// timeout, a 4yz reply) is retried on EMAIL_RETRY_SCHEDULE; a permanent refusal (a 5yz reply:
// no such mailbox, message refused) ends the message as `failed` at once. Every outcome is
// recorded on the message: `sent`, `failed` with the error, or `stored` without SMTP_URL.
import { withTenant } from '../db/tenant.ts';
import type { AppDeps } from '../http/context.ts';
import { FinalFailure, type JobContext } from '../jobs/jobs.ts';
import type { EmailJob, Transmitted } from './mailer.ts';

/** Seconds before each retry of a transient failure: 1 min, 5 min, 30 min, 2 h. */
export const EMAIL_RETRY_SCHEDULE = [60, 300, 1800, 7200];
/** Five tries in all. */
export const EMAIL_MAX_ATTEMPTS = EMAIL_RETRY_SCHEDULE.length + 1;

/**
 * An SMTP refusal that sending the same message again would meet again: a 5yz reply (RFC
 * 5321), except 503 (bad sequence of commands: the session, not the message, was wrong) and
 * a refused login (our own credentials, which the operator can fix before the next retry).
 */
export function isPermanentRefusal(err: unknown): boolean {
  const e = err as { responseCode?: unknown; code?: unknown } | null;
  const reply = typeof e?.responseCode === 'number' ? e.responseCode : undefined;
  if (reply === undefined) return false;
  return reply >= 500 && reply < 600 && reply !== 503 && e?.code !== 'EAUTH';
}

const errorText = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

/** The job handler of EMAIL_QUEUE. */
export function sendEmail(deps: Pick<AppDeps, 'database' | 'mailer' | 'now'>) {
  return async (job: JobContext<EmailJob>): Promise<void> => {
    const { tenantId, emailId } = job.data;
    const db = deps.database.db;
    const email = await withTenant(db, tenantId, async (tx) => {
      const row = await tx
        .selectFrom('emails')
        .select(['id', 'to_address', 'subject', 'text_body', 'html_body', 'kind', 'status'])
        .where('tenant_id', '=', tenantId)
        .where('id', '=', emailId)
        .executeTakeFirst();
      // Gone, or finished already (a repeated job): nothing to send.
      if (!row || row.status === 'sent' || row.status === 'failed') return undefined;
      const attachments = await tx
        .selectFrom('email_attachments')
        .select(['filename', 'content_type', 'content'])
        .where('tenant_id', '=', tenantId)
        .where('email_id', '=', emailId)
        .orderBy('position')
        .execute();
      return { ...row, attachments };
    });
    if (!email) return;

    const record = (set: {
      status: 'queued' | 'sent' | 'stored' | 'failed';
      error: string | null;
      sentAt?: Date;
      attempted: boolean;
    }) =>
      withTenant(db, tenantId, (tx) =>
        tx
          .updateTable('emails')
          .set((eb) => ({
            status: set.status,
            error: set.error,
            ...(set.sentAt ? { sent_at: set.sentAt } : {}),
            ...(set.attempted ? { attempts: eb('attempts', '+', 1) } : {}),
          }))
          .where('tenant_id', '=', tenantId)
          .where('id', '=', emailId)
          .execute(),
      );

    let outcome: Transmitted;
    try {
      outcome = await deps.mailer.transmit({
        emailId,
        to: email.to_address,
        subject: email.subject,
        text: email.text_body,
        ...(email.html_body ? { html: email.html_body } : {}),
        kind: email.kind,
        attachments: email.attachments.map((a) => ({
          filename: a.filename,
          contentType: a.content_type,
          content: Buffer.from(a.content.buffer, a.content.byteOffset, a.content.byteLength),
        })),
      });
    } catch (err) {
      const error = errorText(err);
      const permanent = isPermanentRefusal(err);
      const last = permanent || job.attempt >= EMAIL_MAX_ATTEMPTS;
      await record({ status: last ? 'failed' : 'queued', error, attempted: true });
      if (permanent) throw new FinalFailure(`e-mail ${emailId} refused for good: ${error}`);
      throw new Error(`e-mail ${emailId} try ${job.attempt} of ${EMAIL_MAX_ATTEMPTS} failed: ${error}`);
    }
    if (outcome === 'stored') {
      if (email.status !== 'stored') await record({ status: 'stored', error: null, attempted: false });
      return;
    }
    await record({ status: 'sent', error: null, sentAt: deps.now(), attempted: true });
  };
}
