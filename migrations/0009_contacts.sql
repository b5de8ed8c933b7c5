-- Contacts: one book per tenant (customers, suppliers, employees, tax practitioners), shared by
-- every company of the tenant, and each contact's marketing consent history.
--
--   * contacts are never hard-deleted: DELETE sets deleted_at (bp_app has no DELETE anyway);
--   * what a contact owes or is owed is not stored here: it is read from the ledger's open items
--     (creditUsed, aged debtors and creditors), so it can never disagree with the books;
--   * consent records are a history: appended, never changed (bp_app may not update them); the
--     latest record per channel is the one in force.

CREATE TABLE contacts (
  tenant_id uuid NOT NULL REFERENCES tenants (id),
  id uuid NOT NULL,
  contact_type text NOT NULL CHECK (contact_type IN ('CUSTOMER', 'SUPPLIER', 'EMPLOYEE', 'TAX_PRACTITIONER')),
  name text NOT NULL CHECK (btrim(name) <> ''),
  trading_name text,
  email text,
  phone text,
  mobile text,
  vat_number text,
  registration_no text,
  -- physical (street) address
  address_line1 text,
  address_line2 text,
  city text,
  province text,
  postal_code text,
  country text,
  -- postal address
  postal_address_line1 text,
  postal_address_line2 text,
  postal_city text,
  postal_province text,
  postal_postal_code text,
  postal_country text,
  currency text NOT NULL DEFAULT 'ZAR' CHECK (currency ~ '^[A-Z]{3}$'),
  notes text,
  -- NULL: no credit limit set
  credit_limit numeric(18, 2) CHECK (credit_limit >= 0),
  -- days after the document date that a document to or from this contact falls due
  payment_terms integer NOT NULL DEFAULT 30 CHECK (payment_terms BETWEEN 0 AND 3650),
  is_active boolean NOT NULL DEFAULT true,
  tags text[] NOT NULL DEFAULT '{}',
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  deleted_at timestamptz,
  PRIMARY KEY (tenant_id, id)
);
-- The list's order (name, then id) and its type filter, live contacts only.
CREATE INDEX contacts_by_name ON contacts (tenant_id, lower(name), id) WHERE deleted_at IS NULL;
CREATE INDEX contacts_by_type ON contacts (tenant_id, contact_type, lower(name), id) WHERE deleted_at IS NULL;
CREATE INDEX contacts_by_tags ON contacts USING gin (tags) WHERE deleted_at IS NULL;
SELECT bp_tenant_table('contacts');

-- Ledger lines and open items that name a contact name one of the tenant's contacts. The key
-- includes tenant_id, so a line can never point at another tenant's contact. (Nothing posts
-- with a contact before this migration: 0008 only created the tables.)
ALTER TABLE journal_lines
  ADD CONSTRAINT journal_lines_contact FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id);
ALTER TABLE open_items
  ADD CONSTRAINT open_items_contact FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id);

-- Marketing consent, per contact and channel: every change is a new row.
CREATE TABLE contact_consents (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  contact_id uuid NOT NULL,
  channel text NOT NULL CHECK (channel IN ('email', 'sms', 'whatsapp', 'phone', 'post')),
  status text NOT NULL CHECK (status IN ('granted', 'refused', 'withdrawn')),
  method text NOT NULL CHECK (method IN (
    'verbal', 'written', 'web_form', 'email', 'sms_reply', 'existing_customer', 'imported', 'other')),
  note text,
  -- who recorded it: 'user' or 'api_key', its id, and its name at the time (the name is kept
  -- because the history must still read right after the person or key is renamed or removed)
  recorded_by_type text NOT NULL CHECK (recorded_by_type IN ('user', 'api_key')),
  recorded_by uuid NOT NULL,
  recorded_by_name text NOT NULL,
  -- when the consent was given or withdrawn (may be earlier than the record, e.g. a signed form)
  recorded_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL DEFAULT clock_timestamp(),
  PRIMARY KEY (tenant_id, id),
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id)
);
CREATE INDEX contact_consents_by_contact
  ON contact_consents (tenant_id, contact_id, channel, recorded_at DESC, created_at DESC);
SELECT bp_tenant_table('contact_consents');
REVOKE UPDATE ON contact_consents FROM bp_app;
