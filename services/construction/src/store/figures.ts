import { type RawBuilder, sql } from 'kysely';
import { AGING_DAYS, FRESH_DAYS, type Freshness, type Health, RED_MILESTONE_DAYS } from '../domain/health.ts';
import type { Db } from './db.ts';

/**
 * The figures kept on development_projects, refreshed by the commands that change their sources,
 * in their transaction, and the read-time rules of domain/health.ts as SQL for filtering.
 */

/** Re-computes a package's kept progress (by report: its latest report; by tasks: left to the tasks area) and the project's. */
export async function refreshPackageProgress(db: Db, packageId: string): Promise<void> {
  await sql`
    UPDATE packages p SET progress = COALESCE((
      SELECT r.percent FROM package_reports r WHERE r.package_id = p.id
      ORDER BY r.reported_on DESC, r.created_at DESC LIMIT 1), 0)
    WHERE p.id = ${packageId} AND p.measure = 'report'`.execute(db);
}

/** The project's progress: the weighted mean of its packages' kept progress (0 without packages). */
export async function refreshProjectProgress(db: Db, projectId: string): Promise<void> {
  await sql`
    UPDATE development_projects d SET progress = COALESCE((
      SELECT round(sum(p.progress * p.weight) / sum(p.weight), 2) FROM packages p WHERE p.project_id = d.id), 0)
    WHERE d.id = ${projectId}`.execute(db);
}

/** The project's next milestone due: the earliest forecast (else planned) date of one not complete. */
export async function refreshMilestoneDue(db: Db, projectId: string): Promise<void> {
  await sql`
    UPDATE development_projects d SET next_milestone_due = (
      SELECT min(COALESCE(m.forecast_date, m.planned_date)) FROM milestones m
      WHERE m.project_id = d.id AND m.actual_date IS NULL)
    WHERE d.id = ${projectId}`.execute(db);
}

/** A weekly update was posted on `day`. */
export async function noteUpdate(db: Db, projectId: string, day: string): Promise<void> {
  await sql`
    UPDATE development_projects SET last_update_on = GREATEST(COALESCE(last_update_on, ${day}::date), ${day}::date)
    WHERE id = ${projectId}`.execute(db);
}

/** domain/health.ts `freshness` over development_projects `d`, as of `today`. */
export const freshnessSql = (today: string): RawBuilder<Freshness> => sql<Freshness>`(CASE
  WHEN d.last_update_on IS NULL THEN 'stale'
  WHEN ${today}::date - d.last_update_on <= ${FRESH_DAYS} THEN 'fresh'
  WHEN ${today}::date - d.last_update_on <= ${AGING_DAYS} THEN 'aging'
  ELSE 'stale' END)`;

/** domain/health.ts `health` over development_projects `d`, as of `today`. */
export const healthSql = (today: string): RawBuilder<Health> => sql<Health>`(CASE
  WHEN (d.next_milestone_due IS NOT NULL AND ${today}::date - d.next_milestone_due > ${RED_MILESTONE_DAYS})
    OR (d.budget_minor > 0 AND d.actual_minor > d.budget_minor) THEN 'red'
  WHEN (d.next_milestone_due IS NOT NULL AND ${today}::date - d.next_milestone_due > 0)
    OR d.last_update_on IS NULL OR ${today}::date - d.last_update_on > ${AGING_DAYS}
    OR (d.budget_minor > 0 AND d.committed_minor > d.budget_minor) THEN 'amber'
  ELSE 'green' END)`;
