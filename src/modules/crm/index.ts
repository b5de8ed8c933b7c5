// Sales CRM (issue 19): leads (by hand, CSV import, /external/leads), the pipeline's stages,
// opportunities, targets, activities and campaigns.

// Nothing here is used by another module yet: what one needs is exported here, never taken from
// another file of this folder. Routes are in routes.ts, for the catalogue.
export {};
