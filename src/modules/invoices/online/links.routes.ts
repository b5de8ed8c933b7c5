// Routes of payment links: POST/GET /api/invoices/{id}/payment-links and revoking one.
// (Stub: built by the links work of issue 18.)
import type { AnyRoute } from '../../../platform/http/catalogue.ts';

export const paymentLinkRoutes: AnyRoute[] = [];
