// Expense claims, their approvals, and mileage (issue 16). Routes, and the events the module
// emits (the registry and the OpenAPI document's webhooks).
export { expenseEvents } from './expenses.events.ts';
// Expense claims, their approvals, and mileage (issue 16). The data schema of each event the
// module emits (the OpenAPI document's webhooks).
