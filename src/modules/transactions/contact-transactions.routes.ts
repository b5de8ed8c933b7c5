// Routes of contact transactions and the monthly billing run: filled by the work on issue 19.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const contactTransactionsRoutes: AnyRoute[] = [];
