// A claim's receipt: the slip's photo or PDF, uploaded as the request body (at most 20 MiB) and
// kept in a bytea row beside the claim, as a template's logo is kept. What the bytes are is told
// by their signature (PNG, JPEG, %PDF-), not by the Content-Type they came with.

import { sniffImage } from '../../platform/files/images.ts';
import { FileResponse, PDF_CONTENT_TYPE } from '../../platform/files/response.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import type { ExpenseRecord } from './expenses.queries.ts';
import { lockClaim, recordOf } from './expenses.service.ts';

export const RECEIPT_TYPES = ['image/png', 'image/jpeg', PDF_CONTENT_TYPE] as const;
/** A phone's photo of a slip is a few MiB; a scanned PDF of several pages may be more. */
export const RECEIPT_LIMIT = 20 * 1024 * 1024;

const EXTENSION: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  [PDF_CONTENT_TYPE]: 'pdf',
};

function sniff(bytes: Buffer): string | undefined {
  return (
    sniffImage(bytes) ?? (bytes.subarray(0, 5).toString('latin1') === '%PDF-' ? PDF_CONTENT_TYPE : undefined)
  );
}

/** PUT /api/expenses/{id}/receipt: keeps (or replaces) the claim's receipt. */
export async function putReceipt(
  ctx: TenantCtx,
  id: string,
  body: unknown,
  declared: string | undefined,
): Promise<ExpenseRecord> {
  const row = await lockClaim(ctx, id);
  if (!Buffer.isBuffer(body))
    throw new HttpError(
      415,
      'Send the receipt itself as the body: image/png, image/jpeg or application/pdf',
      {
        code: 'UNSUPPORTED_MEDIA_TYPE',
      },
    );
  if (!body.length) throw badRequest('body', 'the receipt is empty');
  const type = sniff(body);
  if (!type)
    throw new HttpError(415, 'The bytes are neither a PNG, a JPEG nor a PDF (their first bytes say so)', {
      code: 'UNSUPPORTED_MEDIA_TYPE',
    });
  const said = declared?.split(';')[0]?.trim().toLowerCase();
  if (said !== type) throw badRequest('body', `the bytes are ${type}, sent as ${said}`);
  const values = { content_type: type, size_bytes: body.length, bytes: body, uploaded_at: ctx.deps.now() };
  await ctx.db
    .insertInto('expense_receipts')
    .values({ tenant_id: ctx.tenantId, claim_id: id, ...values })
    .onConflict((oc) => oc.columns(['tenant_id', 'claim_id']).doUpdateSet(values))
    .execute();
  return recordOf(ctx, row);
}

/** GET /api/expenses/{id}/receipt: the bytes as their own type (inline); 404 when none. */
export async function getReceipt(ctx: TenantCtx, id: string): Promise<FileResponse> {
  const r = await ctx.db
    .selectFrom('expense_receipts as r')
    .innerJoin('expense_claims as c', (j) =>
      j.onRef('c.tenant_id', '=', 'r.tenant_id').onRef('c.id', '=', 'r.claim_id'),
    )
    .select(['r.bytes', 'r.content_type'])
    .where('r.tenant_id', '=', ctx.tenantId)
    .where('r.claim_id', '=', id)
    .where('c.company_id', '=', companyOf(ctx))
    .where('c.deleted_at', 'is', null)
    .executeTakeFirst();
  if (!r) throw notFound('Receipt');
  const bytes = Buffer.from(r.bytes.buffer, r.bytes.byteOffset, r.bytes.byteLength);
  return new FileResponse(
    r.content_type,
    `receipt.${EXTENSION[r.content_type]}`,
    async () => bytes,
    'inline',
  );
}
