// Expense claims, their approvals, and mileage (issue 16). Routes, and the data schema of each
// event the module emits (the OpenAPI document's webhooks).
import type { TSchema } from 'typebox';
import { ExpenseRejected } from './expenses.schemas.ts';

export { expenseRoutes } from './expenses.routes.ts';
export { mileageRoutes } from './mileage.routes.ts';

/** Each event the module emits, with the schema of its `data`. */
export const expenseEventSchemas: Record<string, TSchema> = {
  'expense.rejected': ExpenseRejected,
};
