// Test keys (bpk_test_): a key made with X-Company-Id naming the sandbox company acts on the
// sandbox alone, as Stripe's test keys never touch live money. The catalogue calls the one
// check below for every call a key's token makes, with what the principal row already knows
// (whether the X-Company-Id company is the sandbox), so it costs no round trip.
//
// What a test key may do:
// - company-scoped routes (invoices, reports, ledger…): only with X-Company-Id naming the sandbox;
// - tenant-wide reads (contacts, products, companies, roles…): yes, they change nothing;
// - tenant-wide writes (contacts, products, companies, roles, users, keys, webhooks, the sandbox
//   itself): no. Those books are shared with the live companies, so a test would reach them.
import { forbidden } from '../http/problem.ts';
import type { Principal } from './principal.ts';

export const TEST_KEY_SANDBOX_ONLY = 'TEST_KEY_SANDBOX_ONLY';

interface RouteReach {
  companyScoped?: boolean;
  access: 'read' | 'write';
}

/** 403 TEST_KEY_SANDBOX_ONLY when a test key's call would reach beyond the sandbox company. */
export function assertTestKeyReach(principal: Principal, route: RouteReach, companyIsSandbox: boolean) {
  if (principal.type !== 'api_key' || principal.mode !== 'test') return;
  if (route.companyScoped) {
    if (!companyIsSandbox) {
      throw forbidden(
        'A test key (bpk_test_) acts on the sandbox company only: send its id as X-Company-Id, or use a live key',
        TEST_KEY_SANDBOX_ONLY,
      );
    }
    return;
  }
  if (route.access === 'write') {
    throw forbidden(
      'A test key (bpk_test_) cannot change records shared with the live companies (contacts, products, ' +
        'companies, roles, users, keys, webhooks); it may read them, and write in the sandbox company',
      TEST_KEY_SANDBOX_ONLY,
    );
  }
}
