// The public pay page, GET /pay/{token}: the invoice summary and the pay button, without
// signing in. (Stub: built by the links work of issue 18.)
import type { AnyRoute } from '../../../platform/http/catalogue.ts';

export const payPageRoutes: AnyRoute[] = [];
