// Kysely dialect for embedded PGlite. PGlite is one connection, so a lease is exclusive:
// a transaction holds it from BEGIN to COMMIT and other queries wait their turn.
import type { PGlite } from '@electric-sql/pglite';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
} from 'kysely';
import { COMMIT_WITH } from './tenant.ts';

class PGliteConnection implements DatabaseConnection {
  readonly #pg: PGlite;
  constructor(pg: PGlite) {
    this.#pg = pg;
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (query.sql === 'commit') return this.#commit() as Promise<QueryResult<R>>;
    if (query.sql === COMMIT_WITH) {
      // In-process: no round trip to spare; the statements, then COMMIT.
      for (const statement of query.parameters[0] as CompiledQuery[]) await this.executeQuery(statement);
      return this.#commit() as Promise<QueryResult<R>>;
    }
    // Without parameters the simple protocol runs, which admits scripts of several
    // statements (migrations), as node-postgres does.
    const result =
      query.parameters.length === 0
        ? ((await this.#pg.exec(query.sql)).at(-1) ?? { rows: [], fields: [] })
        : await this.#pg.query<R>(query.sql, query.parameters as unknown[]);
    const affected = result.affectedRows;
    return {
      rows: result.rows as R[],
      ...(affected !== undefined && query.query.kind !== 'SelectQueryNode'
        ? { numAffectedRows: BigInt(affected) }
        : {}),
    };
  }

  /**
   * COMMIT of a transaction that already failed silently rolls back; PostgreSQL says so in
   * the command tag, which PGlite does not pass on. Ask first, and answer the tag as pg does.
   */
  async #commit(): Promise<QueryResult<{ command: string }>> {
    try {
      await this.#pg.exec('select 1');
    } catch {
      await this.#pg.exec('rollback');
      return { rows: [{ command: 'ROLLBACK' }] };
    }
    await this.#pg.exec('commit');
    return { rows: [{ command: 'COMMIT' }] };
  }

  // biome-ignore lint/correctness/useYield: streaming is not offered on PGlite
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('Streaming queries are not supported on PGlite');
  }
}

class PGliteDriver implements Driver {
  readonly #pg: PGlite;
  readonly #connection: PGliteConnection;
  #queue: Promise<void> = Promise.resolve();
  #release: (() => void) | undefined;

  constructor(pg: PGlite) {
    this.#pg = pg;
    this.#connection = new PGliteConnection(pg);
  }

  async init(): Promise<void> {
    await this.#pg.waitReady;
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.#queue;
    let release!: () => void;
    this.#queue = new Promise<void>((r) => {
      release = r;
    });
    await previous;
    this.#release = release;
    return this.#connection;
  }

  async beginTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'begin', parameters: [], query: { kind: 'RawNode' } } as never);
  }

  async commitTransaction(conn: DatabaseConnection): Promise<void> {
    const r = await conn.executeQuery<{ command: string }>({
      sql: 'commit',
      parameters: [],
      query: { kind: 'RawNode' },
    } as never);
    if (r.rows[0]?.command === 'ROLLBACK') throw new Error('Unable to commit: the transaction had failed');
  }

  async rollbackTransaction(conn: DatabaseConnection): Promise<void> {
    await conn.executeQuery({ sql: 'rollback', parameters: [], query: { kind: 'RawNode' } } as never);
  }

  async releaseConnection(): Promise<void> {
    const release = this.#release;
    this.#release = undefined;
    release?.();
  }

  async destroy(): Promise<void> {
    await this.#pg.close();
  }
}

export class PGliteDialect implements Dialect {
  readonly #pg: PGlite;
  constructor(pg: PGlite) {
    this.#pg = pg;
  }
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.#pg);
  }
  createIntrospector(db: Kysely<unknown>) {
    return new PostgresIntrospector(db);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
}
