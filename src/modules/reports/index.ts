// The reports module's public surface. Reports read the ledger's running balances
// (src/modules/ledger/balances.ts) and the contacts module's aging.

// Nothing here is used by another module yet: what one needs is exported here, never taken from
// another file of this folder. Routes are in routes.ts, for the catalogue.
export {};
