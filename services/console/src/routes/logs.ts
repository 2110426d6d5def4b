import { Envelope } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { DatadogLogs, logsNotConfigured } from '../logs/datadog.ts';
import { loadFacets } from '../logs/facets.ts';
import { scopedQuery } from '../logs/query.ts';
import { Facet, LogConfig, LogPage, LogSearchQuery } from '../schemas/logs.ts';
import type { RouteDeps, Routes } from './deps.ts';
import { route } from './deps.ts';

const tags = ['logs'];

const logsOf = (deps: RouteDeps): DatadogLogs =>
  deps.logs ??
  new DatadogLogs({
    apiKey: deps.config.DD_API_KEY,
    appKey: deps.config.DD_APP_KEY,
    site: deps.config.DD_SITE,
    apiUrl: deps.config.DD_API_URL,
    timeoutMs: 15_000,
  });

const facetsCache = new Map<string, ReturnType<typeof loadFacets>>();
/** The facets input, read once per file (a bad file is a configuration error, checked at start too). */
export function facetsOf(file: string | undefined) {
  const key = file ?? '';
  let f = facetsCache.get(key);
  if (!f) {
    f = loadFacets(file);
    facetsCache.set(key, f);
  }
  return f;
}

/**
 * Log search over Datadog's Logs API v2, one environment only (OPS-010..013, OPS-051, OPS-064):
 * no region or subscription in the path; every query reaches Datadog as env:<ENV> (<query>).
 */
export const LOG_ROUTES: Routes = [
  route({
    method: 'GET',
    url: '/v1/logs/config',
    role: 'viewer',
    tags,
    summary: 'Where log search looks: the environment, the Datadog site, whether its keys are set, the facets source',
    response: Envelope(LogConfig),
    handler: async ({ reply }, deps) =>
      reply.envelope({
        env: deps.config.ENV,
        site: deps.config.DD_SITE,
        configured: logsOf(deps).configured,
        facets: facetsOf(deps.config.CONSOLE_LOG_FACETS_FILE).source,
      }),
  }),
  route({
    method: 'GET',
    url: '/v1/logs/search',
    role: 'viewer',
    tags,
    summary: 'Searches the logs of this environment (Datadog query syntax, newest first); 501 without Datadog keys',
    query: LogSearchQuery,
    response: Envelope(LogPage),
    errors: ['logs_not_configured', 'invalid_log_query', 'log_search_failed'],
    handler: async ({ query, reply }, deps) => {
      const logs = logsOf(deps);
      if (!logs.configured) throw logsNotConfigured();
      const q = scopedQuery(deps.config.ENV, query.query);
      const page = await logs.search({
        query: q,
        from: query.from,
        to: query.to,
        limit: query.limit,
        cursor: query.cursor,
      });
      return reply.envelope({ query: q, rows: page.rows, next: page.next });
    },
  }),
  route({
    method: 'GET',
    url: '/v1/logs/facets',
    role: 'viewer',
    tags,
    summary: 'The facets the log search offers (the facets file, else the built-in list)',
    response: Envelope(Type.Array(Facet)),
    handler: async ({ reply }, deps) => reply.envelope(facetsOf(deps.config.CONSOLE_LOG_FACETS_FILE).facets),
  }),
];
