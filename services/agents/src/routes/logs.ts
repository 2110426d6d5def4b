import { Command, CursorEnvelope, cursorMeta, decodeCursor, Envelope, unprocessable } from '@platform/kit';
import { postLog } from '../commands/logs.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { LogInput, LogLine, LogQuery } from '../schemas/logs.ts';
import { agentFor } from '../store/access.ts';
import { listLogs } from '../store/logs.ts';
import { type Routes, readCaller, route } from './deps.ts';

const tags = ['harness records'];

/** The cursor of the log list: the last line's created_at and id. */
function afterKey(cursor: string | undefined) {
  if (cursor === undefined) return undefined;
  const key = decodeCursor(cursor);
  if (!key || typeof key[0] !== 'string' || typeof key[1] !== 'number' || Number.isNaN(Date.parse(key[0]))) {
    throw unprocessable('validation_failed', 'after is not a cursor this list gave', 'querystring/after');
  }
  return { at: key[0], id: key[1] };
}

/** Log lines and heartbeats of the harness (spec 3, /v1/agents/{id}/logs). */
export const LOG_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/logs',
    action: 'RunAgents',
    tags,
    summary: 'Post a log line; sets the agent’s last_heartbeat_at',
    description:
      'Body {data: {kind, message, tool?}}; kind is started, heartbeat, wake, error, skill, info or warn (others 422). ' +
      'A skill line names the tool and never its result: its stored message is `tool` when sent, else the first word ' +
      'of message (up to a space, colon, parenthesis or equals sign). Needs editor: the harness’s shared service ' +
      'token has it. Publishes no event (heartbeats are not news).',
    params: AgentIdParams,
    body: Command(LogInput),
    response: Envelope(LogLine),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body }) => postLog(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/logs',
    action: 'ReadAgents',
    tags,
    summary: 'Log lines newest first (cursor pages; kind filters)',
    description:
      'Each row is {id, kind, message, created_at}. limit 1-200 (default 50); meta.pagination.nextCursor goes in ' +
      '`after` for the next, older page. Needs viewer.',
    params: AgentIdParams,
    query: LogQuery,
    response: CursorEnvelope(LogLine),
    errors: ['agent_not_found'],
    handler: async (input, deps) => {
      const { params, query } = input;
      const caller = await readCaller(deps, input);
      await agentFor(deps.database.db, caller, params.id, 'viewer');
      const limit = query.limit ?? 50;
      const rows = await listLogs(deps.database.db, params.id, {
        kind: query.kind,
        after: afterKey(query.after),
        limit,
      });
      const page = rows.slice(0, limit);
      const last = rows.length > limit ? page[page.length - 1] : undefined;
      return input.reply.envelope(
        page.map((r) => ({
          id: Number(r.id),
          kind: r.kind as LogLine['kind'],
          message: r.message,
          created_at: r.created_at.toISOString(),
        })),
        cursorMeta(limit, last ? [last.created_at.toISOString(), Number(last.id)] : null),
      );
    },
  }),
];
