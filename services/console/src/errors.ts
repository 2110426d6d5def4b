import { defineErrors } from '@platform/kit';

/**
 * Every error code the console answers beyond the kit's own: its status and what it means. Spec 3
 * names conditions, not codes; the rules file leaves the statuses of a role below the surface's
 * and of a refused token open (docs/decisions.md: 403 insufficient_role, 401 unauthenticated).
 * Helpers of other areas append their codes here.
 */
export const ERRORS = defineErrors({
  insufficient_role: {
    status: 403,
    meaning: "The caller's console role (viewer, engineer, admin) is below the one the surface needs",
  },
  scope_not_found: { status: 404, meaning: 'No such region/subscription in the catalog' },
  database_not_configured: {
    status: 501,
    meaning: "The subscription's database variable is unset (outbox and SQL browser are not configured)",
  },
  bus_not_configured: { status: 501, meaning: "The subscription's bus variable is unset" },
  cluster_not_configured: { status: 501, meaning: "The subscription's kubeconfig variable is unset" },
  flags_not_configured: {
    status: 501,
    meaning: 'The subscription has no flag-server block, or its management URL is unset',
    spec: 'feature-flag server not configured',
  },
  logs_not_configured: {
    status: 501,
    meaning: "The log aggregator's keys (DD_API_KEY, DD_APP_KEY) are not configured",
    spec: "log aggregator's keys not configured",
  },
  scope_unavailable: { status: 503, meaning: "The subscription's database or bus does not answer" },
  outbox_not_found: { status: 404, meaning: 'No service with an outbox of that name in the database' },
  event_not_found: { status: 404, meaning: "No such event in the service's outbox" },
  republish_failed: {
    status: 503,
    meaning: 'The database refused the republish (nothing changed; the attempt is logged)',
  },
  sql_browser_not_configured: {
    status: 501,
    meaning:
      "On PostgreSQL the SQL browser runs only as a role that cannot write or run programs (the scope's browser_url variable: a role holding only pg_read_all_data)",
  },
  sql_multiple_statements: {
    status: 422,
    meaning: 'The SQL browser runs exactly one statement per request',
  },
  sql_read_only: {
    status: 422,
    meaning: 'The statement would write; the SQL browser only reads (default_transaction_read_only)',
  },
  sql_not_permitted: { status: 422, meaning: "The browser's database role may not do that (it only reads)" },
  sql_timeout: { status: 422, meaning: 'The statement ran longer than the SQL browser allows' },
  sql_failed: { status: 422, meaning: 'The database refused the statement (its message is given)' },
  stream_not_found: { status: 404, meaning: 'No such stream on the bus' },
  message_not_found: { status: 404, meaning: 'No message at that sequence in the stream' },
  // Cluster (the subscription's Kubernetes API server).
  pod_not_found: { status: 404, meaning: 'No such pod in that namespace of the cluster' },
  cluster_refused: {
    status: 422,
    meaning:
      "The cluster's API server refused the request (a container to name, a container not started yet, a bad label selector); its message is given",
  },
  cluster_unavailable: {
    status: 502,
    meaning: "The cluster's API server cannot be reached, fails, or refuses the console's credentials",
  },
  // Releases (Helm).
  invalid_release_name: {
    status: 422,
    meaning: 'Not a Helm release name (lowercase DNS-1123, at most 53); Helm was not run',
  },
  invalid_namespace: { status: 422, meaning: 'Not a namespace (a DNS-1123 label); Helm was not run' },
  invalid_revision: { status: 422, meaning: 'A revision is a whole number from 1' },
  revision_not_in_history: { status: 422, meaning: "The revision is not in the release's history; no rollback ran" },
  revision_is_deployed: { status: 422, meaning: 'The revision is the one deployed now; no rollback ran' },
  release_not_found: { status: 404, meaning: 'No release of that name in that namespace' },
  release_manager_failed: { status: 502, meaning: 'Helm failed or timed out (its error line is given)' },
  // Feature flags (the subscription's Unleash admin API).
  flag_server_conflict: {
    status: 409,
    meaning: "The flag server answered 409; its body is the error's value, unchanged",
  },
  flag_server_unprocessable: {
    status: 422,
    meaning: "The flag server answered 422; its body is the error's value, unchanged",
  },
  flag_server_not_found: { status: 404, meaning: "The flag server has no such thing (its body is the error's value)" },
  flag_server_bad_request: {
    status: 400,
    meaning: "The flag server refused the request (its body is the error's value)",
  },
  flag_server_unavailable: {
    status: 502,
    meaning: "The flag server cannot be reached, fails, or refuses the console's token",
  },
  key_not_found: { status: 404, meaning: 'No API key of that name on the flag server' },
  // Log search (Datadog).
  invalid_log_query: {
    status: 400,
    meaning: 'The log query is malformed (unbalanced parentheses or quotes) or Datadog refused it',
  },
  log_search_failed: { status: 502, meaning: 'Datadog cannot be reached or fails' },
});
export type ErrorCode = keyof typeof ERRORS;
