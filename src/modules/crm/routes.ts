// The crm module's routes, for the catalogue (src/catalogue.ts) alone: other modules use
// index.ts, which exports services and types, never routes (test/boundaries.test.ts).
import type { AnyRoute } from '../../platform/http/catalogue.ts';
import { activitiesRoutes } from './activities.routes.ts';
import { campaignsRoutes } from './campaigns.routes.ts';
import { externalLeadsRoutes } from './external-leads.routes.ts';
import { leadsImportRoutes } from './leads.import.routes.ts';
import { leadsRoutes } from './leads.routes.ts';
import { opportunitiesRoutes } from './opportunities.routes.ts';
import { stagesRoutes } from './stages.routes.ts';
import { targetsRoutes } from './targets.routes.ts';

export const crmRoutes: AnyRoute[] = [
  ...leadsImportRoutes,
  ...leadsRoutes,
  ...externalLeadsRoutes,
  ...stagesRoutes,
  ...opportunitiesRoutes,
  ...targetsRoutes,
  ...activitiesRoutes,
  ...campaignsRoutes,
];
