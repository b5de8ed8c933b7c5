-- Documents on paper and by e-mail.
--
--   * a tax invoice names its supplier's address (VAT Act s20(4)), and a company's documents
--     show its registration number (Companies Act s32): the company keeps them, with the
--     e-mail address and telephone number printed under its name;
--   * a document's template and the settings' default template refer to a template of the
--     tenant. NOT VALID: rows written before these keys are not re-checked (template ids were
--     stored unchecked until now); every new or changed row is.

ALTER TABLE companies
  ADD COLUMN address_line1 text,
  ADD COLUMN address_line2 text,
  ADD COLUMN city text,
  ADD COLUMN province text,
  ADD COLUMN postal_code text,
  ADD COLUMN country text,
  ADD COLUMN registration_no text,
  ADD COLUMN email text,
  ADD COLUMN phone text;

ALTER TABLE invoice_settings
  ADD CONSTRAINT invoice_settings_default_template
  FOREIGN KEY (tenant_id, default_template_id) REFERENCES invoice_templates (tenant_id, id) NOT VALID;

ALTER TABLE invoices
  ADD CONSTRAINT invoices_template
  FOREIGN KEY (tenant_id, template_id) REFERENCES invoice_templates (tenant_id, id) NOT VALID;

ALTER TABLE recurring_invoices
  ADD CONSTRAINT recurring_invoices_template
  FOREIGN KEY (tenant_id, template_id) REFERENCES invoice_templates (tenant_id, id) NOT VALID;

-- The template list: a company's live templates by name.
CREATE INDEX invoice_templates_by_company ON invoice_templates (tenant_id, company_id, lower(name), id)
  WHERE deleted_at IS NULL;
