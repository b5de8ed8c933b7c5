// Schema pieces shared by batches, serials, stock takes, transfers and landed costs.
import { Type } from 'typebox';

export const Timestamp = Type.String({ format: 'date-time' });
export const DateOnly = Type.String({ format: 'date', description: 'YYYY-MM-DD' });
export const Quantity = Type.Number({
  minimum: 0,
  maximum: 999_999_999_999,
  description: "In the product's base unit; up to four decimals",
});
