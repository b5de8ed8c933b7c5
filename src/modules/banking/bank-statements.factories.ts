// Test helpers: a statement file uploaded as a client does (multipart), and the fixtures.
import { readFileSync } from 'node:fs';
import { encodeMultipart } from '../../platform/http/multipart.ts';
import type { Banking } from './banking.factories.ts';

export const fixture = (name: string) =>
  readFileSync(new URL(`./statements/fixtures/${name}`, import.meta.url));

/** POST /api/bank-statements with the file and fields (the account's by default). */
export function upload(k: Banking, file: Buffer | string, fields: Record<string, string> = {}) {
  const { payload, headers } = encodeMultipart({
    bankAccountId: k.bankAccountId,
    ...fields,
    file: Buffer.isBuffer(file) ? file : Buffer.from(file),
  });
  return k.api({ method: 'POST', url: '/api/bank-statements', payload, headers });
}
