import { sql } from 'kysely';
import type { CaseValueFacts } from '../domain/case-value.ts';
import type { Db } from './db.ts';

/**
 * What the case-value report sums, in one statement (one snapshot). The counted cases are the
 * first opened (created_at, then id) of the cases that are not dismissed on each subject; the
 * others on that subject are the duplicates, each with the case that counts instead. Amounts and
 * expected values are summed over the counted cases only; dismissed cases give their reasons.
 */
export async function caseValueFacts(db: Db, projectId: string): Promise<CaseValueFacts> {
  const r = await sql<{
    stages: CaseValueFacts['stages'];
    expected: CaseValueFacts['expected'];
    duplicates: CaseValueFacts['duplicates'];
    dismissed: CaseValueFacts['dismissed'];
    counted: number;
  }>`
    WITH live AS (
      SELECT id, title, subject, created_at, expected_currency, expected_one_off,
             expected_recurring_monthly, expected_recurring_months,
             first_value(id) OVER (PARTITION BY subject_key ORDER BY created_at, id) AS counted_id
      FROM cases
      WHERE project_id = ${projectId} AND status <> 'dismissed'
    ),
    counted AS (SELECT * FROM live WHERE id = counted_id),
    stage_totals AS (
      SELECT a.stage, a.currency, sum(a.amount)::bigint AS amount,
             coalesce(sum(a.amount) FILTER (WHERE a.tied_to_correction), 0)::bigint AS tied,
             count(*)::int AS rows
      FROM case_amounts a JOIN counted c ON c.id = a.case_id
      GROUP BY a.stage, a.currency
    ),
    expected AS (
      SELECT expected_currency AS currency, sum(expected_one_off)::bigint AS one_off,
             sum(expected_recurring_monthly * expected_recurring_months)::bigint AS recurring_projection
      FROM counted
      WHERE expected_currency IS NOT NULL
      GROUP BY expected_currency
    )
    SELECT
      (SELECT coalesce(json_agg(json_build_object('stage', stage, 'currency', currency, 'amount', amount,
              'tied', tied, 'rows', rows) ORDER BY stage, currency), '[]') FROM stage_totals) AS stages,
      (SELECT coalesce(json_agg(json_build_object('currency', currency, 'one_off', one_off,
              'recurring_projection', recurring_projection) ORDER BY currency), '[]') FROM expected) AS expected,
      (SELECT coalesce(json_agg(json_build_object('case_id', id, 'title', title, 'subject', subject,
              'counted_case_id', counted_id) ORDER BY created_at, id), '[]') FROM live WHERE id <> counted_id)
        AS duplicates,
      (SELECT coalesce(json_agg(json_build_object('case_id', id, 'title', title, 'reason', dismissal_reason)
              ORDER BY created_at, id), '[]')
         FROM cases WHERE project_id = ${projectId} AND status = 'dismissed') AS dismissed,
      (SELECT count(*)::int FROM counted) AS counted`.execute(db);
  const row = r.rows[0];
  const parse = <T>(v: unknown): T => (typeof v === 'string' ? JSON.parse(v) : v) as T;
  return {
    stages: parse(row?.stages ?? []),
    expected: parse(row?.expected ?? []),
    duplicates: parse(row?.duplicates ?? []),
    dismissed: parse(row?.dismissed ?? []),
    counted: Number(row?.counted ?? 0),
  };
}
