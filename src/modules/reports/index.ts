// The reports module's public surface: its routes. Reports read the ledger's running balances
// (src/modules/ledger/balances.ts) and the contacts module's aging.
export { reportRoutes } from './reports.routes.ts';
