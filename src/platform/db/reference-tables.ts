// The tables that are not distributed by tenant: the one list of them. On a distributed
// PostgreSQL (Citus) every other table of the `public` schema is distributed by `tenant_id`
// and these are reference tables (copied to every node) or stay on the coordinator.
// test/distributed-schema.test.ts holds the schema to it after the migrations: a table missing
// from here must follow the tenant rules (tenant_id first in its primary key and in every unique
// index and foreign key between tenant tables, row-level security enabled and forced).
// pg-boss's own schema (`pgboss`, the job queue) is outside `public` and outside these rules.

export const REFERENCE_TABLES = {
  tenants: 'The tenants themselves: the row every tenant table points to by tenant_id.',
  user_logins:
    'The sign-in directory, e-mail → tenant and user, read before any tenant is known; ' +
    'its e-mail is unique across every tenant, so it is keyed by e-mail, not by tenant.',
  schema_migrations: 'The migrations applied (migrate.ts): the schema, not data.',
  mileage_rates: "SARS's rate per km by the date it took effect (migration 0038): the same for every tenant.",
  payroll_tax_years:
    "SARS's tax years (migration 0052): rebates, thresholds, medical credits, the retirement deduction's limits; the law, the same for every tenant.",
  payroll_tax_brackets:
    "SARS's income tax brackets of each tax year (migration 0052): the same for every tenant.",
  payroll_uif_rates:
    'The UIF rates and monthly ceiling by the date they took effect (migration 0052): the law, not tenant data.',
  payroll_sdl_rates:
    'The SDL rate and exemption threshold by the date they took effect (migration 0052): the law, not tenant data.',
  payroll_eti_rules:
    "The employment tax incentive's rules by the date they took effect (migration 0052): the law, not tenant data.",
  payroll_eti_bands:
    "The ETI's monthly bands of each set of rules (migration 0052): the law, not tenant data.",
  payroll_minimum_wages:
    'The National Minimum Wage an hour by the date it took effect (migration 0070): the law, not tenant data.',
} as const satisfies Record<string, string>;

export type ReferenceTable = keyof typeof REFERENCE_TABLES;
