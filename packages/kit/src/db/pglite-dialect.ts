import { type ParserOptions, type PGlite, protocol, types } from '@electric-sql/pglite';
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
import { inline, isWithCommit } from './postgres-dialect.ts';

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

type Message = { name: string };
type Field = { name: string; dataTypeID: number };
interface Result {
  rows: Record<string, unknown>[];
  affectedRows: number;
}

const { serialize } = protocol;
const WRITES = new Set(['INSERT', 'UPDATE', 'DELETE', 'COPY', 'MERGE']);

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * Rows per statement from protocol messages, as PGlite's `parseResults` makes them (the same
 * `parseType`, the same parsers) but without its per-call copy of the parsers: that copy spreads
 * an object of some 320 integer keys up to ~12,800 (every array type), which V8 copies slowly, and
 * it took ~0.3 ms of every statement, BEGIN and COMMIT included (issue 22: 13% of accounting's
 * create + post CPU).
 */
function results(messages: Message[], parsers: ParserOptions): Result[] {
  const out: Result[] = [];
  let fields: Field[] = [];
  let rows: Record<string, unknown>[] = [];
  let affectedRows = 0;
  for (const m of messages) {
    if (m.name === 'rowDescription') {
      fields = (m as unknown as { fields: Field[] }).fields;
    } else if (m.name === 'dataRow') {
      const values = (m as unknown as { fields: (string | null)[] }).fields;
      const row: Record<string, unknown> = {};
      for (let i = 0; i < fields.length; i++) {
        const f = fields[i] as Field;
        row[f.name] = types.parseType(values[i] as string, f.dataTypeID, parsers);
      }
      rows.push(row);
    } else if (m.name === 'commandComplete') {
      const words = (m as unknown as { text: string }).text.split(' ');
      if (WRITES.has(words[0] as string)) affectedRows += Number.parseInt(words[words.length - 1] as string, 10);
      out.push({ rows, affectedRows });
      rows = [];
      fields = [];
    }
  }
  if (out.length === 0) out.push({ rows: [], affectedRows: 0 });
  return out;
}

/** PGlite's error, carrying the statement like its own `query` and `exec` do. */
function withStatement(err: unknown, query: string, params: unknown[] | undefined) {
  if (err instanceof protocol.messages.DatabaseError) Object.assign(err, { query, params, queryOptions: undefined });
  return err;
}

/**
 * What PGlite's `query` and `exec` do, in fewer calls into the engine: a parameterised statement
 * is parse + describe (for the parameters' types, which choose PGlite's serializers, as its
 * `query` does), then bind + describe + execute + sync in one message; a statement without
 * parameters is one simple query + sync. Same messages, same serializers, same row parsing, same
 * exclusive lock and file-system sync as PGlite's own methods.
 */
class PgliteConnection implements DatabaseConnection {
  /**
   * A transaction's BEGIN waits for its first statement and goes into the engine with it; its
   * `withCommit` statement goes with the COMMIT (issue 22: two engine calls fewer per command).
   */
  beginPending = false;
  inTransaction = false;
  deferred: CompiledQuery | undefined;
  constructor(private readonly pg: PGlite) {}
  /** The BEGIN still to send, as a simple query ahead of the next statement's messages. */
  private takeBegin(): Uint8Array[] {
    if (!this.beginPending) return [];
    this.beginPending = false;
    return [serialize.query('BEGIN')];
  }
  async run(statement: string) {
    await this.exec(statement);
  }
  private stream(message: Uint8Array) {
    // PGlite's own methods refuse the same way once it is closing or closed.
    if (this.pg.closed) throw new Error('PGlite is closed');
    return this.pg.execProtocolStream(message, { syncToFs: false }) as Promise<Message[]>;
  }
  private exec(text: string): Promise<Result[]> {
    return this.pg.runExclusive(async () => {
      let messages: Message[];
      try {
        messages = await this.stream(concat([...this.takeBegin(), serialize.query(text), serialize.sync()]));
      } catch (err) {
        throw withStatement(err, text, undefined);
      }
      await this.pg.syncToFs();
      return results(messages, this.pg.parsers);
    });
  }
  private query(text: string, params: unknown[]): Promise<Result> {
    return this.pg.runExclusive(async () => {
      let messages: Message[];
      let synced = false;
      try {
        const described = await this.stream(
          concat([...this.takeBegin(), serialize.parse({ text }), serialize.describe({ type: 'S' })]),
        );
        const description = described.find((m) => m.name === 'parameterDescription') as
          | { dataTypeIDs: number[] }
          | undefined;
        const typeIds = description?.dataTypeIDs ?? [];
        const values = params.map((v, i) => {
          if (v === null || v === undefined) return null;
          const s = this.pg.serializers[typeIds[i] as number];
          return s ? s(v) : String(v);
        });
        const rest = concat([
          serialize.bind({ values }),
          serialize.describe({ type: 'P' }),
          serialize.execute({}),
          serialize.sync(),
        ]);
        // The engine reads the whole message, the sync included, even when a part of it fails.
        synced = true;
        messages = await this.stream(rest);
      } catch (err) {
        throw withStatement(err, text, params);
      } finally {
        // After a failed parse the engine skips everything up to a sync.
        if (!synced) await this.stream(serialize.sync());
      }
      await this.pg.syncToFs();
      return results(messages, this.pg.parsers)[0] as Result;
    });
  }
  async executeQuery<R>(q: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction && isWithCommit(q)) {
      this.deferred = q;
      return { rows: [] };
    }
    // Without parameters use the simple protocol, which (like pg's) runs several statements.
    const res =
      q.parameters.length === 0
        ? ((await this.exec(q.sql)).at(-1) ?? { rows: [], affectedRows: 0 })
        : await this.query(q.sql, q.parameters as unknown[]);
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
    const c = conn as PgliteConnection;
    c.beginPending = true;
    c.inTransaction = true;
  }
  async commitTransaction(conn: DatabaseConnection) {
    const c = conn as PgliteConnection;
    const last = c.deferred;
    c.deferred = undefined;
    c.inTransaction = false;
    // A transaction that ran nothing has nothing to commit.
    if (c.beginPending && !last) {
      c.beginPending = false;
      return;
    }
    // A statement that fails stops the rest of the message: the COMMIT does not run and Kysely's
    // rollback follows, as on PostgreSQL.
    await c.run(last ? `${inline(last)};\nCOMMIT` : 'COMMIT');
  }
  async rollbackTransaction(conn: DatabaseConnection) {
    const c = conn as PgliteConnection;
    c.deferred = undefined;
    c.inTransaction = false;
    if (c.beginPending) {
      c.beginPending = false;
      return;
    }
    await c.run('ROLLBACK');
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
