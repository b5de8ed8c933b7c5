// Routes of banking: the bank rules and re-running them.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const bankRuleRoutes: AnyRoute[] = [];
