// Routes of banking: suggestions, matching, undo and the reconciliation report.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const reconciliationRoutes: AnyRoute[] = [];
