// Routes of banking: statements files in (OFX, CAMT.053, CSV), preview, and the statements read.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const bankStatementRoutes: AnyRoute[] = [];
