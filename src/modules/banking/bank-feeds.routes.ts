// Routes of banking: the bank feed (Investec-style): connecting, syncing, status.
import type { AnyRoute } from '../../platform/http/catalogue.ts';

export const bankFeedRoutes: AnyRoute[] = [];
