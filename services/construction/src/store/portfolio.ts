import { sql } from 'kysely';
import type { Db } from './db.ts';
import { type PortfolioFilter, portfolioWhere } from './projects.ts';

/** One row per project, as the weekly report reads it: the project's own columns and kept figures only. */
export interface ReportSource {
  id: string;
  code: string;
  name: string;
  kind: string;
  status: string;
  stage: string;
  owner_fid: string | null;
  region: string | null;
  progress: number;
  next_milestone_due: string | null;
  last_update_on: string | null;
  budget_minor: number;
  committed_minor: number;
  actual_minor: number;
}

/**
 * The weekly report's rows: development_projects alone (never tasks, cost events or updates), so
 * its cost follows the number of projects, not of what they hold. By code.
 */
export async function reportRows(db: Db, f: PortfolioFilter, today: string): Promise<ReportSource[]> {
  const r = await sql<ReportSource>`
    SELECT d.id, d.code, d.name, d.kind, d.status, d.stage, d.owner_fid, d.region, d.progress, d.next_milestone_due,
      d.last_update_on, d.budget_minor, d.committed_minor, d.actual_minor
    FROM development_projects d WHERE ${portfolioWhere(f, today)} ORDER BY lower(d.code), d.id`.execute(db);
  return r.rows;
}
