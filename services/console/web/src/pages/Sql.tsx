import { useState } from 'react';
import { call, isObject, type Json, type Scope, scoped, str } from '../api.ts';
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
  const columns =
    isObject(data) && Array.isArray(data.columns)
      ? data.columns.map((c) => (isObject(c) ? str(c.name) : str(c)))
      : undefined;
  // Rows come as arrays in column order (two columns may share a name); objects are shown as they are.
  const raw: unknown[] = isObject(data) && Array.isArray(data.rows) ? data.rows : [];
  const names = columns?.map((c, i) => (columns.indexOf(c) === i ? c : `${c} (${i + 1})`));
  const rows: Json[] = raw.map((r) =>
    Array.isArray(r) && names ? Object.fromEntries(names.map((n, i) => [n, r[i]])) : isObject(r) ? r : { value: r },
  );
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
          <DataTable label="SQL result" rows={rows} columns={names} />
        </>
      )}
    </section>
  );
}
