import type { Db } from './db.ts';

/** flow-tools-sync's record of the organization's repositories (issue 19). */
export interface FlowToolRepository {
  full_name: string;
  repo_id: number;
  private: boolean;
  archived: boolean;
  default_branch: string | null;
  updated_at: Date | null;
}

export async function upsertRepositories(db: Db, repos: readonly FlowToolRepository[], now: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    for (const r of repos) {
      await trx
        .insertInto('flow_tool_repositories')
        .values({ ...r, synced_at: now })
        .onConflict((oc) =>
          oc.column('full_name').doUpdateSet({
            repo_id: r.repo_id,
            private: r.private,
            archived: r.archived,
            default_branch: r.default_branch,
            updated_at: r.updated_at,
            synced_at: now,
          }),
        )
        .execute();
    }
  });
}

export async function listFlowToolRepositories(db: Db) {
  return db.selectFrom('flow_tool_repositories').selectAll().orderBy('full_name').execute();
}
