// The whole route catalogue: every operation of the service, declared once. The app
// registers it, the OpenAPI document describes it, the security suite walks it.
import { entitlementRoutes, setupProgressRoutes } from './modules/billing/index.ts';
import { companyRoutes } from './modules/companies/index.ts';
import { contactRoutes } from './modules/contacts/index.ts';
import { productRoutes } from './modules/inventory/index.ts';
import { invoiceRoutes, recurringRoutes, settingsRoutes } from './modules/invoices/index.ts';
import { accountRoutes, journalRoutes } from './modules/ledger/index.ts';
import { reportRoutes } from './modules/reports/index.ts';
import { sandboxRoutes } from './modules/sandbox/index.ts';
import { auditRoutes } from './platform/audit/audit.routes.ts';
import { apiKeyRoutes } from './platform/auth/api-keys.routes.ts';
import { loginRoutes } from './platform/auth/login.routes.ts';
import { passwordRoutes } from './platform/auth/password.routes.ts';
import { roleRoutes } from './platform/auth/roles.routes.ts';
import { sessionRoutes } from './platform/auth/sessions.routes.ts';
import { twoFactorRoutes } from './platform/auth/two-factor.routes.ts';
import { userRoutes } from './platform/auth/users.routes.ts';
import { webhookRoutes } from './platform/events/webhooks.routes.ts';
import type { AnyRoute } from './platform/http/catalogue.ts';
import { discoveryRoutes } from './platform/http/discovery.routes.ts';
import { oauthAppRoutes } from './platform/oauth/apps.routes.ts';
import { authorizeRoutes } from './platform/oauth/authorize.routes.ts';
import { oauthTokenRoutes } from './platform/oauth/token.routes.ts';

export const catalogue: AnyRoute[] = [
  ...discoveryRoutes(() => catalogue),
  ...loginRoutes,
  ...companyRoutes,
  ...contactRoutes,
  ...passwordRoutes,
  ...twoFactorRoutes,
  ...sessionRoutes,
  ...setupProgressRoutes,
  ...roleRoutes,
  ...userRoutes,
  ...auditRoutes,
  ...apiKeyRoutes,
  ...entitlementRoutes,
  ...oauthAppRoutes,
  ...authorizeRoutes,
  ...oauthTokenRoutes,
  ...webhookRoutes,
  ...accountRoutes,
  ...journalRoutes,
  ...invoiceRoutes,
  ...productRoutes,
  ...sandboxRoutes,
  ...recurringRoutes,
  ...settingsRoutes,
  ...reportRoutes,
];
