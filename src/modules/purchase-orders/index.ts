// Purchase orders (issue 16): ordering from suppliers, receiving, and the bill made from what
// was received. Its routes belong to the expenses module (DECISIONS.md).

// Nothing here is used by another module yet: what one needs is exported here, never taken from
// another file of this folder. Routes are in routes.ts, for the catalogue.
export {};
