// Invoice templates: how a company's documents look on paper (name, two colours, a footer and
// a logo). A logo arrives in base64 inside the JSON body and is kept as bytes only when they
// really are a PNG or JPEG that prints (read through: platform/files/images.ts). A deleted
// template is marked deleted; documents that named it print with the default look from then on.

import type { Static } from 'typebox';
import { checkImage, type ImageType } from '../../platform/files/images.ts';
import { FileResponse } from '../../platform/files/response.ts';
import type { TenantCtx } from '../../platform/http/context.ts';
import { createIdempotent, idFor } from '../../platform/http/idempotent.ts';
import { badRequest, conflict, notFound } from '../../platform/http/problem.ts';
import { companyOf } from '../../platform/work/context.ts';
import { findSettingsRow, findTemplate, templatesOf } from './settings.queries.ts';
import {
  type LogoUpload,
  MAX_LOGO_BYTES,
  type Template,
  type TemplateCreate,
  type TemplatePatch,
} from './settings.schemas.ts';

type TemplateJson = Static<typeof Template>;
type TemplateSummary = NonNullable<Awaited<ReturnType<typeof findTemplate>>>;

const DEFAULT_PRIMARY = '#1f4e79';
const DEFAULT_ACCENT = '#f2f2f2';

function toTemplate(row: TemplateSummary, defaultId: string | null): TemplateJson {
  return {
    id: row.id,
    companyId: row.company_id,
    name: row.name,
    primaryColour: row.primary_colour,
    accentColour: row.accent_colour,
    footer: row.footer,
    logo:
      row.logo_content_type && row.logo_size
        ? {
            contentType: row.logo_content_type as ImageType,
            size: Number(row.logo_size),
            url: `/api/invoice-templates/${row.id}/logo`,
          }
        : null,
    isDefault: row.id === defaultId,
    createdAt: row.created_at.toISOString(),
    updatedAt: row.updated_at.toISOString(),
  };
}

const kib = (bytes: number) => `${Math.ceil(bytes / 1024)} KiB`;

/** The logo's bytes, checked: base64 that decodes exactly, small enough, a PNG or JPEG as declared. */
export function logoBytes(logo: Static<typeof LogoUpload>): { bytes: Buffer; contentType: string } {
  const bytes = Buffer.from(logo.data, 'base64');
  // Buffer.from skips what is not base64; encoding back must give what was sent.
  if (bytes.toString('base64') !== logo.data)
    throw badRequest('logo.data', 'is not base64 (RFC 4648, padded, without line breaks)');
  if (bytes.length > MAX_LOGO_BYTES)
    throw badRequest('logo.data', `the image is ${kib(bytes.length)}; at most ${kib(MAX_LOGO_BYTES)}`);
  const image = checkImage(bytes);
  if (!image.ok) throw badRequest('logo.data', image.reason);
  if (image.type !== logo.contentType)
    throw badRequest(
      'logo.contentType',
      `the bytes are ${image.type === 'image/png' ? 'a PNG' : 'a JPEG'} image (${image.type}), not ${logo.contentType}`,
    );
  return { bytes, contentType: image.type };
}

async function defaultTemplateId(ctx: TenantCtx): Promise<string | null> {
  return (await findSettingsRow(ctx.db, ctx.tenantId, companyOf(ctx)))?.default_template_id ?? null;
}

export async function getTemplate(ctx: TenantCtx, id: string): Promise<TemplateJson> {
  const row = await findTemplate(ctx.db, ctx.tenantId, companyOf(ctx), id);
  if (!row) throw notFound('Invoice template');
  return toTemplate(row, await defaultTemplateId(ctx));
}

export async function listTemplates(ctx: TenantCtx): Promise<TemplateJson[]> {
  const rows = await templatesOf(ctx.db, ctx.tenantId, companyOf(ctx))
    .orderBy((eb) => eb.fn('lower', ['name']))
    .orderBy('id')
    .execute();
  const defaultId = await defaultTemplateId(ctx);
  return rows.map((r) => toTemplate(r, defaultId));
}

/** A name with something in it, trimmed. */
function nameOf(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw badRequest('name', 'must not be blank');
  return trimmed;
}

export async function createTemplate(
  ctx: TenantCtx,
  input: Static<typeof TemplateCreate>,
): Promise<TemplateJson> {
  const companyId = companyOf(ctx);
  const name = nameOf(input.name);
  const logo = input.logo ? logoBytes(input.logo) : undefined;
  return createIdempotent(ctx, {
    id: idFor(input.clientId),
    insert: async (id) => {
      const r = await ctx.db
        .insertInto('invoice_templates')
        .values({
          tenant_id: ctx.tenantId,
          id,
          company_id: companyId,
          name,
          primary_colour: (input.primaryColour ?? DEFAULT_PRIMARY).toLowerCase(),
          accent_colour: (input.accentColour ?? DEFAULT_ACCENT).toLowerCase(),
          footer: input.footer?.trim() || null,
          logo: logo?.bytes ?? null,
          logo_content_type: logo?.contentType ?? null,
        })
        .onConflict((oc) => oc.columns(['tenant_id', 'id']).doNothing())
        .executeTakeFirst();
      const created = Number(r.numInsertedOrUpdatedRows) === 1;
      if (!created) {
        // The id is taken: answer it when it is this company's live template, else refuse.
        const existing = await findTemplate(ctx.db, ctx.tenantId, companyId, id);
        if (!existing) throw conflict('clientId: already the id of another record', { field: 'clientId' });
      }
      return created;
    },
    load: (id) => getTemplate(ctx, id),
  });
}

export async function updateTemplate(
  ctx: TenantCtx,
  id: string,
  input: Static<typeof TemplatePatch>,
): Promise<TemplateJson> {
  const companyId = companyOf(ctx);
  if (!(await findTemplate(ctx.db, ctx.tenantId, companyId, id))) throw notFound('Invoice template');
  // updated_at: the database moves it (touch_updated_at).
  const set: Record<string, unknown> = {};
  if (input.name !== undefined) set.name = nameOf(input.name);
  if (input.primaryColour !== undefined) set.primary_colour = input.primaryColour.toLowerCase();
  if (input.accentColour !== undefined) set.accent_colour = input.accentColour.toLowerCase();
  if (input.footer !== undefined) set.footer = input.footer?.trim() || null;
  if (input.logo === null) Object.assign(set, { logo: null, logo_content_type: null });
  else if (input.logo !== undefined) {
    const logo = logoBytes(input.logo);
    Object.assign(set, { logo: logo.bytes, logo_content_type: logo.contentType });
  }
  if (Object.keys(set).length) {
    await ctx.db
      .updateTable('invoice_templates')
      .set(set)
      .where('tenant_id', '=', ctx.tenantId)
      .where('id', '=', id)
      .execute();
  }
  return getTemplate(ctx, id);
}

/** Marks it deleted; when it was the default, the settings name no default from then on. */
export async function deleteTemplate(ctx: TenantCtx, id: string): Promise<void> {
  const companyId = companyOf(ctx);
  if (!(await findTemplate(ctx.db, ctx.tenantId, companyId, id))) throw notFound('Invoice template');
  const now = ctx.deps.now();
  await ctx.db
    .updateTable('invoice_templates')
    .set({ deleted_at: now })
    .where('tenant_id', '=', ctx.tenantId)
    .where('id', '=', id)
    .execute();
  await ctx.db
    .updateTable('invoice_settings')
    .set({ default_template_id: null })
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyId)
    .where('default_template_id', '=', id)
    .execute();
}

/** The logo as its own image type (inline), or 404 when the template has none. */
export async function templateLogo(ctx: TenantCtx, id: string): Promise<FileResponse> {
  const row = await ctx.db
    .selectFrom('invoice_templates')
    .select(['logo', 'logo_content_type'])
    .where('tenant_id', '=', ctx.tenantId)
    .where('company_id', '=', companyOf(ctx))
    .where('id', '=', id)
    .where('deleted_at', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('Invoice template');
  if (!row.logo || !row.logo_content_type) throw notFound('Logo');
  const bytes = Buffer.from(row.logo.buffer, row.logo.byteOffset, row.logo.byteLength);
  const extension = row.logo_content_type === 'image/png' ? 'png' : 'jpg';
  return new FileResponse(row.logo_content_type, `logo.${extension}`, async () => bytes, 'inline');
}
