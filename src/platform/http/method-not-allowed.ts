// A path the service knows, asked with a method it does not take: 405 with `Allow` naming the
// methods it takes (RFC 9110 §15.5.5), where the router alone would answer 404 as for a path it
// does not know (issue 35). The routes are learnt as Fastify registers them (an onRoute hook,
// installed before any route), so the catalogue's, the playground's and a test's extra routes
// all count. A preflight (OPTIONS) keeps its 404: CORS answers the ones it accepts (cors.ts).
import type { FastifyInstance } from 'fastify';

interface KnownRoute {
  pattern: RegExp;
  methods: string[];
}

/** Fastify's /api/things/:id (or /files/*) as a regular expression over a request's path. */
function patternOf(url: string): RegExp {
  const segments = url.split('/').map((s) => {
    if (s === '*') return '.*';
    if (s.startsWith(':')) return '[^/]+';
    return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  });
  return new RegExp(`^${segments.join('/')}$`);
}

/**
 * Learns every route registered from now on; the function returned lists the methods a path
 * takes (empty: a path the service does not know).
 */
export function learnRoutes(app: FastifyInstance): (path: string) => string[] {
  const known: KnownRoute[] = [];
  app.addHook('onRoute', (route) => {
    // The catch-all preflight route (`OPTIONS *`) would make every path known.
    if (route.url === '*' || route.url === '/*') return;
    known.push({ pattern: patternOf(route.url), methods: [route.method].flat().map(String) });
  });
  return (path) => {
    const methods = new Set<string>();
    for (const route of known) if (route.pattern.test(path)) for (const m of route.methods) methods.add(m);
    return [...methods].sort();
  };
}
