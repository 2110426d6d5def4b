import { Command, Envelope, PageEnvelope, pageMeta, pageRequest, UUID_RE, unprocessable } from '@platform/kit';
import { postActionSources } from '../commands/sources.ts';
import type { ActionName, SourceKind } from '../domain/sources.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import {
  Action,
  ActionSourcesInput,
  OBSERVER_IDS_MAX,
  ObservedAction,
  ObserverQuery,
  SourceRow,
  SourcesQuery,
} from '../schemas/sources.ts';
import { agentFor } from '../store/access.ts';
import { actionsCiting, sourcesOfTree } from '../store/sources.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];

/** The ids of GET /v1/observer/sources: UUIDs, each once, at most 200 (AGT-232). */
function observerIds(raw: string): string[] {
  const ids = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = ids.find((id) => !UUID_RE.test(id));
  if (bad !== undefined) throw unprocessable('validation_failed', `${bad} is not a UUID`, 'querystring/ids');
  if (ids.length === 0) throw unprocessable('validation_failed', 'ids names no id', 'querystring/ids');
  if (ids.length > OBSERVER_IDS_MAX) {
    throw unprocessable('too_many_ids', `${ids.length} ids: at most ${OBSERVER_IDS_MAX}`, 'querystring/ids');
  }
  return ids;
}

/** Sources cited by agents' outward actions (spec 3, /action-sources, /sources, /v1/observer/sources). */
export const SOURCE_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/action-sources',
    action: 'RunAgents',
    tags,
    summary:
      'Record the sources an action cited (send_email, send_sms, send_announcement, git_commit, open_pull_request)',
    description:
      'Body {data: {action, message, sources?: [{kind: evidence|insight, id}], run_id?, read_ids?}}. One row per ' +
      'posted source and one per other UUID found in message (kind message), each id once. Each row stores ' +
      'read_in_run: whether the agent read that id in the same run, i.e. it is among read_ids (the ids the ' +
      'harness saw its tools return in this run; none sent: false). The message itself is not stored. Needs ' +
      'editor (the harness has it).',
    params: AgentIdParams,
    body: Command(ActionSourcesInput),
    response: Envelope(Action),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => postActionSources(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/sources',
    action: 'ReadAgents',
    tags,
    summary: 'What the agent and its descendants cited, newest first; each row names the citing agent',
    description: 'One row per cited id of each action (page mode, up to 200 a page). Needs viewer.',
    params: AgentIdParams,
    query: SourcesQuery,
    response: PageEnvelope(SourceRow),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, input.params.id, 'viewer');
      const page = pageRequest(input.query, 50);
      const { rows, total } = await sourcesOfTree(deps.database.db, input.params.id, page);
      return input.reply.envelope(
        rows.map((r) => ({
          ...r,
          action: r.action as ActionName,
          kind: r.kind as SourceKind,
          created_at: r.created_at.toISOString(),
        })),
        pageMeta(page, total),
      );
    },
  }),

  route({
    method: 'GET',
    url: '/v1/observer/sources',
    action: 'ReadAgents',
    tags,
    summary: 'Actions citing any of the ids, newest first, of agents the caller may list',
    description:
      'ids is a comma-separated list of UUIDs, at most 200 (more: 422 too_many_ids). Only actions of agents the ' +
      'caller owns or is a member of (through their top agent) are listed; a platform admin without ' +
      'X-Platform-As-Member: true, and the service token without X-Platform-Agent-Id, see every agent. Each action ' +
      'carries all its sources and `cited`, the query ids among them. Page mode, up to 200 a page.',
    query: ObserverQuery,
    response: PageEnvelope(ObservedAction),
    errors: ['too_many_ids'],
    handler: async (input, deps) => {
      const ids = observerIds(input.query.ids);
      const caller = await readCaller(deps, input);
      const page = pageRequest(input.query, 50);
      const { rows, total } = await actionsCiting(deps.database.db, caller, ids, page);
      return input.reply.envelope(
        rows.map((r) => ({
          id: r.id,
          agent_id: r.agent_id,
          action: r.action as ActionName,
          run_id: r.run_id,
          created_at: new Date(r.created_at).toISOString(),
          sources: (r.sources ?? []).map((s) => ({ ...s, kind: s.kind as SourceKind })),
          cited: r.cited,
        })),
        pageMeta(page, total),
      );
    },
  }),
];
