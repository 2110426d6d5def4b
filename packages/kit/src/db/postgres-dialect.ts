import {
  CompiledQuery as Compiled,
  type CompiledQuery,
  type DatabaseConnection,
  PostgresDialect,
  type PostgresDialectConfig,
  PostgresDriver,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import pg from 'pg';

/** Marks a statement that may travel with its transaction's COMMIT (`withCommit`). */
const WITH_COMMIT = Symbol('with-commit');

type Deferrable = CompiledQuery & { [WITH_COMMIT]?: true };

/**
 * Marks a transaction's last statement as one that may be sent together with its COMMIT, in one
 * message and one round trip to a PostgreSQL server (issue 22.1: a command's idempotency record).
 * Its outcome is then known only when the commit answers: a failure (e.g. a unique violation) is
 * thrown by the commit and the transaction rolls back, so the statement must return nothing the
 * caller reads. PGlite's dialect does the same (one engine call for both).
 */
export function withCommit(query: CompiledQuery): CompiledQuery {
  return { ...query, [WITH_COMMIT]: true } as Deferrable;
}

/** Whether `query` was marked by `withCommit`. */
export const isWithCommit = (query: CompiledQuery) => (query as Deferrable)[WITH_COMMIT] === true;

/** A statement's parameters written into its text: the commit travels as one simple-protocol message. */
export function inline(query: CompiledQuery): string {
  return query.sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = query.parameters[Number(n) - 1];
    if (v === null || v === undefined) return 'NULL';
    if ((typeof v === 'number' && Number.isFinite(v)) || typeof v === 'bigint') return String(v);
    if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
    if (v instanceof Date) return pg.escapeLiteral(v.toISOString());
    if (typeof v === 'string') return pg.escapeLiteral(v);
    throw new Error(`withCommit: a parameter of type ${typeof v} cannot be inlined`);
  });
}

/** A pooled connection that holds back a `withCommit` statement until its transaction commits. */
class DeferringConnection implements DatabaseConnection {
  pending: Deferrable | undefined;
  inTransaction = false;
  constructor(readonly inner: DatabaseConnection) {}
  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if ((query as Deferrable)[WITH_COMMIT] && this.inTransaction) {
      this.pending = query;
      return Promise.resolve({ rows: [] });
    }
    return this.inner.executeQuery<R>(query);
  }
  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

class CommitSavingDriver extends PostgresDriver {
  override async acquireConnection(): Promise<DatabaseConnection> {
    return new DeferringConnection(await super.acquireConnection());
  }
  override async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const c = connection as DeferringConnection;
    await super.beginTransaction(c.inner, settings);
    c.inTransaction = true;
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as DeferringConnection;
    const last = c.pending;
    c.pending = undefined;
    c.inTransaction = false;
    // A statement that fails aborts the rest of the message, so the COMMIT does not run and the
    // driver's rollback follows.
    await c.inner.executeQuery(Compiled.raw(last ? `${inline(last)};\ncommit` : 'commit'));
  }
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const c = connection as DeferringConnection;
    c.pending = undefined;
    c.inTransaction = false;
    await c.inner.executeQuery(Compiled.raw('rollback'));
  }
  override async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const c = connection as DeferringConnection;
    c.pending = undefined;
    c.inTransaction = false;
    await super.releaseConnection(c.inner as Parameters<PostgresDriver['releaseConnection']>[0]);
  }
}

/** Kysely's PostgreSQL dialect whose transactions send a `withCommit` statement with their COMMIT. */
export class CommitSavingPostgresDialect extends PostgresDialect {
  readonly #config: PostgresDialectConfig;
  constructor(config: PostgresDialectConfig) {
    super(config);
    this.#config = config;
  }
  override createDriver() {
    return new CommitSavingDriver(this.#config);
  }
}
