import { devFid, EMAIL_RE, type PageRequest } from '@platform/kit';
import { type Expression, type SqlBool, sql } from 'kysely';
import type { AgentRole, Caller } from '../domain/access.ts';
import type { AgentRow } from './agents.ts';
import type { Db } from './db.ts';

export interface AgentListFilter {
  lifetime?: 'persistent' | 'ephemeral';
  status?: 'active' | 'expired' | 'archive';
  desired_state?: 'stopped' | 'running' | 'completed';
  q?: string;
  projectIds?: string[];
}

export interface ListedAgent {
  row: AgentRow;
  role: AgentRole | null;
}

const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * The agents a caller may list (AGT-083..AGT-101). A person (or an agent's owner through
 * X-Platform-Agent-Id) starts from the top agents they own or are a member of: two index lookups
 * (agents_owner, agent_members_principal), then each top's own chain (agents_top), so the cost
 * follows the caller's agents, not the table. A platform admin acting as admin, and the service
 * token alone (an editor everywhere, AGT-317), list every agent.
 */
export async function listAgents(
  db: Db,
  caller: Caller,
  filter: AgentListFilter,
  page: PageRequest,
): Promise<{ items: ListedAgent[]; total: number }> {
  const fid = caller.fid;
  const everyone = caller.admin || caller.service || fid === null;

  let base = db.selectFrom('agents as a');
  if (!everyone) {
    const tops = db
      .selectFrom('agents')
      .select('id')
      .where('owner_fid', '=', fid)
      .where('parent_id', 'is', null)
      .union(db.selectFrom('agent_members').select('agent_id as id').where('principal_fid', '=', fid));
    base = base.where('a.top_id', 'in', tops);
  }
  if (filter.lifetime === 'ephemeral') {
    // Swarm members: the ephemeral workers agents spawn (AGT-087).
    base = base.where('a.child_kind', '=', 'swarm').where('a.lifetime', '=', 'ephemeral');
  } else {
    base = base.where('a.parent_id', 'is', null);
    if (filter.lifetime === 'persistent') base = base.where('a.lifetime', '=', 'persistent');
  }
  base = filter.status ? base.where('a.status', '=', filter.status) : base.where('a.status', '<>', 'archive');
  if (filter.desired_state) base = base.where('a.desired_state', '=', filter.desired_state);
  if (filter.projectIds?.length) base = base.where('a.project_id', 'in', filter.projectIds);
  if (filter.q) {
    const q = filter.q.trim();
    const pattern = `%${likeEscape(q)}%`;
    const asFid = EMAIL_RE.test(q) ? devFid(q) : null;
    base = base.where((eb) => {
      const any: Expression<SqlBool>[] = [
        eb('a.name', 'ilike', pattern),
        eb('a.slug', 'ilike', pattern),
        eb('a.email', 'ilike', pattern),
        eb('a.instructions', 'ilike', pattern),
        eb('a.owner_fid', 'ilike', pattern),
        eb('a.created_by', 'ilike', pattern),
      ];
      if (asFid) any.push(eb('a.owner_fid', '=', asFid), eb('a.created_by', '=', asFid));
      return eb.or(any);
    });
  }

  const counted = await base.select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
  const total = Number(counted.n);
  if (total === 0 || (page.page - 1) * page.pageSize >= total) return { items: [], total };

  const rows = await base
    .innerJoin('agents as t', 't.id', 'a.top_id')
    .leftJoin('agent_members as m', (j) => j.onRef('m.agent_id', '=', 'a.top_id').on('m.principal_fid', '=', fid ?? ''))
    .selectAll('a')
    .select(
      sql<string | null>`CASE WHEN ${fid !== null} AND t.owner_fid = ${fid ?? ''} THEN 'owner' ELSE m.role END`.as(
        'member_role',
      ),
    )
    .orderBy('a.created_at', 'desc')
    .orderBy('a.id', 'desc')
    .limit(page.pageSize)
    .offset((page.page - 1) * page.pageSize)
    .execute();
  return {
    items: rows.map(({ member_role, ...row }) => ({
      row: row as AgentRow,
      role: (member_role as AgentRole | null) ?? (caller.service ? 'editor' : null),
    })),
    total,
  };
}
