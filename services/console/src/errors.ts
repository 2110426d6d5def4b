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
});
export type ErrorCode = keyof typeof ERRORS;
