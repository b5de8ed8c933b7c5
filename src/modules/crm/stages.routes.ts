// Routes of the CRM: filled by the work on issue 19.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const stagesRoutes: AnyRoute[] = [];
