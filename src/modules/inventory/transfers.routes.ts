// Stub (foundation of issue 20): the routes are filled in by the module's owner.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const transfersRoutes: AnyRoute[] = [];
