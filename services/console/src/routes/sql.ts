import { Envelope } from '@platform/kit';
import { P, ScopeParams } from '../schemas/common.ts';
import { SqlBody, SqlResult } from '../schemas/sql.ts';
import { isConnectionError, scopeUnavailable } from '../scope/databases.ts';
import { browse } from '../sql/browser.ts';
import { type Routes, route } from './deps.ts';

export const SQL_ROUTES: Routes = [
  route({
    method: 'POST',
    url: `${P}/sql`,
    role: 'viewer',
    // A read, though it is a POST (the statement travels in the body): no Idempotency-Key.
    command: false,
    tags: ['sql'],
    summary:
      "Run one read-only statement on the subscription's database (BEGIN READ ONLY, default_transaction_read_only, a row cap and statement_timeout, always rolled back; on PostgreSQL as a role holding only pg_read_all_data)",
    params: ScopeParams,
    body: SqlBody,
    response: Envelope(SqlResult),
    errors: [
      'scope_not_found',
      'database_not_configured',
      'scope_unavailable',
      'sql_browser_not_configured',
      'sql_multiple_statements',
      'sql_read_only',
      'sql_not_permitted',
      'sql_timeout',
      'sql_failed',
    ],
    handler: async ({ params, body, reply }, deps) => {
      const scope = deps.registry.resolve(params.region, params.subscription);
      const db = deps.databases.browser(scope);
      const rowCap = deps.config.CONSOLE_SQL_ROW_CAP;
      const result = await browse(db, body.data.sql, { rowCap, timeoutMs: deps.config.CONSOLE_SQL_TIMEOUT_MS }).catch(
        (e) => {
          throw isConnectionError(e) ? scopeUnavailable(scope, e) : e;
        },
      );
      return reply.envelope({ ...result, row_cap: rowCap });
    },
  }),
];
