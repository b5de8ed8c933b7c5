-- E-mail attachments (invoice PDFs and the like), kept with their message, and the send
-- attempts of a message. Every e-mail is sent by the job worker (queue email-send), which
-- retries a transient failure; `attempts` counts the tries made over SMTP.

ALTER TABLE emails ADD COLUMN attempts integer NOT NULL DEFAULT 0;

CREATE TABLE email_attachments (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  email_id uuid NOT NULL,
  -- the attachment's place in the message, from 0
  position integer NOT NULL CHECK (position >= 0),
  filename text NOT NULL CHECK (filename <> ''),
  content_type text NOT NULL,
  content bytea NOT NULL,
  size integer NOT NULL CHECK (size = octet_length(content)),
  created_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, email_id, position),
  FOREIGN KEY (tenant_id, email_id) REFERENCES emails (tenant_id, id)
);
SELECT bp_tenant_table('email_attachments');
