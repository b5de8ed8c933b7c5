// Opens the database: embedded PGlite (persisted in DATA_DIR) when DATABASE_URL is absent,
// a node-postgres pool when it is set. Both speak the same SQL through Kysely.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { type CompiledQuery, Kysely, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import { PGliteDialect } from './pglite-dialect.ts';
import type { DB } from './schema.ts';
import { COMMIT_WITH, TENANT_READ_MODE, type TenantReadMode } from './tenant.ts';

export interface Database {
  kind: 'pglite' | 'pg';
  db: Kysely<DB>;
  /** Runs a script of several statements (migrations); no parameters. */
  execScript(sql: string): Promise<void>;
  close(): Promise<void>;
  /** The embedded instance, for snapshots in tests. */
  pglite?: PGlite;
  /** PostgreSQL: the connection string (the job worker opens its own small pool with it). */
  url?: string;
}

// Dates stay 'YYYY-MM-DD' strings (no time-zone shift); NUMERIC stays a string so money
// goes straight into decimal.js; bigint counts become numbers.
const DATE_OID = 1082;
const NUMERIC_OID = 1700;
const INT8_OID = 20;
const identity = (v: string) => v;
const toNumber = (v: string) => Number(v);

export interface ConnectOptions {
  databaseUrl?: string | undefined;
  dataDir?: string;
  /** A PGlite data-directory tarball to start from (test snapshots). */
  loadDataDir?: Blob;
  poolSize?: number;
}

export async function connect(options: ConnectOptions): Promise<Database> {
  if (options.databaseUrl) return connectPg(options.databaseUrl, options.poolSize ?? 10);
  return connectPglite(options);
}

/** The parts of pg's Query that its types leave out and the batches below use. */
interface PgQueryInternals {
  callback?: (err: Error | null, res: unknown) => void;
  requiresPreparation(): boolean;
  prepare(connection: unknown): void;
}
const PgQuery = pg.Query as unknown as new (config: { text: string; values: unknown[] }) => PgQueryInternals;
const prepareValue = (pg as unknown as { utils: { prepareValue(v: unknown): unknown } }).utils.prepareValue;

/** A statement sent ahead of a batch's query. */
interface Ahead {
  text: string;
  values: readonly unknown[];
}

/**
 * A query sent behind other statements in one extended-protocol batch with one Sync: Parse,
 * Bind, Describe, Execute for each, one round trip; the answer is a result per statement. If
 * one fails, PostgreSQL skips the rest up to the Sync, and the query fails with its error.
 * All statements are unnamed: each Bind follows its own Parse.
 */
class BatchQuery extends PgQuery {
  readonly ahead: Ahead[];

  constructor(ahead: Ahead[], text: string, values: readonly unknown[] | undefined) {
    super({ text, values: [...(values ?? [])] });
    this.ahead = ahead;
  }

  override requiresPreparation(): boolean {
    return true;
  }

  // biome-ignore lint/suspicious/noExplicitAny: pg's Connection is not in its types
  override prepare(connection: any): void {
    for (const { text, values } of this.ahead) {
      connection.parse({ text });
      connection.bind({ values, valueMapper: prepareValue });
      connection.describe({ type: 'P', name: '' });
      connection.execute({ portal: '' });
    }
    super.prepare(connection);
  }
}

/**
 * A read route's query behind the tenant settings (and, the first time, the request's
 * opening): the batch is one implicit transaction, so the settings (set_config(..., true))
 * end with it.
 */
class TenantReadQuery extends BatchQuery {
  readonly settings: string;
  readonly opening: string | undefined;

  constructor(settings: string, opening: string | undefined, text: string, values: unknown[] | undefined) {
    super(
      (opening === undefined ? [settings] : [settings, opening]).map((t) => ({ text: t, values: [] })),
      text,
      values,
    );
    this.settings = settings;
    this.opening = opening;
  }
}

/** COMMIT behind the statements a write hands to send with it (COMMIT_WITH in tenant.ts). */
class CommitQuery extends BatchQuery {
  constructor(ahead: CompiledQuery[]) {
    super(
      ahead.map((q) => ({ text: q.sql, values: q.parameters })),
      'commit',
      [],
    );
  }
}

/**
 * A script of several statements answers one result per statement; Kysely reads only
 * one. This client hands it the last, as the PGlite dialect does, so a transaction can
 * open with BEGIN, its settings and a first query in one round trip.
 *
 * It also carries tenant-read mode (withTenantReading in tenant.ts), handed to it as the
 * parameter of a TENANT_READ_MODE query, which is not sent: every query after it goes as a
 * TenantReadQuery, until the pool takes the client back (connectPg clears the mode).
 */
class LastResultClient extends pg.Client {
  tenantRead: TenantReadMode | undefined;

  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this passes them all through
  override query(...args: any[]): any {
    const [text, values] = args;
    if (text === TENANT_READ_MODE) {
      this.tenantRead = values[0] as TenantReadMode;
      return Promise.resolve({ command: 'SELECT', rowCount: 0, rows: [] });
    }
    if (text === COMMIT_WITH) return this.batch(new CommitQuery(values[0] as CompiledQuery[]));
    if (this.tenantRead && typeof text === 'string' && typeof args[2] !== 'function') {
      return this.readAsTenant(this.tenantRead, text, values);
    }
    // biome-ignore lint/suspicious/noExplicitAny: as above
    const r = (super.query as any)(...args);
    if (r && typeof r.then === 'function') {
      return r.then((x: unknown) => (Array.isArray(x) ? x.at(-1) : x));
    }
    return r;
  }

  /** Sends a batch; answers the last statement's result. */
  private batch(query: BatchQuery): Promise<pg.QueryResult> {
    return new Promise((resolve, reject) => {
      query.callback = (err, res) => {
        if (err) return reject(err);
        resolve(Array.isArray(res) ? res.at(-1) : (res as pg.QueryResult));
      };
      // biome-ignore lint/suspicious/noExplicitAny: a submittable query, which pg's types do not name
      (super.query as any)(query);
    });
  }

  private readAsTenant(mode: TenantReadMode, text: string, values: unknown[] | undefined) {
    const opening = mode.opening;
    mode.opening = undefined;
    const query = new TenantReadQuery(mode.settings, opening, text, values);
    return new Promise((resolve, reject) => {
      query.callback = (err, res) => {
        if (err) return reject(err);
        const results = res as pg.QueryResult[];
        const answer = results.at(-1);
        if (opening === undefined) return resolve(answer);
        // The checks on the opening's rows come before this query's rows reach the caller.
        mode.onOpening(results[1]!.rows).then(() => resolve(answer), reject);
      };
      // biome-ignore lint/suspicious/noExplicitAny: a submittable query, which pg's types do not name
      (super.query as any)(query);
    });
  }
}

function connectPg(url: string, max: number): Database {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // A database that does not answer fails the request (503) instead of holding it forever.
    connectionTimeoutMillis: 5_000,
    Client: LastResultClient,
    types: {
      getTypeParser(oid: number, format?: 'text' | 'binary') {
        if (oid === DATE_OID || oid === NUMERIC_OID) return identity;
        if (oid === INT8_OID) return toNumber;
        return pg.types.getTypeParser(oid, format);
      },
    } as pg.CustomTypesConfig,
  });
  // A client losing its server must not crash the process: idle ones are the pool's (and it
  // drops them), a checked-out one reports it here and its next query fails, which answers 503
  // (error-handler.ts); released, it is discarded, as it is no longer queryable.
  pool.on('error', () => {});
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  // Tenant-read mode ends with the checkout, before the client can serve anyone else.
  pool.on('release', (_err, client) => {
    (client as unknown as LastResultClient).tenantRead = undefined;
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return {
    kind: 'pg',
    url,
    db,
    async execScript(sql) {
      await pool.query(sql);
    },
    async close() {
      await db.destroy();
    },
  };
}

async function connectPglite(options: ConnectOptions): Promise<Database> {
  let dataDir: string | undefined;
  if (options.dataDir) {
    mkdirSync(options.dataDir, { recursive: true });
    dataDir = join(options.dataDir, 'pglite');
  }
  const pglite = await PGlite.create({
    ...(dataDir ? { dataDir } : {}),
    ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}),
    parsers: { [DATE_OID]: identity, [NUMERIC_OID]: identity, [INT8_OID]: toNumber },
  });
  const db = new Kysely<DB>({ dialect: new PGliteDialect(pglite) });
  return {
    kind: 'pglite',
    db,
    pglite,
    async execScript(sql) {
      await pglite.exec(sql);
    },
    async close() {
      // Embedded PostgreSQL arms a 10-second "flush idle statistics" timer after a
      // transaction that leaves statistics pending, and PGlite's close() does not cancel
      // it: the timer re-arms and the process never exits. Flushing now disarms it.
      await sql`select pg_stat_force_next_flush()`.execute(db).catch(() => {});
      await db.destroy();
    },
  };
}
