// Routes of banking: the bank lines: paged list, one line, exclude and include.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const bankTransactionRoutes: AnyRoute[] = [];
