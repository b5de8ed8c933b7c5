// The sandbox module's public surface.

// Nothing here is used by another module yet: what one needs is exported here, never taken from
// another file of this folder. Routes are in routes.ts, for the catalogue.
export {};
