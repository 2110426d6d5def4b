import { useState } from 'react';
import { ApiError, get, isObject, type Json, rowsOf, str } from '../api.ts';
import { DataTable, ErrorPanel, NotConfigured, Show, useConsole, useLoad } from '../ui.tsx';

/** Log search in this environment only: the console sends env:<ENV> (<query>) to the aggregator. */
export function LogSearchPage() {
  const { env } = useConsole();
  const config = useLoad(async () => (await get<Json>('/v1/logs/config')).data, 'log-config');
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
  // Known before any search: the aggregator's keys are not set (the search would answer 501).
  const unconfigured = config.data && config.data.configured === false;
  const sent = isObject(answer?.data) ? str(answer.data.query) : '';
  return (
    <section>
      <h2>Log search</h2>
      {unconfigured && (
        <NotConfigured
          error={new ApiError(501, 'logs_not_configured', "The log aggregator's keys are not configured", null)}
        />
      )}
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
          title="Datadog search syntax, e.g. service:console status:error"
        />
        <span className="muted">)</span>
        <button type="submit">Search</button>
      </form>
      {answer?.error !== undefined && <ErrorPanel error={answer.error} />}
      {answer?.data !== undefined && (
        <>
          {sent && (
            <p className="muted">
              Sent <code>{sent}</code>
            </p>
          )}
          <DataTable label="Log lines" rows={rowsOf(answer.data, 'rows', 'logs')} empty="No logs match." />
        </>
      )}
      <h3>Facets</h3>
      <Show loaded={facets}>{(data) => <DataTable label="Facets" rows={rowsOf(data, 'facets')} />}</Show>
    </section>
  );
}
