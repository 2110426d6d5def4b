import { conflict, forbidden, unprocessable } from '@platform/kit';
import { firstCodingHarness, type Harness, harnessById } from '../domain/harnesses.ts';
import { agentView } from '../domain/view.ts';
import type { Agent } from '../schemas/agents.ts';
import type { CodingAgentInput } from '../schemas/swarms.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import type { CommandCtx } from './context.ts';
import { requireActiveParent, spawnChild } from './swarms.ts';

const REPO_SCOPE = 'repo_scope';

/** The coding harness named, or the first one declaring repo_scope (AGT-135, AGT-136). */
export function codingHarness(id: string | undefined): Harness {
  const h = id === undefined ? firstCodingHarness() : harnessById(id);
  if (id !== undefined && !h) throw unprocessable('harness_not_found', `No harness ${id}`, 'data/harness_id');
  if (!h?.features.includes(REPO_SCOPE)) {
    throw unprocessable(
      'harness_not_coding',
      id === undefined ? 'No harness declares repo_scope' : `The ${id} harness does not declare repo_scope`,
      'data/harness_id',
    );
  }
  return h;
}

/** The last path segment of a repository name or URL, for the child's name and slug. */
const repoName = (repository: string) =>
  repository
    .replace(/\.git$/, '')
    .split(/[/:]/)
    .filter(Boolean)
    .pop() ?? repository;

/**
 * POST /v1/agents/{id}/coding-agents: an ephemeral coding agent working in one repository, a
 * child of {id} (AGT-132). The parent must be persistent (409 parent_not_persistent: AGT-133) and
 * active (409 parent_not_active: AGT-134). X-Platform-Agent-Id comes only with the service token
 * (AGT-137, resolveCaller) and must name {id} (403 agent_header_mismatch: AGT-138). The agent
 * gets every tool of its harness, the parent's models and turns, and runs at once.
 */
export async function createCodingAgent(
  ctx: CommandCtx,
  parentId: string,
  input: CodingAgentInput,
  mailDomain: string,
  /** What the agent is told to do (a tracker claim names its issue, branch and path prefix); none by default. */
  instructions: string | null = null,
): Promise<Agent> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  if (caller.agentId !== null && caller.agentId !== parentId) {
    throw forbidden('X-Platform-Agent-Id must name the parent agent on coding-agents', 'agent_header_mismatch');
  }
  const { agent: parent, held } = await agentFor(ctx.trx, caller, parentId, 'editor', { lock: true });
  if (parent.lifetime !== 'persistent') {
    throw conflict('parent_not_persistent', 'Only a persistent agent starts coding agents');
  }
  requireActiveParent(parent);
  const harness = codingHarness(input.harness_id);
  const tools = harness.tools.filter((t) => !harness.always_granted.includes(t));
  const child = await spawnChild(ctx, parent, caller, mailDomain, {
    name: `${parent.name ?? parent.slug} ${repoName(input.repository)}`,
    instructions,
    child_kind: 'coding',
    swarm_id: null,
    repository: input.repository,
    harness_id: harness.id,
    tools: JSON.stringify(tools),
  });
  return agentView(child, held);
}
