// Expense claims, their approvals, and mileage (issue 16). Routes, and the events the module
// emits (the registry and the OpenAPI document's webhooks).
export { expenseEvents } from './expenses.events.ts';
export { expenseRoutes } from './expenses.routes.ts';
export { mileageRoutes } from './mileage.routes.ts';
