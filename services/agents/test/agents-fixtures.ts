import { randomUUID } from 'node:crypto';
import { uuidv7 } from '@platform/kit';
import type { AgentData, Harness } from './harness.ts';
import { tag } from './harness.ts';

/**
 * A swarm member (or coding agent) of `parent`, written straight to the table: the swarm routes
 * are another area's; these tests need only the row (its top agent gives its access, AGT-326).
 */
export async function childOf(
  h: Harness,
  parent: Pick<AgentData, 'id' | 'owner_fid'>,
  over: { child_kind?: 'swarm' | 'coding'; status?: string; created_at?: Date; name?: string } = {},
) {
  const created = over.created_at ?? h.now();
  const id = uuidv7(created.getTime());
  const slug = `child-${tag()}`;
  const top = await h.db.selectFrom('agents').select('top_id').where('id', '=', parent.id).executeTakeFirstOrThrow();
  await h.db
    .insertInto('agents')
    .values({
      id,
      slug,
      name: over.name ?? `Member ${slug}`,
      owner_fid: parent.owner_fid,
      created_by: `agent:${parent.id}`,
      email: `${slug}@agents.dev.company.com`,
      lifetime: 'ephemeral',
      child_kind: over.child_kind ?? 'swarm',
      parent_id: parent.id,
      top_id: top.top_id,
      swarm_id: over.child_kind === 'coding' ? null : randomUUID(),
      repository: over.child_kind === 'coding' ? 'platform' : null,
      status: over.status ?? 'active',
      harness_id: over.child_kind === 'coding' ? 'coder' : 'platform',
      ttl_at: new Date(created.getTime() + 4 * 3600_000),
      created_at: created,
      updated_at: created,
    })
    .execute();
  return { id, slug };
}
