// Leave requests and balances (issue 21): filled in by the leave work.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const leaveRoutes: AnyRoute[] = [];
