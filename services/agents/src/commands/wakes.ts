import { createHash, randomBytes } from 'node:crypto';
import { conflict, unprocessable, uuidv7 } from '@platform/kit';
import { agentNotFound } from '../domain/access.ts';
import type { RunRecordInput, Wake, WakeReason } from '../schemas/wakes.ts';
import { agentFor, resolveCaller } from '../store/access.ts';
import { findInboxItem, inboxView, queueWake } from '../store/inbox.ts';
import { insertRun, isRunOfSameWake, runView } from '../store/runs.ts';
import { actorOf, refOf } from './agents.ts';
import type { CommandCtx } from './context.ts';

export interface WakeRequest {
  reason: WakeReason;
  ref: string | null;
  /** What makes two wakes the same one (agent_inbox.wake_key): null coalesces with the waiting wake of the reason. */
  wakeKey: string | null;
}

/** A foreign-key violation on the agent: it was deleted while the wake was being queued. */
const isAgentGone = (e: unknown) => (e as { code?: string }).code === '23503';

/**
 * POST .../wake and .../run: queues the wake unless the same one is already queued, in any state
 * of the agent (a stopped agent finds it when it next runs). Needs the editor role; the service
 * token and the scheduler hold it on every agent (AGT-317, AGT-318). Only a wake this request
 * queued publishes agent.woken, so one wake is one event however often it is sent (AGT-333).
 */
export async function wakeAgent(ctx: CommandCtx, agentId: string, wake: WakeRequest): Promise<Wake> {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await agentFor(ctx.trx, caller, agentId, 'editor');
  let result: Awaited<ReturnType<typeof queueWake>>;
  try {
    result = await queueWake(ctx.trx, {
      id: uuidv7(ctx.now.getTime()),
      agent_id: agent.id,
      reason: wake.reason,
      ref: wake.ref,
      wake_key: wake.wakeKey,
      queued_by: actorOf(caller),
      queued_at: ctx.now,
    });
  } catch (e) {
    if (isAgentGone(e)) throw agentNotFound();
    throw e;
  }
  if (result.queued) {
    await ctx.emit({
      type: 'agent.woken',
      data: { ...refOf(agent, actorOf(caller)), reason: wake.reason, inbox_item_id: result.item.id },
    });
  }
  return { ...inboxView(result.item), queued: result.queued };
}

/**
 * POST .../runs: the harness records a completed wake. A run naming an inbox item takes its reason
 * (a different one sent is 422) and is the only run of that wake (409 run_already_recorded).
 */
export async function recordRun(ctx: CommandCtx, agentId: string, input: RunRecordInput) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await agentFor(ctx.trx, caller, agentId, 'editor');
  const started = new Date(input.started_at);
  const finished = new Date(input.finished_at);
  if (finished < started) {
    throw unprocessable('run_times_invalid', 'finished_at is before started_at', 'data/finished_at');
  }
  let reason = input.reason;
  if (input.inbox_item_id !== undefined) {
    const item = await findInboxItem(ctx.trx, agent.id, input.inbox_item_id);
    if (!item) {
      throw unprocessable('inbox_item_not_found', 'No such wake in this agent’s inbox', 'data/inbox_item_id');
    }
    if (reason !== undefined && reason !== item.reason) {
      throw unprocessable('run_reason_invalid', `The wake's reason is ${item.reason}`, 'data/reason');
    }
    reason = item.reason as WakeReason;
  }
  if (reason === undefined) {
    throw unprocessable('run_reason_invalid', 'reason is required without inbox_item_id', 'data/reason');
  }
  const actor = actorOf(caller);
  let row: Awaited<ReturnType<typeof insertRun>>;
  try {
    row = await insertRun(ctx.trx, {
      id: uuidv7(ctx.now.getTime()),
      agent_id: agent.id,
      inbox_item_id: input.inbox_item_id ?? null,
      reason,
      started_at: started,
      finished_at: finished,
      outcome: input.outcome,
      turns: input.turns,
      model: input.model ?? null,
      summary: input.summary ?? null,
      recorded_by: actor,
      created_at: ctx.now,
    });
  } catch (e) {
    if (isRunOfSameWake(e)) throw conflict('run_already_recorded', 'This wake already has its run');
    if (isAgentGone(e)) throw agentNotFound();
    throw e;
  }
  await ctx.emit({
    type: 'agent.run_recorded',
    data: {
      ...refOf(agent, actor),
      run_id: row.id,
      inbox_item_id: row.inbox_item_id,
      reason: row.reason,
      outcome: row.outcome,
    },
  });
  return runView(row);
}

/** The stored form of a call secret: its SHA-256, hex (AGT-052: never returned). */
export const callSecretHash = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex');

export const notOnDemand = () =>
  conflict('agent_not_on_demand', 'Only a persistent on-demand agent takes calls and call secrets');

/**
 * POST .../call-secret: a fresh one-time secret for a persistent on-demand agent; only its hash
 * is stored, replacing any secret still waiting (AGT-050, AGT-052, AGT-187). The plaintext goes
 * in `once`, which the route adds to this answer only.
 */
export async function issueCallSecret(ctx: CommandCtx, agentId: string) {
  const caller = await resolveCaller(ctx.trx, ctx.principal, ctx.hint);
  const { agent } = await agentFor(ctx.trx, caller, agentId, 'editor', { lock: true });
  if (agent.lifetime !== 'persistent' || agent.run_type !== 'on_demand') throw notOnDemand();
  const secret = `ods_${randomBytes(32).toString('base64url')}`;
  await ctx.trx
    .updateTable('agents')
    .set({ call_secret_hash: callSecretHash(secret) })
    .where('id', '=', agent.id)
    .execute();
  await ctx.emit({ type: 'agent.call_secret_issued', data: refOf(agent, actorOf(caller)) });
  return { data: { agent_id: agent.id, slug: agent.slug, call_secret_pending: true }, once: { secret } };
}
