import { sql } from 'kysely';
import type { Db } from '../src/store/db.ts';
import { BENCH_OWNER } from './lib.ts';

/** Cases in each state, by the case's number modulo 10: 1 dismissed, the rest spread over the other four. */
const STATES = `(ARRAY['dismissed','needs_validation','needs_validation','accepted','accepted','in_progress',
  'in_progress','in_progress','verified','verified'])[1 + i % 10]`;

/**
 * `count` cases written straight to the tables, as a bulk load would: one a minute, about one in
 * twenty on a subject an earlier case already names (subject i % (count * 0.95)), one in ten
 * dismissed, one in ten in EUR, half with an expected value (a third of those recurring), and per
 * case the amounts its state allows (identified always; approved once accepted; posted once in
 * progress; collected, tied or not, on half of the verified and in-progress ones).
 */
export async function seedCases(db: Db, projectId: string, count: number) {
  const subjects = Math.max(1, Math.floor(count * 0.95));
  await sql`INSERT INTO cases (id, project_id, title, subject, subject_key, owner, evidence, proposed_correction,
      still_to_check, status, dismissal_reason, verification_method, expected_currency, expected_one_off,
      expected_recurring_monthly, expected_recurring_months, created_by, created_at, updated_at, status_changed_at)
    SELECT gen_random_uuid(), ${projectId}, 'Seeded finding ' || i, 'Lease ' || (i % ${subjects}),
      'lease ' || (i % ${subjects}), ${BENCH_OWNER}, '["Ledger extract"]', 'Bill the difference', '',
      s.status,
      CASE WHEN s.status = 'dismissed' THEN 'Waived in writing (case ' || i || ')' END,
      CASE WHEN s.status = 'verified' THEN 'Ledger matched' END,
      CASE WHEN i % 2 = 0 THEN s.currency END,
      CASE WHEN i % 2 = 0 THEN 10000 + i END,
      CASE WHEN i % 2 = 0 THEN (CASE WHEN i % 3 = 0 THEN 500 ELSE 0 END) END,
      CASE WHEN i % 2 = 0 THEN (CASE WHEN i % 3 = 0 THEN 12 ELSE 0 END) END,
      ${BENCH_OWNER}, c.at, c.at, c.at
    FROM generate_series(1, ${count}::int) AS i,
      LATERAL (SELECT ${sql.raw(STATES)} AS status, CASE WHEN i % 10 = 7 THEN 'EUR' ELSE 'USD' END AS currency) s,
      LATERAL (SELECT timestamptz '2025-01-01T00:00:00Z' + make_interval(mins => i) AS at) c`.execute(db);
  const amounts = (stage: string, states: string[], extra = sql``) => sql`
    INSERT INTO case_amounts (id, case_id, project_id, stage, amount, currency, tied_to_correction, recorded_by,
      created_at)
    SELECT gen_random_uuid(), id, project_id, ${stage}::text, 1000 + n,
      CASE WHEN n % 10 = 7 THEN 'EUR' ELSE 'USD' END,
      CASE WHEN ${stage}::text = 'collected' THEN n % 3 <> 0 END,
      ${BENCH_OWNER}, created_at
    FROM (SELECT id, project_id, status, created_at,
            (extract(epoch FROM created_at - timestamptz '2025-01-01T00:00:00Z') / 60)::int AS n
          FROM cases WHERE project_id = ${projectId}) c
    WHERE status IN (${sql.join(states)}) ${extra}`;
  const every = ['needs_validation', 'accepted', 'in_progress', 'verified', 'dismissed'];
  await amounts('identified', every).execute(db);
  await amounts('approved', ['accepted', 'in_progress', 'verified', 'dismissed']).execute(db);
  await amounts('posted', ['in_progress', 'verified']).execute(db);
  await amounts('collected', ['in_progress', 'verified'], sql`AND n % 2 = 0`).execute(db);
}

/**
 * The case-value report's work as hand-written SQL: the same sums, duplicates and dismissed cases,
 * as four plain statements in one read-only transaction, with "first opened on its subject" as a
 * NOT EXISTS over earlier cases instead of a window. The rows are left as the driver returns them.
 */
export async function rawCaseValue(db: Db, projectId: string) {
  return db.transaction().execute(async (trx) => {
    const counted = sql`
      SELECT c.* FROM cases c
      WHERE c.project_id = ${projectId} AND c.status <> 'dismissed'
        AND NOT EXISTS (SELECT 1 FROM cases e
          WHERE e.project_id = c.project_id AND e.subject_key = c.subject_key AND e.status <> 'dismissed'
            AND (e.created_at, e.id) < (c.created_at, c.id))`;
    const stages = await sql<{ stage: string; currency: string; amount: string; tied: string }>`
      SELECT a.stage, a.currency, sum(a.amount) AS amount,
             coalesce(sum(a.amount) FILTER (WHERE a.tied_to_correction), 0) AS tied
      FROM case_amounts a JOIN (${counted}) k ON k.id = a.case_id
      GROUP BY a.stage, a.currency`.execute(trx);
    const expected = await sql<{ currency: string; one_off: string; projection: string }>`
      SELECT expected_currency AS currency, sum(expected_one_off) AS one_off,
             sum(expected_recurring_monthly * expected_recurring_months) AS projection
      FROM (${counted}) k WHERE expected_currency IS NOT NULL GROUP BY expected_currency`.execute(trx);
    const duplicates = await sql<{ id: string; title: string; subject: string; counted_id: string }>`
      SELECT c.id, c.title, c.subject,
             (SELECT e.id FROM cases e WHERE e.project_id = c.project_id AND e.subject_key = c.subject_key
                AND e.status <> 'dismissed' ORDER BY e.created_at, e.id LIMIT 1) AS counted_id
      FROM cases c
      WHERE c.project_id = ${projectId} AND c.status <> 'dismissed'
        AND EXISTS (SELECT 1 FROM cases e
          WHERE e.project_id = c.project_id AND e.subject_key = c.subject_key AND e.status <> 'dismissed'
            AND (e.created_at, e.id) < (c.created_at, c.id))
      ORDER BY c.created_at, c.id`.execute(trx);
    const dismissed = await sql<{ id: string; title: string; reason: string }>`
      SELECT id, title, dismissal_reason AS reason FROM cases
      WHERE project_id = ${projectId} AND status = 'dismissed' ORDER BY created_at, id`.execute(trx);
    return {
      stages: stages.rows,
      expected: expected.rows,
      duplicates: duplicates.rows,
      dismissed: dismissed.rows,
    };
  });
}
