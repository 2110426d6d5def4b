import { readFileSync } from 'node:fs';
import { ConfigError } from '@platform/kit';

/** A facet the log search page offers: the attribute Datadog knows it by and how it is shown. */
export interface Facet {
  facet: string;
  label: string;
}

/** The built-in facets (OPS-013): Datadog's reserved attributes plus the Kubernetes tags. */
export const BUILT_IN_FACETS: readonly Facet[] = Object.freeze([
  { facet: 'service', label: 'Service' },
  { facet: 'status', label: 'Status' },
  { facet: 'host', label: 'Host' },
  { facet: 'source', label: 'Source' },
  { facet: 'kube_namespace', label: 'Namespace' },
  { facet: 'pod_name', label: 'Pod' },
  { facet: '@http.status_code', label: 'HTTP status' },
  { facet: 'trace_id', label: 'Trace' },
]);

/** The facets input (CONSOLE_LOG_FACETS_FILE, a JSON array of {facet, label}) or the built-in list. */
export function loadFacets(file: string | undefined): { source: 'file' | 'built_in'; facets: readonly Facet[] } {
  if (!file) return { source: 'built_in', facets: BUILT_IN_FACETS };
  let rows: unknown;
  try {
    rows = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new ConfigError(`Invalid configuration: CONSOLE_LOG_FACETS_FILE cannot be read (${(e as Error).message})`);
  }
  const ok =
    Array.isArray(rows) &&
    rows.every(
      (r) =>
        typeof r === 'object' &&
        r !== null &&
        typeof (r as Facet).facet === 'string' &&
        (r as Facet).facet !== '' &&
        typeof (r as Facet).label === 'string',
    );
  if (!ok) {
    throw new ConfigError('Invalid configuration: CONSOLE_LOG_FACETS_FILE must be a JSON array of {facet, label}');
  }
  return { source: 'file', facets: (rows as Facet[]).map((r) => ({ facet: r.facet, label: r.label })) };
}
