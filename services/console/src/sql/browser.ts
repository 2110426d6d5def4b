import { AppError } from '@platform/kit';
import { isConnectionError, type ScopeDatabase, type Session, type StatementResult } from '../scope/databases.ts';

export interface BrowseOptions {
  /** The most rows an answer carries (CONSOLE_SQL_ROW_CAP). */
  rowCap: number;
  /** statement_timeout (CONSOLE_SQL_TIMEOUT_MS); PGlite ignores it. */
  timeoutMs: number;
}

export interface BrowseResult {
  columns: { name: string; type_oid: number }[];
  rows: unknown[][];
  /** More rows existed than the cap. */
  truncated: boolean;
}

const CURSOR = 'console_browse';

/** Values as JSON carries them: int8 as text, bytes as \x hex, times as ISO strings. */
function jsonValue(v: unknown): unknown {
  if (typeof v === 'bigint') return v.toString();
  if (v instanceof Date) return v.toISOString();
  if (v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  if (Array.isArray(v)) return v.map(jsonValue);
  return v;
}

const resultOf = (r: StatementResult, cap: number): BrowseResult => ({
  columns: r.fields.map((f) => ({ name: f.name, type_oid: f.dataTypeID })),
  rows: r.rows.slice(0, cap).map((row) => row.map(jsonValue)),
  truncated: r.rows.length > cap,
});

/** The PostgreSQL error codes the browser answers as the operator's mistake, with its code. */
function refusal(e: unknown): AppError {
  const code = (e as { code?: string }).code;
  const message = (e as Error).message ?? String(e);
  if (code === '42601' && /multiple commands/i.test(message))
    return new AppError(422, 'sql_multiple_statements', 'The SQL browser runs one statement per request');
  if (code === '25006' || code === '25001')
    return new AppError(422, 'sql_read_only', `The SQL browser only reads: ${message}`);
  if (code === '42501') return new AppError(422, 'sql_not_permitted', `The browser's role may not do that: ${message}`);
  if (code === '57014') return new AppError(422, 'sql_timeout', `The statement ran too long: ${message}`);
  return new AppError(422, 'sql_failed', message);
}

/** The statement with its leading comments and blanks taken off. */
const withoutLeadingComments = (text: string) => text.replace(/^(\s+|--[^\n]*(\n|$)|\/\*[\s\S]*?\*\/)*/, '');

/**
 * The embedded PGlite runs as its superuser, and a COPY ... PROGRAM there blocks the whole
 * process (its popen never returns): COPY is refused before it is sent. (PostgreSQL needs no such
 * check: its browser role may not run programs.)
 */
function refuseOnPglite(text: string) {
  if (/^copy\b/i.test(withoutLeadingComments(text)) || /\b(to|from)\s+program\b/i.test(text)) {
    throw new AppError(422, 'sql_not_permitted', 'COPY does not run in the embedded database’s SQL browser');
  }
}

/** A role that could write files or run programs would make "read-only" a promise it cannot keep. */
async function refuseMightyRole(s: Session) {
  const r = await s.run(
    `SELECT r.rolsuper
       OR pg_has_role(current_user, 'pg_execute_server_program', 'MEMBER')
       OR pg_has_role(current_user, 'pg_write_server_files', 'MEMBER')
     FROM pg_roles r WHERE r.rolname = current_user`,
  );
  const mighty = r.rows[0]?.[0];
  if (mighty === true || mighty === 't') {
    throw new AppError(
      501,
      'sql_browser_not_configured',
      "The SQL browser does not run as a superuser or a role that may run programs: set the scope's browser_url variable to a role holding only pg_read_all_data",
    );
  }
}

/**
 * The SQL browser (spec 3): the operator's text as ONE statement (the extended protocol refuses
 * several), inside BEGIN READ ONLY with default_transaction_read_only, after a first query (so a
 * SET TRANSACTION READ WRITE comes too late), with a statement_timeout, capped rows (a cursor
 * when the statement is a query), and always rolled back. On PostgreSQL it runs only as a role
 * that cannot write, run programs or write files (pg_read_all_data), which also refuses what a
 * read-only transaction lets a superuser do (COPY ... TO PROGRAM).
 */
export async function browse(db: ScopeDatabase, text: string, o: BrowseOptions): Promise<BrowseResult> {
  try {
    return await db.session(async (s) => {
      if (db.kind === 'postgres') await refuseMightyRole(s);
      else refuseOnPglite(text);
      await s.run('BEGIN READ ONLY');
      try {
        await s.run('SET LOCAL default_transaction_read_only = on');
        if (db.kind === 'postgres') {
          await s.run(`SET LOCAL statement_timeout = ${Math.trunc(o.timeoutMs)}`);
          await s.run(`SET LOCAL lock_timeout = ${Math.trunc(o.timeoutMs)}`);
        }
        await s.run('SELECT 1');
        await s.run('SAVEPOINT browse');
        let declared = false;
        try {
          await s.run(`DECLARE ${CURSOR} NO SCROLL CURSOR FOR ${text}`);
          declared = true;
        } catch (e) {
          // Not a query a cursor takes (EXPLAIN, SHOW, a write, a mistake): it runs as itself
          // below, which gives the operator the statement's own answer or error.
          if (isConnectionError(e)) throw e;
          await s.run('ROLLBACK TO SAVEPOINT browse');
        }
        try {
          if (declared) return resultOf(await s.run(`FETCH FORWARD ${o.rowCap + 1} FROM ${CURSOR}`), o.rowCap);
          return resultOf(await s.run(text), o.rowCap);
        } catch (e) {
          throw isConnectionError(e) ? e : refusal(e);
        }
      } finally {
        await s.run('ROLLBACK').catch(() => undefined);
      }
    });
  } catch (e) {
    if (e instanceof AppError || isConnectionError(e)) throw e;
    throw refusal(e);
  }
}
