// Expense claims, their approvals, and mileage (issue 16). The data schema of each event the
// module emits (the OpenAPI document's webhooks).
import type { TSchema } from 'typebox';
import { ExpenseRejected } from './expenses.schemas.ts';

/** Each event the module emits, with the schema of its `data`. */
export const expenseEventSchemas: Record<string, TSchema> = {
  'expense.rejected': ExpenseRejected,
};
