import { useState } from 'react';
import { call, isObject, type Json, rowsOf, type Scope, scoped, str } from '../api.ts';
import { DataTable, ErrorPanel } from '../ui.tsx';

/** The SQL browser: one read-only statement per request, answered with its rows (capped). */
export function SqlPage({ scope }: { scope: Scope }) {
  const [sql, setSql] = useState('select 1 as one');
  const [busy, setBusy] = useState(false);
  const [answer, setAnswer] = useState<{ data?: unknown; error?: unknown } | null>(null);
  const run = async () => {
    setBusy(true);
    try {
      // A read, but a POST: the statement is a body, never a URL in logs. Not a command.
      setAnswer({ data: (await call('POST', scoped(scope, '/sql'), { data: { sql } })).data });
    } catch (error) {
      setAnswer({ error });
    } finally {
      setBusy(false);
    }
  };
  const data = answer?.data;
  const rows: Json[] = rowsOf(data, 'rows');
  const columns =
    isObject(data) && Array.isArray(data.columns)
      ? data.columns.map((c) => (isObject(c) ? str(c.name) : str(c)))
      : undefined;
  return (
    <section>
      <h2>SQL browser</h2>
      <p className="muted">Read-only: every statement runs in a read-only transaction that is rolled back.</p>
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
      >
        <textarea aria-label="SQL" rows={6} value={sql} onChange={(e) => setSql(e.target.value)} />
        <button type="submit" disabled={busy}>
          Run
        </button>
      </form>
      {answer?.error !== undefined && <ErrorPanel error={answer.error} />}
      {answer?.data !== undefined && (
        <>
          <p className="muted" data-testid="sql-count">
            {rows.length} row{rows.length === 1 ? '' : 's'}
            {isObject(data) && data.truncated ? ' (capped)' : ''}
          </p>
          <DataTable label="SQL result" rows={rows} columns={columns} />
        </>
      )}
    </section>
  );
}
