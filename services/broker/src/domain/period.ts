import { unprocessable } from '@platform/kit';

/** The inclusive UTC days a read covers (usage, summary, savings, routing stats). */
export interface Period {
  from: string;
  to: string;
}

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

function isDay(s: string): boolean {
  if (!DATE_RE.test(s)) return false;
  const t = new Date(`${s}T00:00:00Z`);
  return !Number.isNaN(t.getTime()) && t.toISOString().slice(0, 10) === s;
}

/**
 * `to` defaults to today (UTC) and `from` to the first day of `to`'s month, so a bare read is
 * this month so far. A malformed day, or from after to, is 422 bad_period naming the field.
 */
export function reportPeriod(q: { from?: string; to?: string }, today: string): Period {
  for (const field of ['from', 'to'] as const) {
    const v = q[field];
    if (v !== undefined && !isDay(v)) {
      throw unprocessable('bad_period', `${field} must be a date YYYY-MM-DD`, `querystring/${field}`);
    }
  }
  const to = q.to ?? today;
  const from = q.from ?? `${to.slice(0, 7)}-01`;
  if (from > to) throw unprocessable('bad_period', `from (${from}) is after to (${to})`, 'querystring/from');
  return { from, to };
}
