// A payment link's token: the tenant's id (16 bytes) and 18 random bytes, base64url (46
// characters). The public pay page has no tenant but the token, and every table is behind
// row-level security: the tenant read from the token opens its transaction, and the link is
// then looked up by the whole token within it. The random part is what makes it unguessable.
import { randomBytes } from 'node:crypto';

const UUID_HEX = /^[0-9a-f]{32}$/;

export function newLinkToken(tenantId: string): string {
  const tenant = Buffer.from(tenantId.replace(/-/g, ''), 'hex');
  return Buffer.concat([tenant, randomBytes(18)]).toString('base64url');
}

/** The tenant a token names, or null when it is not a token's shape. */
export function tenantOfToken(token: string): string | null {
  if (!/^[A-Za-z0-9_-]{46}$/.test(token)) return null;
  const hex = Buffer.from(token, 'base64url').subarray(0, 16).toString('hex');
  if (!UUID_HEX.test(hex)) return null;
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
