// Location on every 201: the address of what was created (RFC 9110 §10.2.2), found once per
// route at registration from the catalogue itself, never per request.
//
// In order of preference:
//   1. a GET of one record at the create's path plus one parameter: POST /api/contacts →
//      GET /api/contacts/{id}; POST /api/invoices/{id}/payments → …/payments/{paymentId};
//      the last parameter is the answered record's id;
//   2. a GET of one record answering the very schema the 201 answers, whose parameters but the
//      last are the create's: POST /api/invoices/{id}/convert (a new invoice) → GET
//      /api/invoices/{id} with the new invoice's id; or the GET on the create's own path, when
//      it answers that schema (POST /api/contacts/{id}/consent, POST /api/sandbox);
//   3. none of those: the parent record, the nearest shorter path ending in a parameter that
//      has a GET of one record (POST /api/invoices/{id}/allocations → /api/invoices/{id}).
// A route none of this finds answers 201 without Location.
import type { TSchema } from 'typebox';
import type { AnyRoute } from './catalogue.ts';
import { filledPath, isSingleRecordGet, paramsOf } from './record-routes.ts';

export interface LocationTemplate {
  /** The address, OpenAPI style: /api/invoices/{id}. */
  path: string;
  /** The parameter filled with the answered record's `id`; the others come from the request. */
  idParam?: string;
  /** The created thing has no address of its own: this is its parent record's. */
  parent: boolean;
}

function createdSchema(route: AnyRoute): TSchema | undefined {
  return route.response[201];
}

/** Where a route's 201 points, or undefined (no 201, or no GET to point at). */
export function locationTemplate(route: AnyRoute, routes: readonly AnyRoute[]): LocationTemplate | undefined {
  const created = createdSchema(route);
  if (!created) return undefined;
  const gets = routes.filter(isSingleRecordGet);
  const own = paramsOf(route.path);

  const item = gets.find(
    (g) => g.path.startsWith(`${route.path}/{`) && !g.path.slice(route.path.length + 1).includes('/'),
  );
  if (item) return { path: item.path, idParam: paramsOf(item.path).at(-1)!, parent: false };

  // What the create adds to or sets up is itself the record its path shows, with every
  // parameter from the request: a contact's consent, the tenant's one sandbox.
  const same = routes.find((g) => g.method === 'GET' && g.path === route.path && g.response[200] === created);
  if (same) return { path: same.path, parent: false };
  const sameSchema = gets.filter((g) => g.response[200] === created);
  // A record of the same kind elsewhere: its last parameter is the new record's id.
  const kin = sameSchema.find((g) =>
    paramsOf(g.path)
      .slice(0, -1)
      .every((p) => own.includes(p)),
  );
  if (kin) return { path: kin.path, idParam: paramsOf(kin.path).at(-1)!, parent: false };

  const segments = route.path.split('/');
  for (let n = segments.length - 1; n > 1; n--) {
    const candidate = segments.slice(0, n).join('/');
    if (!candidate.endsWith('}')) continue;
    if (gets.some((g) => g.path === candidate)) return { path: candidate, parent: true };
  }
  return undefined;
}

/** The Location value of one answer, or undefined when the record's id is not in it. */
export function locationOf(
  template: LocationTemplate,
  params: Record<string, unknown>,
  answered: unknown,
): string | undefined {
  if (!template.idParam) return filledPath(template.path, params);
  const id = (answered as { id?: unknown } | null)?.id;
  if (typeof id !== 'string' && typeof id !== 'number') return undefined;
  return filledPath(template.path, { ...params, [template.idParam]: id });
}
