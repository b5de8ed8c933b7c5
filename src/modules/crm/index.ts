// Sales CRM (issue 19): leads (by hand, CSV import, /external/leads), the pipeline's stages,
// opportunities, targets, activities and campaigns. Every route of it, for the catalogue.
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
