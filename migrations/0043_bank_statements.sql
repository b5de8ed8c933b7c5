-- Statement files in (issue 17): the CSV mappings a user saves for a bank export no built-in
-- profile reads (column roles by header name or index, date format, sign convention, skipped
-- rows, decimal separator), kept as one JSON document checked by the API. Company-scoped; never
-- deleted.
CREATE TABLE bank_csv_mappings (
  tenant_id uuid NOT NULL,
  id uuid NOT NULL,
  company_id uuid NOT NULL,
  name text NOT NULL CHECK (btrim(name) <> ''),
  mapping jsonb NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (tenant_id, id),
  UNIQUE (tenant_id, company_id, id),
  FOREIGN KEY (tenant_id, company_id) REFERENCES companies (tenant_id, id)
);
CREATE UNIQUE INDEX bank_csv_mappings_name ON bank_csv_mappings (tenant_id, company_id, lower(btrim(name)));
SELECT bp_tenant_table('bank_csv_mappings');
CREATE TRIGGER bank_csv_mappings_touch BEFORE UPDATE ON bank_csv_mappings
  FOR EACH ROW EXECUTE FUNCTION touch_updated_at();
