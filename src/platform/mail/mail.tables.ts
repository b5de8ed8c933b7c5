// Kysely types of the e-mail attachments and of the send attempts added to `emails`
// (migrations/0010_email_attachments.sql); `emails` itself is in ../db/schema.ts.
import type { ColumnType, Generated } from 'kysely';
import type { DefaultTimestamp } from '../db/schema.ts';

/** bytea: node-postgres reads a Buffer, PGlite a Uint8Array; both are Uint8Arrays. */
export type Bytes = ColumnType<Uint8Array, Uint8Array, Uint8Array>;

export interface EmailAttachmentsTable {
  tenant_id: string;
  id: string;
  email_id: string;
  /** The attachment's place in the message, from 0. */
  position: number;
  filename: string;
  content_type: string;
  content: Bytes;
  /** Bytes in `content`. */
  size: number;
  created_at: DefaultTimestamp;
}

declare module '../db/schema.ts' {
  interface EmailsTable {
    /** Tries made over SMTP so far. */
    attempts: Generated<number>;
  }
  interface DB {
    email_attachments: EmailAttachmentsTable;
  }
}
