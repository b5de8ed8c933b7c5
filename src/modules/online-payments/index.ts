// Online payments (issue 18): the gateways, payment links and the pay page, the inbound
// notifications and the webhook inbox (the top of the module map: docs/architecture.md).

// Nothing here is used by another module yet: what one needs is exported here, never taken from
// another file of this folder. Routes are in routes.ts, for the catalogue.
export {};
