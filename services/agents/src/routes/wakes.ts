import { createHash, randomUUID } from 'node:crypto';
import {
  commandScope,
  Envelope,
  headerValue,
  IdempotencyHeaders,
  idempotencyKey,
  OptionalDataCommand,
  type Principal,
  runCommand,
  sendCommandResult,
} from '@platform/kit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CommandCtx } from '../commands/context.ts';
import { issueCallSecret, wakeAgent } from '../commands/wakes.ts';
import { AgentIdParams } from '../schemas/agents.ts';
import { CallerHeaders } from '../schemas/common.ts';
import { CallSecret, InboxItem, InboxQuery, RunBody, Wake, WakeBody } from '../schemas/wakes.ts';
import { agentFor } from '../store/access.ts';
import type { DB } from '../store/db.ts';
import { drainInbox, inboxView } from '../store/inbox.ts';
import { callerHint, type RouteDeps, type Routes, readCaller, route } from './deps.ts';

const tags = ['wakes'];

/** Requests whose Idempotency-Key this service derived (none was sent). */
const derivedKeys = new WeakSet<FastifyRequest>();

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * POST .../wake takes no Idempotency-Key of its own (AGT-186): without one, the key is derived
 * before the command runs. With a ref it is the agent, reason, ref and caller, so every retry of
 * one wake by one caller replays its answer (and a wake by another caller meets the same inbox
 * row through wake_key); without a ref each request gets its own key and the inbox folds it into
 * the wake of that reason still waiting. A sent key wins.
 */
const deriveWakeKey = async (req: FastifyRequest) => {
  if (headerValue(req, 'idempotency-key') !== undefined) return;
  const data = (req.body as { data?: { reason?: unknown; ref?: unknown } } | null | undefined)?.data;
  const reason = typeof data?.reason === 'string' ? data.reason : '';
  const ref = typeof data?.ref === 'string' ? data.ref : null;
  const id = String((req.params as { id?: string }).id ?? '').toLowerCase();
  req.headers['idempotency-key'] =
    ref === null ? `wake-${randomUUID()}` : `wake-${sha256([id, reason, ref, req.principal?.id ?? ''].join('\n'))}`;
  derivedKeys.add(req);
};

/** What makes this wake the same as another (agent_inbox.wake_key). */
const wakeKeyOf = (req: FastifyRequest, reason: string, ref: string | null) =>
  derivedKeys.has(req) ? (ref === null ? null : `ref:${reason}:${ref}`) : `key:${idempotencyKey(req)}`;

const WAKE_ANSWER =
  'Answers 202 with the inbox item and queued: true when this request queued it, false when the same wake was ' +
  'already queued (nothing more is written, no second agent.woken). Wakes queue whatever the agent’s state: a ' +
  'stopped agent’s harness finds them when it next runs. Needs the editor role (404 without access, 403 ' +
  'insufficient_role for a viewer); the service token holds it on every agent.';

/**
 * A command whose answer holds a secret: it is added to the answer of the request that made it
 * and never stored with the idempotency record, so a replay answers without it.
 */
async function showOnce<T extends object, Once extends object>(
  deps: RouteDeps,
  input: { req: FastifyRequest; reply: FastifyReply; principal: Principal },
  work: (ctx: CommandCtx) => Promise<{ data: T; once: Once }>,
  status: number,
) {
  let once: Once | undefined;
  const now = deps.clock();
  const hint = callerHint(input.req, input.principal, deps.can);
  const result = await runCommand({ db: deps.database.db, req: input.req, principal: input.principal }, async (trx) => {
    const shown = await work({ ...commandScope<DB>(deps, trx, input.principal, now), hint } as unknown as CommandCtx);
    once = shown.once;
    return { status, data: shown.data };
  });
  return sendCommandResult(input.reply, result.replayed ? result : { ...result, data: { ...result.data, ...once } });
}

/** Wakes, the manual run, the harness's drain and call secrets (spec 3, Agents endpoints). */
export const WAKE_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/agents/:id/wake',
    action: 'RunAgents',
    tags,
    summary: 'Queue a wake (comms, dream, harvest or manual); the Idempotency-Key is derived when not sent',
    description:
      'Body {data: {reason, ref?}}. Without an Idempotency-Key the key is derived from the agent, reason and ref: ' +
      'the same reason and ref queue one wake, ever, whoever sends it; without a ref a wake of a reason already ' +
      'waiting (not yet drained) is that wake. A sent Idempotency-Key wins: it is the wake’s key (a replay answers ' +
      `the stored result; another body under it is 409 idempotency_key_reused). ${WAKE_ANSWER} Callers: staff, ` +
      'the service token, and the scheduler with X-Platform-Scheduler-Token (SCHEDULER_TOKEN). Publishes agent.woken ' +
      'with the reason.',
    // Not a command to the route checks: it needs no Idempotency-Key (AGT-186); it still runs as one.
    command: false,
    params: AgentIdParams,
    body: WakeBody,
    response: Envelope(Wake),
    status: 202,
    schema: {
      headers: Type.Object({
        ...IdempotencyHeaders.properties,
        ...CallerHeaders,
        'x-platform-scheduler-token': Type.Optional(
          Type.String({ description: 'The scheduler’s token (SCHEDULER_TOKEN), instead of any other proof' }),
        ),
      }),
    },
    preValidation: [deriveWakeKey],
    errors: ['agent_not_found', 'insufficient_role', 'invalid_idempotency_key', 'idempotency_key_reused'],
    run: (ctx, { params, body, req }) =>
      wakeAgent(ctx, params.id, {
        reason: body.data.reason,
        ref: body.data.ref ?? null,
        wakeKey: wakeKeyOf(req, body.data.reason, body.data.ref ?? null),
      }),
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/run',
    action: 'RunAgents',
    tags,
    summary: 'Run the agent now: a manual wake (reason manual), queued for its harness',
    description:
      'Body optional: {data: {ref?}}. Needs an Idempotency-Key like every command: each key is one manual wake ' +
      `(retries replay it). ${WAKE_ANSWER} Publishes agent.woken with reason manual.`,
    params: AgentIdParams,
    body: RunBody,
    emptyBody: true,
    response: Envelope(Wake),
    status: 202,
    errors: ['agent_not_found', 'insufficient_role'],
    run: (ctx, { params, body, req }) =>
      wakeAgent(ctx, params.id, {
        reason: 'manual',
        ref: body.data?.ref ?? null,
        wakeKey: `key:${idempotencyKey(req)}`,
      }),
  }),

  route({
    method: 'GET',
    url: '/v1/agents/:id/inbox',
    action: 'RunAgents',
    tags,
    summary: 'The harness’s drain: hands out the waiting wakes, oldest first, each once',
    description:
      'A read that changes state, as the spec names it: each item is handed out once and marked drained in the ' +
      'same statement (a concurrent drain never gets the same item); a second drain answers only wakes queued since. ' +
      'limit (1-100, default 20) bounds one drain. Drained items are kept (drained_at set): a run names the wake it ' +
      'answers, and a keyed wake already handed out still answers its retries instead of queueing again. Needs the ' +
      'editor role; the harness calls it with the service token (AGT-195, AGT-315). Not a command: no ' +
      'Idempotency-Key, and an answer lost on the way loses its wakes (at most once).',
    params: AgentIdParams,
    query: InboxQuery,
    response: Envelope(Type.Array(InboxItem)),
    errors: ['agent_not_found', 'insufficient_role'],
    handler: async (input, deps) => {
      const db = deps.database.db;
      const caller = await readCaller(deps, input);
      const limit = input.query.limit ?? 20;
      if (caller.service || caller.agentId === input.params.id) {
        // The service token is an editor on every agent (AGT-317), and an agent naming itself in
        // X-Platform-Agent-Id (the harness) acts as its owner (AGT-316, found by resolveCaller):
        // only a missing agent could refuse, and a wake handed out proves it exists, so the
        // harness's drain is the claim alone.
        const items = await drainInbox(db, input.params.id, limit, deps.clock());
        if (items.length === 0 && caller.service) await agentFor(db, caller, input.params.id, 'editor');
        return input.reply.envelope(items.map(inboxView));
      }
      const { agent } = await agentFor(db, caller, input.params.id, 'editor');
      const items = await drainInbox(db, agent.id, limit, deps.clock());
      return input.reply.envelope(items.map(inboxView));
    },
  }),

  route({
    method: 'POST',
    url: '/v1/agents/:id/call-secret',
    action: 'RunAgents',
    tags,
    summary: 'A one-time call secret for a persistent on-demand agent: the plaintext is in this answer only',
    description:
      'No body. Only the secret’s hash is stored; a new secret replaces one still waiting. call_secret_pending is then ' +
      'true until a call consumes it. A replay of the same Idempotency-Key answers without the secret. Always-on ' +
      'and ephemeral agents take no calls: 409 agent_not_on_demand. Needs the editor role. Publishes ' +
      'agent.call_secret_issued.',
    params: AgentIdParams,
    body: OptionalDataCommand(Type.Object({}, { additionalProperties: false })),
    emptyBody: true,
    command: true,
    response: Envelope(CallSecret),
    status: 201,
    errors: ['agent_not_found', 'insufficient_role', 'agent_not_on_demand'],
    handler: async (input, deps) => showOnce(deps, input, (ctx) => issueCallSecret(ctx, input.params.id), 201),
  }),
];
