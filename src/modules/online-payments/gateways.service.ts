// A company's payment gateways: the credentials it set (sealed at rest with SECRETS_KEY,
// never answered back), whether each gateway can take money and, when not, why in words
// (spec Payments rule 3), and the clearing account each gateway's payments are recorded into.

import type { Selectable } from 'kysely';
import type { Tx } from '../../platform/db/tenant.ts';
import type { AppDeps, TenantCtx } from '../../platform/http/context.ts';
import { conflict, unavailable } from '../../platform/http/problem.ts';
import { toNumber } from '../../platform/money/money.ts';
import { openSecret, SecretOpenError, sealSecret, secretKeysOf } from '../../platform/secrets/index.ts';
import { companyOf } from '../../platform/work/context.ts';
import { systemBankAccount } from '../ledger/index.ts';
import { GATEWAYS, type Gateway, type PaymentGatewayAccountsTable } from './online.tables.ts';

export type GatewayAccountRow = Selectable<PaymentGatewayAccountsTable>;

/** Gateway A's (PayFast-style) credentials, opened. */
export interface GatewayAKeys {
  merchantId: string;
  merchantKey: string;
  /** Signs the redirect form and the ITN (may be absent at the gateway: then null). */
  passphrase: string | null;
}

/** Gateway B's (Yoco-style) credentials, opened. */
export interface GatewayBKeys {
  secretKey: string;
  /** whsec_…: Standard Webhooks signing secret of the tenant's webhook at the gateway. */
  webhookSecret: string;
}

export const GATEWAY_NAMES: Record<Gateway, string> = {
  gatewaya: 'Gateway A (PayFast-style redirect and ITN)',
  gatewayb: 'Gateway B (Yoco-style checkouts and signed webhooks)',
};

const CLEARING_NAMES: Record<Gateway, string> = {
  gatewaya: 'Gateway A clearing',
  gatewayb: 'Gateway B clearing',
};

/** The company's row for a gateway (none until credentials were first set). */
export async function gatewayAccountRow(
  db: Tx,
  tenantId: string,
  companyId: string,
  gateway: Gateway,
  lock = false,
): Promise<GatewayAccountRow | undefined> {
  const q = db
    .selectFrom('payment_gateway_accounts')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('company_id', '=', companyId)
    .where('gateway', '=', gateway);
  return (lock ? q.forUpdate() : q).executeTakeFirst();
}

export const GATEWAY_LABELS: Record<Gateway, string> = { gatewaya: 'Gateway A', gatewayb: 'Gateway B' };

/** A company with no row for the gateway: nothing was ever set. */
const neverSet = (gateway: Gateway) => `${GATEWAY_LABELS[gateway]} has no credentials: set them first`;

/** What is missing for the gateway to take money, in words; null when nothing is. */
export function missingCredentials(row: GatewayAccountRow): string | null {
  const name = GATEWAY_LABELS[row.gateway];
  if (row.gateway === 'gatewaya') {
    if (!row.merchant_id && !row.merchant_key_sealed)
      return `${name} has no credentials: set the merchant id and merchant key`;
    if (!row.merchant_id) return `${name} has a merchant key but no merchant id`;
    if (!row.merchant_key_sealed) return `${name} has a merchant id but no merchant key`;
    return null;
  }
  if (!row.secret_key_sealed && !row.webhook_secret_sealed)
    return `${name} has no credentials: set the secret key and the webhook signing secret`;
  if (!row.webhook_secret_sealed)
    return `${name} has a secret key but no webhook signing secret: payments could not be confirmed`;
  if (!row.secret_key_sealed)
    return `${name} has a webhook signing secret but no secret key: checkouts cannot be created`;
  return null;
}

export interface Availability {
  available: boolean;
  reason: string | null;
}

/** Whether the gateway can take money; the reason in words when it cannot. */
export function availabilityOf(
  deps: Pick<AppDeps, 'config'>,
  gateway: Gateway,
  row: GatewayAccountRow | undefined,
): Availability {
  if (!row) return { available: false, reason: neverSet(gateway) };
  const missing = missingCredentials(row);
  if (missing) return { available: false, reason: missing };
  if (!deps.config.secretKeys())
    return {
      available: false,
      reason: 'SECRETS_KEY is not set on this server: the stored credentials cannot be opened',
    };
  try {
    if (gateway === 'gatewaya') openGatewayA(deps, row);
    else openGatewayB(deps, row);
  } catch {
    return {
      available: false,
      reason: "The stored credentials cannot be decrypted with this server's SECRETS_KEY: enter them again",
    };
  }
  return { available: true, reason: null };
}

function opened(deps: Pick<AppDeps, 'config'>, sealed: string): string {
  const keys = secretKeysOf(deps);
  try {
    return openSecret(keys, sealed);
  } catch (err) {
    if (err instanceof SecretOpenError)
      throw unavailable(
        "The gateway's stored credentials cannot be decrypted with this server's SECRETS_KEY: enter them again",
      );
    throw err;
  }
}

/** Gateway A's credentials opened; 503 when they will not decrypt (or SECRETS_KEY is absent). */
export function openGatewayA(deps: Pick<AppDeps, 'config'>, row: GatewayAccountRow): GatewayAKeys {
  if (!row.merchant_id || !row.merchant_key_sealed) throw new Error('gateway A credentials are incomplete');
  return {
    merchantId: row.merchant_id,
    merchantKey: opened(deps, row.merchant_key_sealed),
    passphrase: row.passphrase_sealed ? opened(deps, row.passphrase_sealed) : null,
  };
}

/** Gateway B's credentials opened; 503 when they will not decrypt (or SECRETS_KEY is absent). */
export function openGatewayB(deps: Pick<AppDeps, 'config'>, row: GatewayAccountRow): GatewayBKeys {
  if (!row.secret_key_sealed || !row.webhook_secret_sealed)
    throw new Error('gateway B credentials are incomplete');
  return {
    secretKey: opened(deps, row.secret_key_sealed),
    webhookSecret: opened(deps, row.webhook_secret_sealed),
  };
}

/**
 * The company's gateway row when it can take money (rule 3), else 409 GATEWAY_UNAVAILABLE with
 * the reason; credentials that will not decrypt are a 503 (where used).
 */
export async function requireAvailable(
  ctx: { db: Tx; tenantId: string; deps: Pick<AppDeps, 'config'> },
  companyId: string,
  gateway: Gateway,
): Promise<GatewayAccountRow> {
  const row = await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, gateway);
  if (!row) throw conflict(neverSet(gateway), { code: 'GATEWAY_UNAVAILABLE' });
  const missing = missingCredentials(row);
  if (missing) throw conflict(missing, { code: 'GATEWAY_UNAVAILABLE' });
  // Opening them here makes a key that will not decrypt a 503 before anything is done.
  if (gateway === 'gatewaya') openGatewayA(ctx.deps, row);
  else openGatewayB(ctx.deps, row);
  return row;
}

export function toGateway(
  deps: Pick<AppDeps, 'config'>,
  gateway: Gateway,
  row: GatewayAccountRow | undefined,
) {
  const { available, reason } = availabilityOf(deps, gateway, row);
  return {
    gateway,
    name: GATEWAY_NAMES[gateway],
    available,
    reason,
    configured: Boolean(
      row && (row.merchant_key_sealed || row.secret_key_sealed || row.webhook_secret_sealed),
    ),
    merchantId: row?.merchant_id ?? null,
    hasMerchantKey: Boolean(row?.merchant_key_sealed),
    hasPassphrase: Boolean(row?.passphrase_sealed),
    hasSecretKey: Boolean(row?.secret_key_sealed),
    hasWebhookSecret: Boolean(row?.webhook_secret_sealed),
    amountTolerance: row ? toNumber(row.amount_tolerance) : 0.01,
    clearingAccountId: row?.clearing_account_id ?? null,
    updatedAt: row?.updated_at.toISOString() ?? null,
  };
}

/** GET /api/payment-gateways: every gateway, set up or not, in a fixed order. */
export async function listGateways(ctx: TenantCtx) {
  const companyId = companyOf(ctx);
  const rows = await ctx.db
    .selectFrom('payment_gateway_accounts')
    .selectAll()
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .execute();
  return GATEWAYS.map((g) =>
    toGateway(
      ctx.deps,
      g,
      rows.find((r) => r.gateway === g),
    ),
  );
}

/** The company's clearing account for a gateway, made (a bank account: the next free bank code) when absent. */
function clearingAccount(ctx: TenantCtx, companyId: string, gateway: Gateway): Promise<string> {
  return systemBankAccount(ctx, companyId, {
    key: `${gateway}_clearing`,
    name: CLEARING_NAMES[gateway],
    description: 'Online payments taken by the gateway and not yet paid out to the bank',
  });
}

export interface GatewayCredentialsInput {
  merchantId?: string | undefined;
  merchantKey?: string | undefined;
  passphrase?: string | undefined;
  secretKey?: string | undefined;
  webhookSecret?: string | undefined;
  amountTolerance?: number | undefined;
}

/**
 * PUT /api/payment-gateways/{gateway}: the credentials as given replace the stored ones (a field
 * left out is cleared, so a half-finished set is stored and reported as such).
 */
export async function setGatewayCredentials(
  ctx: TenantCtx,
  gateway: Gateway,
  input: GatewayCredentialsInput,
) {
  const companyId = companyOf(ctx);
  const keys = secretKeysOf(ctx.deps);
  const seal = (v: string | undefined) => (v ? sealSecret(keys, v) : null);
  const values =
    gateway === 'gatewaya'
      ? {
          merchant_id: input.merchantId ?? null,
          merchant_key_sealed: seal(input.merchantKey),
          passphrase_sealed: seal(input.passphrase),
          secret_key_sealed: null,
          webhook_secret_sealed: null,
        }
      : {
          merchant_id: null,
          merchant_key_sealed: null,
          passphrase_sealed: null,
          secret_key_sealed: seal(input.secretKey),
          webhook_secret_sealed: seal(input.webhookSecret),
        };
  if (values.merchant_id) {
    const other = await ctx.db
      .selectFrom('payment_gateway_accounts')
      .select('company_id')
      .where('tenant_id', '=', ctx.tenantId)
      .where('merchant_id', '=', values.merchant_id)
      .where('company_id', '<>', companyId)
      .executeTakeFirst();
    if (other)
      throw conflict('Another company of this business holds this merchant id', { field: 'merchantId' });
  }
  const existing = await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, gateway, true);
  const tolerance = input.amountTolerance ?? (existing ? toNumber(existing.amount_tolerance) : 0.01);
  if (existing) {
    await ctx.db
      .updateTable('payment_gateway_accounts')
      .set({ ...values, amount_tolerance: tolerance })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', existing.id)
      .execute();
  } else {
    await ctx.db
      .insertInto('payment_gateway_accounts')
      .values({
        tenant_id: ctx.tenantId,
        id: crypto.randomUUID(),
        company_id: companyId,
        gateway,
        ...values,
        amount_tolerance: tolerance,
        clearing_account_id: await clearingAccount(ctx, companyId, gateway),
      })
      .execute();
  }
  return toGateway(ctx.deps, gateway, await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, gateway));
}

/** DELETE /api/payment-gateways/{gateway}: the credentials are cleared; the row and its clearing account stay. */
export async function disconnectGateway(ctx: TenantCtx, gateway: Gateway) {
  const companyId = companyOf(ctx);
  const existing = await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, gateway, true);
  if (existing)
    await ctx.db
      .updateTable('payment_gateway_accounts')
      .set({
        merchant_id: null,
        merchant_key_sealed: null,
        passphrase_sealed: null,
        secret_key_sealed: null,
        webhook_secret_sealed: null,
      })
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', existing.id)
      .execute();
  return toGateway(ctx.deps, gateway, await gatewayAccountRow(ctx.db, ctx.tenantId, companyId, gateway));
}
