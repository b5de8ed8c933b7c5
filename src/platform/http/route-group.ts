// The access presets of a group of routes: the module they belong to (the scope an API key
// needs is `<module>:<access>`, the plan must license it), the tag they are listed under, and
// whether they need X-Company-Id. Spread into defineRoute() — `...read`, `...write` — in place
// of the module, access and permission each route would otherwise spell out; a route that needs
// more (another permission, its errors) spreads a preset and overrides it.
import type { Action, Resource } from '../auth/permissions.ts';

export interface RouteGroupOptions<M extends Resource, C extends boolean> {
  module: M;
  /** The resource group the routes are listed under (one of the catalogue's tags). */
  tag?: string;
  /** The routes need X-Company-Id naming a company of the tenant. */
  companyScoped?: C;
}

/**
 * One preset. `companyScoped: true` stays a literal in the type, so that defineRoute hands
 * the group's handlers the company context (companyId a string).
 */
type Preset<M extends Resource, A extends 'read' | 'write', C extends boolean> = {
  module: M;
  access: A;
  permission: [Resource, Action];
  tag?: string;
} & (true extends C ? { companyScoped: true } : { companyScoped?: undefined });

export interface RouteGroup<M extends Resource, C extends boolean> {
  /** Reading: scope `<module>:read`, role permission `<module>:read`. */
  read: Preset<M, 'read', C>;
  /** Changing: scope `<module>:write`, role permission `<module>:write`. */
  write: Preset<M, 'write', C>;
  /** Approving is a write (scope `<module>:write`) that needs the role permission `<module>:approve`. */
  approve: Preset<M, 'write', C>;
}

export function routeGroup<M extends Resource, C extends boolean = false>({
  module,
  tag,
  companyScoped,
}: RouteGroupOptions<M, C>): RouteGroup<M, C> {
  // Only what is said: a route's `tag` or `companyScoped` left out means the same as before.
  const base = {
    module,
    ...(tag ? { tag } : {}),
    ...(companyScoped ? { companyScoped: true as const } : {}),
  };
  return {
    read: { ...base, access: 'read', permission: [module, 'read'] },
    write: { ...base, access: 'write', permission: [module, 'write'] },
    approve: { ...base, access: 'write', permission: [module, 'approve'] },
  } as RouteGroup<M, C>;
}
