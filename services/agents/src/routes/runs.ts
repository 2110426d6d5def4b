import { Command, CursorEnvelope, cursorMeta, decodeCursor, Envelope, unprocessable } from '@platform/kit';
import { recordRun } from '../commands/wakes.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { Run, RunRecordInput, RunsQuery } from '../schemas/wakes.ts';
import { agentFor } from '../store/access.ts';
import { listRuns, runView } from '../store/runs.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['runs'];

const afterKey = (cursor: string | undefined) => {
  if (cursor === undefined) return null;
  const key = decodeCursor(cursor);
  const [at, id] = key ?? [];
  if (typeof at !== 'string' || typeof id !== 'string' || Number.isNaN(Date.parse(at))) {
    throw unprocessable('validation_failed', 'after is not a cursor of this list', 'after');
  }
  return { startedAt: new Date(at), id };
};

/** The wake history: the harness records each completed wake; members read it (spec 3, Agents endpoints). */
export const RUN_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/runs',
    action: 'RunAgents',
    tags,
    summary: 'Record a completed wake (the harness)',
    description:
      'Body {data: {inbox_item_id?, reason?, started_at, finished_at, outcome, turns, model?, summary?}}. With ' +
      'inbox_item_id (a wake of this agent, else 422 inbox_item_not_found) the reason is the wake’s (another one sent ' +
      'is 422 run_reason_invalid) and the wake has one run (a second is 409 run_already_recorded); without it reason ' +
      'is required. outcome: completed, failed or max_turns. finished_at before started_at is 422 run_times_invalid. ' +
      'Needs the editor role; the harness sends the service token. Publishes agent.run_recorded.',
    params: AgentIdParams,
    body: Command(RunRecordInput),
    response: Envelope(Run),
    status: 201,
    errors: [
      'agent_not_found',
      'insufficient_role',
      'inbox_item_not_found',
      'run_reason_invalid',
      'run_times_invalid',
      'run_already_recorded',
    ],
    run: (ctx, { params, body }) => recordRun(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/runs',
    action: 'ReadAgents',
    tags,
    summary: 'The agent’s runs, newest first (by started_at), cursor-paginated',
    description: 'after: the nextCursor of the page before; limit 1-100 (default 20). Needs the viewer role.',
    params: AgentIdParams,
    query: RunsQuery,
    response: CursorEnvelope(Run),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const caller = await readCaller(deps, input);
      const { agent } = await agentFor(deps.database.db, caller, input.params.id, 'viewer');
      const limit = input.query.limit ?? 20;
      const { rows, more } = await listRuns(deps.database.db, agent.id, limit, afterKey(input.query.after));
      const last = rows.at(-1);
      const next = more && last ? [new Date(last.started_at).toISOString(), last.id] : null;
      return input.reply.envelope(rows.map(runView), cursorMeta(limit, next));
    },
  }),
];
