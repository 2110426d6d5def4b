import type { Github } from '../clients/github.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { upsertRepositories } from '../store/flow-tools.ts';

export interface FlowToolsSyncResult {
  organization: string;
  /** Repositories read (every one of the organization, all pages). */
  repositories: number;
}

/**
 * POST /internal/jobs/flow-tools-sync (WS-511, WS-512): run by hand, never scheduled. Reads every
 * repository of the configured organization (GitHub REST, every page) and records each one. A
 * failure of GitHub is an answer: ok false with its status and code (the route answers 502).
 */
export async function flowToolsSync(
  deps: RouteDeps,
  github: Github,
  organization: string,
): Promise<{ ok: true; data: FlowToolsSyncResult } | { ok: false; status: number; code: string; message: string }> {
  const listed = await github.listOrgRepositories(organization);
  if (!listed.ok) return listed;
  await upsertRepositories(
    deps.database.db,
    listed.data.map((r) => ({
      full_name: r.full_name,
      repo_id: r.id,
      private: r.private,
      archived: r.archived ?? false,
      default_branch: r.default_branch ?? null,
      updated_at: typeof r.updated_at === 'string' ? new Date(r.updated_at) : null,
    })),
    deps.clock(),
  );
  return { ok: true, data: { organization, repositories: listed.data.length } };
}
