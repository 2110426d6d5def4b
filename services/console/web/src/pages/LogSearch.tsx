import { useState } from 'react';
import { get, rowsOf } from '../api.ts';
import { DataTable, ErrorPanel, Show, useConsole, useLoad } from '../ui.tsx';

/** Log search in this environment only: the console sends env:<ENV> (<query>) to the aggregator. */
export function LogSearchPage() {
  const { env } = useConsole();
  const facets = useLoad(async () => (await get('/v1/logs/facets')).data, 'facets');
  const [query, setQuery] = useState('');
  const [answer, setAnswer] = useState<{ data?: unknown; error?: unknown } | null>(null);
  const search = async () => {
    try {
      setAnswer({ data: (await get(`/v1/logs/search?${new URLSearchParams({ query })}`)).data });
    } catch (error) {
      setAnswer({ error });
    }
  };
  return (
    <section>
      <h2>Log search</h2>
      <form
        className="inline"
        onSubmit={(e) => {
          e.preventDefault();
          void search();
        }}
      >
        <span className="muted">env:{env || '…'} (</span>
        <input
          aria-label="Query"
          size={50}
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          placeholder="service:console status:error"
        />
        <span className="muted">)</span>
        <button type="submit">Search</button>
      </form>
      {answer?.error !== undefined && <ErrorPanel error={answer.error} />}
      {answer?.data !== undefined && (
        <DataTable label="Log lines" rows={rowsOf(answer.data, 'logs', 'data', 'lines')} empty="No logs match." />
      )}
      <h3>Facets</h3>
      <Show loaded={facets}>{(data) => <DataTable label="Facets" rows={rowsOf(data, 'facets')} />}</Show>
    </section>
  );
}
