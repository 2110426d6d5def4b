import { AppError } from '@platform/kit';

export const invalidLogQuery = (message: string) =>
  new AppError(400, 'invalid_log_query', message, [{ code: 'invalid_log_query', message, field: '/query/query' }]);

/**
 * Whether the operator's query keeps to its own parentheses: quotes respected, depth never below
 * zero and back to zero at the end. Without this `a) OR (env:prod` would step out of the
 * environment the console adds in front of it (OPS-051).
 */
export function balanced(query: string): boolean {
  let depth = 0;
  let quoted = false;
  for (let i = 0; i < query.length; i++) {
    const c = query[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === '(') depth++;
    else if (!quoted && c === ')' && --depth < 0) return false;
  }
  return depth === 0 && !quoted;
}

/**
 * The query the log aggregator receives: `env:<ENV> (<operator query>)`, the operator's part in
 * parentheses so its ORs stay inside the environment (OPS-011, OPS-012). An empty query is the
 * environment alone.
 */
export function scopedQuery(env: string, query: string | undefined): string {
  const q = (query ?? '').trim();
  if (!q) return `env:${env}`;
  if (!balanced(q)) throw invalidLogQuery('The query has unbalanced parentheses or quotes');
  return `env:${env} (${q})`;
}
