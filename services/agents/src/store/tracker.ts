import type { Insertable, Selectable } from 'kysely';
import type { Db, TrackerClaims, TrackerRecommendations } from './db.ts';

export type RecommendationRow = Selectable<TrackerRecommendations>;
export type ClaimRow = Selectable<TrackerClaims>;

export async function findRecommendation(
  db: Db,
  agentId: string,
  issueKey: string,
): Promise<RecommendationRow | undefined> {
  return db
    .selectFrom('tracker_recommendations')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('issue_key', '=', issueKey)
    .executeTakeFirst();
}

export async function insertRecommendation(
  db: Db,
  row: Insertable<TrackerRecommendations>,
): Promise<RecommendationRow> {
  return db.insertInto('tracker_recommendations').values(row).returningAll().executeTakeFirstOrThrow();
}

/** A coding child of the agent still meant to run: an open coding run refuses a claim (AGT-150). */
export async function openCodingRun(db: Db, parentId: string): Promise<{ id: string } | undefined> {
  return db
    .selectFrom('agents')
    .select('id')
    .where('parent_id', '=', parentId)
    .where('child_kind', '=', 'coding')
    .where('status', '=', 'active')
    .where('desired_state', '=', 'running')
    .executeTakeFirst();
}

export async function insertClaim(db: Db, row: Insertable<TrackerClaims>): Promise<ClaimRow> {
  return db.insertInto('tracker_claims').values(row).returningAll().executeTakeFirstOrThrow();
}

/** The agent's latest claim on the issue: its coding attempt a report comments on. */
export async function latestClaim(db: Db, agentId: string, issueKey: string): Promise<ClaimRow | undefined> {
  return db
    .selectFrom('tracker_claims')
    .selectAll()
    .where('agent_id', '=', agentId)
    .where('issue_key', '=', issueKey)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
}

export async function markReported(
  db: Db,
  claimId: string,
  report: { pull_request_url: string; comment_id: string; reported_at: Date },
): Promise<ClaimRow> {
  return db
    .updateTable('tracker_claims')
    .set(report)
    .where('id', '=', claimId)
    .returningAll()
    .executeTakeFirstOrThrow();
}
