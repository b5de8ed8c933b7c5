// Rate limits, with @fastify/rate-limit: a limit per calling address on /auth/* and on
// /external/leads, and the per-key meter the catalogue calls once a key's scopes admit the
// call. Counters live in this process's memory, or with REDIS_URL in Redis, where every
// process shares them. Both answer the spec's headers and, past the limit, a 429 problem.
import fastifyRateLimit, { normalizeIP } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { Redis } from 'ioredis';
import type { Config, RateLimitSettings } from '../../config.ts';
import { HttpError } from './problem.ts';

export const RATE_LIMIT_DEFAULTS: RateLimitSettings = {
  addressPerWindow: 60,
  windowMs: 60_000,
  redisPrefix: 'bp-rate-limit:',
};

export interface MeteredKey {
  id: string;
  limitPerMinute: number;
}

export type RateLimitStatus =
  | { store: 'memory'; shared: false }
  | { store: 'redis'; shared: true; status: 'up' | 'down' };

export interface RateLimiter {
  readonly settings: RateLimitSettings;
  /** Registers the plugin and the address limit on the app; call before any route. */
  install(app: FastifyInstance): Promise<void>;
  /** The per-key meter (AppDeps.meterKeyCall). */
  meterKeyCall(request: FastifyRequest, reply: FastifyReply, key: MeteredKey): Promise<void>;
  /** For /diagnostics: where the counters live and, for Redis, whether it answers. */
  status(): Promise<RateLimitStatus>;
}

/**
 * The routes under the address limit, and which budget each spends: every `/auth/...` route
 * (including ones added later, such as `/auth/token`) shares one, `/external/leads` has its own.
 */
export function addressBudget(path: string): 'auth' | 'leads' | undefined {
  // The OAuth sign-in page and token endpoint are sign-in too: the same budget.
  if (path.startsWith('/auth/') || path.startsWith('/oauth/')) return 'auth';
  if (path === '/external/leads' || path.startsWith('/external/leads/')) return 'leads';
  return undefined;
}

/** The spec's 429: an RFC 7807 problem with `limit` and `retryAfterSeconds`, and Retry-After. */
export function tooManyRequests(limit: number, retryAfterSeconds: number, whose: string): HttpError {
  return new HttpError(
    429,
    `Rate limit of ${limit} requests a minute ${whose} exceeded; retry in ${retryAfterSeconds} seconds`,
    { limit, retryAfterSeconds },
    { 'Retry-After': String(retryAfterSeconds) },
  );
}

function setRateHeaders(reply: FastifyReply, limit: number, remaining: number, resetSeconds: number) {
  reply.header('x-ratelimit-limit', limit);
  reply.header('x-ratelimit-remaining', remaining);
  reply.header('x-ratelimit-reset', resetSeconds);
}

/** Opens the Redis connection at start-up; an unreachable Redis stops start-up. */
async function connectRedis(url: string, app: FastifyInstance): Promise<Redis> {
  const redis = new Redis(url, {
    lazyConnect: true,
    // While Redis is away a command fails at once instead of queueing: requests go on
    // uncounted (skipOnError) rather than wait for it.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 1000,
    connectTimeout: 5000,
  });
  let down = false;
  // ioredis retries every couple of seconds while Redis is away: one line per outage.
  redis.on('error', (err: Error) => {
    if (down) return;
    down = true;
    app.log.warn(
      { err: err.message },
      'rate-limit store (Redis) unreachable: calls go uncounted until it is back',
    );
  });
  redis.on('ready', () => {
    if (!down) return;
    down = false;
    app.log.info('rate-limit store (Redis) reachable again');
  });
  try {
    await redis.connect();
  } catch (err) {
    redis.disconnect();
    throw new Error(
      `REDIS_URL: cannot connect to Redis (${err instanceof Error ? err.message : String(err)})`,
    );
  }
  return redis;
}

export function createRateLimiter(config: Config): RateLimiter {
  const settings: RateLimitSettings = { ...RATE_LIMIT_DEFAULTS, ...config.rateLimits };
  let redis: Redis | undefined;
  let meter:
    | ((request: FastifyRequest) => ReturnType<ReturnType<FastifyInstance['createRateLimit']>>)
    | undefined;
  // The key being metered, per request: the library's key generator and `max` read it.
  const metering = new WeakMap<FastifyRequest, MeteredKey>();

  return {
    settings,

    async install(app) {
      if (meter) throw new Error('This rate limiter is already installed on an app');
      if (config.redisUrl) {
        const client = await connectRedis(config.redisUrl, app);
        redis = client;
        app.addHook('onClose', async () => {
          await client.quit().catch(() => client.disconnect());
        });
      }
      await app.register(fastifyRateLimit, {
        // Only the routes named below are limited, never the whole app.
        global: false,
        ...(redis ? { redis, nameSpace: settings.redisPrefix } : {}),
        // A store failure lets the call through: a Redis outage must not stop the service.
        skipOnError: true,
      });

      const addressLimit = app.rateLimit({
        max: settings.addressPerWindow,
        timeWindow: settings.windowMs,
        cache: 10_000,
        keyGenerator: (req) =>
          `address:${addressBudget(req.routeOptions.url ?? '')}:${normalizeIP(req.ip, 64)}`,
        errorResponseBuilder: (_req, ctx) =>
          tooManyRequests(ctx.max, Math.ceil(ctx.ttl / 1000), 'from this address'),
      }) as onRequestAsyncHookHandler;
      // By path, so that a route added to /auth/ or /external/leads later is covered the day
      // it lands; first in line, so that even a call refused as unauthenticated is counted.
      app.addHook('onRoute', (route) => {
        if (!addressBudget(route.url)) return;
        const existing = route.onRequest
          ? Array.isArray(route.onRequest)
            ? route.onRequest
            : [route.onRequest]
          : [];
        route.onRequest = [addressLimit, ...existing.filter((h) => h !== addressLimit)];
      });

      meter = app.createRateLimit({
        timeWindow: settings.windowMs,
        keyGenerator: (req) => `key:${metering.get(req)?.id}`,
        max: (req) => metering.get(req)?.limitPerMinute ?? 0,
      });
    },

    async meterKeyCall(request, reply, key) {
      if (!meter) throw new Error('The rate limiter is not installed on an app');
      metering.set(request, key);
      let result: Awaited<ReturnType<typeof meter>>;
      try {
        result = await meter(request);
      } finally {
        metering.delete(request);
      }
      if (result.isAllowed) return;
      setRateHeaders(reply, result.max, result.remaining, result.ttlInSeconds);
      if (result.isExceeded) throw tooManyRequests(result.max, result.ttlInSeconds, 'for this API key');
    },

    async status() {
      if (!redis) return { store: 'memory', shared: false };
      try {
        await redis.ping();
        return { store: 'redis', shared: true, status: 'up' };
      } catch {
        return { store: 'redis', shared: true, status: 'down' };
      }
    },
  };
}
