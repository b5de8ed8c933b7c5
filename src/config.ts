// Every environment variable the service reads, parsed and validated once at start.
// A bad value stops start-up with a message that names the variable.
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import {
  loadOrCreateSecretKeys,
  parseSecretKeys,
  type SecretKeys,
  SecretsKeyError,
} from './platform/secrets/keys.ts';

export const PLANS = ['free', 'starter', 'business', 'professional', 'manufacturing', 'enterprise'] as const;
export type Plan = (typeof PLANS)[number];

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  publicBaseUrl: string;
  jwtSecret: Uint8Array;
  /**
   * The keys that seal secrets at rest (SECRETS_KEY), read on first use (a generated key is
   * only written when something is sealed). undefined only on a server install (DATABASE_URL)
   * that set none: the features that keep secrets then answer 503 naming it.
   */
  secretKeys: () => SecretKeys | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  whatsappConfigured: boolean;
  defaultPlan: Plan;
  logLevel: string;
  webhookAllowPrivateTargets: boolean;
  redisUrl: string | undefined;
  /** This process runs queued jobs (JOBS_WORKER, default on); off, it only enqueues them. */
  jobsWorker: boolean;
  /** Serving processes `node src/main.ts` starts (API_PROCESSES, default 1; `auto`: one per core). */
  processes: number;
  /** Browser origins allowed to call the API (CORS_ORIGINS, comma-separated; default none). */
  corsOrigins: string[];
  /**
   * Rate-limit numbers of this instance. No environment variable sets them: production runs
   * the defaults of src/platform/http/rate-limit.ts (60 a minute per address); tests lower them.
   */
  rateLimits?: Partial<RateLimitSettings>;
  /**
   * The bank feed's address (BANK_FEED_BASE_URL): Investec's API host by default; tests point
   * it at a local fake bank speaking the same protocol.
   */
  bankFeedBaseUrl: string;
  /**
   * Payment gateway A's address (GATEWAY_A_BASE_URL; PayFast-style): its payment page is
   * `/eng/process`, its validate endpoint `/eng/query/validate`. Tests point it at a local fake.
   */
  gatewayABaseUrl: string;
  /**
   * Payment gateway B's address (GATEWAY_B_BASE_URL; Yoco-style): checkouts are created at
   * `/api/checkouts`. Tests point it at a local fake.
   */
  gatewayBBaseUrl: string;
}

export interface RateLimitSettings {
  /** Requests a window per calling address on /auth/* and on /external/leads (each its own budget). */
  addressPerWindow: number;
  /** The fixed window, in milliseconds: a minute. */
  windowMs: number;
  /** Prefix of every counter kept in Redis, so that one Redis can serve other uses too. */
  redisPrefix: string;
}

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function parsePort(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 3000;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > 65535) {
    throw new ConfigError(`PORT must be a whole number from 0 to 65535, got "${raw}"`);
  }
  return n;
}

function parseUrl(name: string, raw: string | undefined, protocols: string[]): string | undefined {
  if (raw === undefined || raw === '') return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} is not a valid URL`);
  }
  if (!protocols.includes(url.protocol)) {
    throw new ConfigError(`${name} must start with ${protocols.map((p) => `${p}//`).join(' or ')}`);
  }
  return raw;
}

function parseFlag(name: string, raw: string | undefined): boolean {
  if (raw === undefined || raw === '' || raw === '0' || raw === 'false') return false;
  if (raw === '1' || raw === 'true') return true;
  throw new ConfigError(`${name} must be 1 or 0, got "${raw}"`);
}

/**
 * The JWT secret: from JWT_SECRET when set (at least 32 characters), otherwise generated
 * once and kept in DATA_DIR so that tokens survive a restart.
 */
function loadJwtSecret(raw: string | undefined, dataDir: string): Uint8Array {
  if (raw !== undefined && raw !== '') {
    if (raw.length < 32) throw new ConfigError('JWT_SECRET must be at least 32 characters long');
    return new TextEncoder().encode(raw);
  }
  const file = join(dataDir, 'jwt-secret');
  try {
    return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
  } catch {
    mkdirSync(dataDir, { recursive: true });
    const secret = randomBytes(48).toString('base64url');
    // 'wx' fails if another process won the race; then read theirs.
    try {
      writeFileSync(file, secret, { mode: 0o600, flag: 'wx' });
      return new TextEncoder().encode(secret);
    } catch {
      return new TextEncoder().encode(readFileSync(file, 'utf8').trim());
    }
  }
}

/**
 * SECRETS_KEY: set, it is parsed (one key, or `id:key,...` with the current one first). Unset
 * on the embedded database, a key is generated once into DATA_DIR beside the data it protects
 * (as JWT_SECRET is), so a fresh machine works. Unset with DATABASE_URL it stays absent:
 * several processes or machines share that database, and a key each made for itself would
 * seal values the others cannot open; the features that keep secrets answer 503 naming it.
 */
function loadSecretKeys(
  raw: string | undefined,
  dataDir: string,
  databaseUrl: string | undefined,
): () => SecretKeys | undefined {
  if (raw !== undefined && raw.trim() !== '') {
    // A bad key given stops start-up, naming the variable.
    let keys: SecretKeys;
    try {
      keys = parseSecretKeys(raw);
    } catch (err) {
      if (err instanceof SecretsKeyError) throw new ConfigError(err.message);
      throw err;
    }
    return () => keys;
  }
  if (databaseUrl) return () => undefined;
  let generated: SecretKeys | undefined;
  return () => {
    generated ??= loadOrCreateSecretKeys(dataDir);
    return generated;
  };
}

/**
 * API_PROCESSES: how many processes serve (Node.js runs JavaScript on one core a process).
 * Above 1 needs DATABASE_URL: the embedded database belongs to one process.
 */
function parseProcesses(raw: string | undefined, databaseUrl: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = raw === 'auto' ? availableParallelism() : Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 256) {
    throw new ConfigError(`API_PROCESSES must be a whole number from 1 to 256, or auto, got "${raw}"`);
  }
  if (n > 1 && !databaseUrl) {
    throw new ConfigError(
      'API_PROCESSES above 1 needs DATABASE_URL: the embedded database serves one process only',
    );
  }
  return n;
}

/**
 * CORS_ORIGINS: comma-separated origins ("https://app.example.co.za,http://localhost:5173"),
 * each an http(s) scheme, host and optional port, as a browser sends it in `Origin`. A path,
 * query, credentials or `*` is refused: an origin list that is not what it looks like would
 * open the API to pages nobody meant to allow.
 */
function parseCorsOrigins(raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const origins = raw.split(',').map((o) => o.trim());
  return [
    ...new Set(
      origins.map((given) => {
        let url: URL | undefined;
        try {
          url = new URL(given);
        } catch {}
        const bare =
          url &&
          ['http:', 'https:'].includes(url.protocol) &&
          !url.username &&
          !url.password &&
          url.pathname === '/' &&
          !url.search &&
          !url.hash &&
          !given.endsWith('?') &&
          !given.endsWith('#');
        if (!bare) {
          throw new ConfigError(
            `CORS_ORIGINS must list http:// or https:// origins (scheme, host, optional port) separated by commas, got "${given}"`,
          );
        }
        return url!.origin;
      }),
    ),
  ];
}

export function loadConfig(env: Env = process.env): Config {
  const port = parsePort(env.PORT);
  const dataDir = resolve(env.DATA_DIR || './data');
  const databaseUrl = parseUrl('DATABASE_URL', env.DATABASE_URL, ['postgres:', 'postgresql:']);
  const publicBaseUrl =
    parseUrl('PUBLIC_BASE_URL', env.PUBLIC_BASE_URL, ['http:', 'https:']) ?? `http://localhost:${port}`;
  const smtpUrl = parseUrl('SMTP_URL', env.SMTP_URL, ['smtp:', 'smtps:']);
  const plan = (env.DEFAULT_PLAN || 'enterprise') as Plan;
  if (!PLANS.includes(plan)) throw new ConfigError(`DEFAULT_PLAN must be one of ${PLANS.join(', ')}`);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'].includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent`);
  }
  return {
    port,
    host: env.HOST || '0.0.0.0',
    dataDir,
    databaseUrl,
    publicBaseUrl: publicBaseUrl.replace(/\/$/, ''),
    jwtSecret: loadJwtSecret(env.JWT_SECRET, dataDir),
    secretKeys: loadSecretKeys(env.SECRETS_KEY, dataDir, databaseUrl),
    smtpUrl,
    mailFrom: env.MAIL_FROM || 'Business Platform <no-reply@localhost>',
    whatsappConfigured: Boolean(env.WHATSAPP_TOKEN),
    defaultPlan: plan,
    logLevel,
    webhookAllowPrivateTargets: parseFlag('WEBHOOK_ALLOW_PRIVATE_TARGETS', env.WEBHOOK_ALLOW_PRIVATE_TARGETS),
    redisUrl: parseUrl('REDIS_URL', env.REDIS_URL, ['redis:', 'rediss:']),
    jobsWorker:
      env.JOBS_WORKER === undefined || env.JOBS_WORKER === '' || parseFlag('JOBS_WORKER', env.JOBS_WORKER),
    processes: parseProcesses(env.API_PROCESSES, databaseUrl),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    bankFeedBaseUrl: (
      parseUrl('BANK_FEED_BASE_URL', env.BANK_FEED_BASE_URL, ['http:', 'https:']) ??
      'https://openapi.investec.com'
    ).replace(/\/$/, ''),
    gatewayABaseUrl: (
      parseUrl('GATEWAY_A_BASE_URL', env.GATEWAY_A_BASE_URL, ['http:', 'https:']) ??
      'https://www.payfast.co.za'
    ).replace(/\/$/, ''),
    gatewayBBaseUrl: (
      parseUrl('GATEWAY_B_BASE_URL', env.GATEWAY_B_BASE_URL, ['http:', 'https:']) ??
      'https://payments.yoco.com'
    ).replace(/\/$/, ''),
  };
}
