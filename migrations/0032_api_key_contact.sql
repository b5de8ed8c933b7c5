-- An API key's contact (the integration partner it is for) is a contact of the key's tenant
-- (issue 15, defect 5: any id was taken, another tenant's included). The service answers 404
-- for one that is not (api-keys.service.ts); this key makes the database refuse it too.
-- NOT VALID: keys written before it are not re-checked (a contact_id that names no contact of
-- its tenant cannot be mended here without guessing; it names nothing and reaches nothing).
ALTER TABLE api_keys ADD CONSTRAINT api_keys_contact_fk
  FOREIGN KEY (tenant_id, contact_id) REFERENCES contacts (tenant_id, id) NOT VALID;
