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

/**
 * One PGlite instance serves the whole process (it is heavy to start), and it has a single
 * connection. Every service that uses it gets its own Kysely over this shared handle: the
 * mutex gives one Kysely "connection" (a query or a whole transaction) the database at a time,
 * and the search_path is switched to the service's schema when the holder changes.
 */
export class SharedPglite {
  private tail: Promise<void> = Promise.resolve();
  private schema: string | undefined;
  private uses = 0;
  private maintenance: NodeJS.Timeout | undefined;
  constructor(readonly pg: PGlite) {}

  /**
   * PGlite has no autovacuum: without fresh statistics, plans made while tables were small
   * (the balance triggers' among them) keep scanning as the ledger grows. So every
   * `intervalMs`, if the database was used since, refresh the statistics (which also
   * invalidates those cached plans).
   */
  startMaintenance(intervalMs = 60_000) {
    if (this.maintenance) return;
    let seen = this.uses;
    this.maintenance = setInterval(() => {
      if (this.uses === seen || this.pg.closed) return;
      seen = this.uses;
      void this.analyze().catch(() => {});
    }, intervalMs);
    this.maintenance.unref();
  }

  stopMaintenance() {
    clearInterval(this.maintenance);
    this.maintenance = undefined;
  }

  async analyze() {
    const release = await this.acquire(this.schema ?? 'public');
    try {
      await this.pg.exec('ANALYZE');
    } finally {
      release();
    }
  }

  async acquire(schema: string): Promise<() => void> {
    this.uses++;
    let release!: () => void;
    const held = new Promise<void>((r) => {
      release = r;
    });
    const previous = this.tail;
    this.tail = previous.then(() => held);
    await previous;
    if (this.schema !== schema) {
      await this.pg.exec(`SET search_path TO "${schema}", public`);
      this.schema = schema;
    }
    return release;
  }
}

class PgliteConnection implements DatabaseConnection {
  constructor(private readonly pg: PGlite) {}
  async run(statement: string) {
    await this.pg.exec(statement);
  }
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    // Without parameters use the simple protocol, which (like pg's) runs several statements.
    const res =
      q.parameters.length === 0
        ? ((await this.pg.exec(q.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.pg.query<R>(q.sql, q.parameters as unknown[]);
    const kind = q.query.kind;
    const isWrite = kind === 'InsertQueryNode' || kind === 'UpdateQueryNode' || kind === 'DeleteQueryNode';
    return {
      rows: res.rows as R[],
      ...(isWrite || res.affectedRows ? { numAffectedRows: BigInt(res.affectedRows ?? 0) } : {}),
    };
  }
  // biome-ignore lint/correctness/useYield: streaming is not supported by PGlite; fail loudly.
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite dialect does not stream');
  }
}

class PgliteDriver implements Driver {
  private readonly releases = new WeakMap<DatabaseConnection, () => void>();
  constructor(
    private readonly shared: SharedPglite,
    private readonly schema: string,
  ) {}
  async init() {}
  async acquireConnection(): Promise<DatabaseConnection> {
    const release = await this.shared.acquire(this.schema);
    const conn = new PgliteConnection(this.shared.pg);
    this.releases.set(conn, release);
    return conn;
  }
  async beginTransaction(conn: DatabaseConnection) {
    await (conn as PgliteConnection).executeQuery({
      sql: 'BEGIN',
      parameters: [],
      query: { kind: 'RawNode' },
    } as never);
  }
  async commitTransaction(conn: DatabaseConnection) {
    await (conn as PgliteConnection).executeQuery({
      sql: 'COMMIT',
      parameters: [],
      query: { kind: 'RawNode' },
    } as never);
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    await (conn as PgliteConnection).executeQuery({
      sql: 'ROLLBACK',
      parameters: [],
      query: { kind: 'RawNode' },
    } as never);
  }
  async releaseConnection(conn: DatabaseConnection) {
    this.releases.get(conn)?.();
    this.releases.delete(conn);
  }
  async destroy() {}
}

export class PgliteDialect implements Dialect {
  constructor(
    private readonly shared: SharedPglite,
    private readonly schema: string,
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver() {
    return new PgliteDriver(this.shared, this.schema);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's introspector takes any database type.
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}
