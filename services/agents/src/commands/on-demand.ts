import { timingSafeEqual } from 'node:crypto';
import { AppError, commandScope, forbidden, type Principal, uuidv7 } from '@platform/kit';
import { sql } from 'kysely';
import { type BrokerClient, brokerNotConfigured, type ChatMessage } from '../clients/broker.ts';
import { agentNotFound } from '../domain/access.ts';
import type { RouteDeps } from '../routes/deps.ts';
import { type AgentRow, findAgent, findAgentBySlug } from '../store/agents.ts';
import type { DB } from '../store/db.ts';
import { insertRun } from '../store/runs.ts';
import { refOf } from './agents.ts';
import type { CommandCtx } from './context.ts';
import { callSecretHash, notOnDemand } from './wakes.ts';

export const secretInvalid = () =>
  forbidden('X-Platform-On-Demand-Secret is missing, wrong or already used', 'on_demand_secret_invalid');

export const notAcceptingCalls = () =>
  new AppError(409, 'agent_not_accepting_calls', 'The on-demand agent is not started: start it to take calls');

const sameHash = (a: string | null, b: string) =>
  a !== null && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** Why an agent holding this secret's hash does not take the call now, or null when it does. */
function refusal(agent: AgentRow, hash: string): AppError | null {
  if (!sameHash(agent.call_secret_hash, hash)) return secretInvalid();
  if (agent.lifetime !== 'persistent' || agent.run_type !== 'on_demand') return notOnDemand();
  if (agent.status !== 'active' || agent.desired_state !== 'running') return notAcceptingCalls();
  return null;
}

export interface OnDemandCall {
  slug: string;
  secret: string | undefined;
  message: string;
  principal: Principal;
}

/**
 * POST /v1/agents/on-demand/{slug} (AGT-188..AGT-194). The secret is consumed by one conditional
 * update that also requires the agent to be a started, active, persistent on-demand agent: of
 * concurrent calls with one secret exactly one gets the row, the others wait on its lock and then
 * match nothing (403). The broker turn runs in that transaction, so a broker failure (502) rolls
 * the consumption back and the secret still works; success commits the consumption, the run and
 * agent.called together. No workload is involved: desired_state and generation are untouched (AGT-192).
 */
export async function callOnDemand(deps: RouteDeps, call: OnDemandCall) {
  const broker: BrokerClient | undefined = deps.broker;
  if (!broker) throw brokerNotConfigured();
  const found = await findAgentBySlug(deps.database.db, call.slug.toLowerCase());
  if (!found) throw agentNotFound();
  if (call.secret === undefined || call.secret === '') throw secretInvalid();
  const hash = callSecretHash(call.secret);
  const refused = refusal(found, hash);
  if (refused) throw refused;

  const now = deps.clock();
  return deps.database.db.transaction().execute(async (trx) => {
    const ctx = commandScope<DB>(deps, trx, call.principal, now) as unknown as CommandCtx;
    const consumed = await sql<{ id: string }>`
      UPDATE agents SET call_secret_hash = NULL
      WHERE id = ${found.id} AND call_secret_hash = ${hash}
        AND lifetime = 'persistent' AND run_type = 'on_demand' AND status = 'active' AND desired_state = 'running'
      RETURNING id`.execute(trx);
    if (consumed.rows.length === 0) {
      // Another call consumed it first, or the agent changed meanwhile: say which.
      const now_ = await findAgent(trx, found.id);
      throw (now_ && refusal(now_, hash)) ?? secretInvalid();
    }
    const messages: ChatMessage[] = [
      ...(found.instructions ? [{ role: 'system' as const, content: found.instructions }] : []),
      { role: 'user', content: call.message },
    ];
    const started = deps.clock();
    const answer = await broker.chat({ onBehalfOf: found.email, model: found.model, messages });
    const run = await insertRun(trx, {
      id: uuidv7(now.getTime()),
      agent_id: found.id,
      inbox_item_id: null,
      reason: 'on_demand',
      started_at: started,
      finished_at: new Date(Math.max(started.getTime(), deps.clock().getTime())),
      outcome: 'completed',
      turns: 1,
      model: answer.model,
      summary: null,
      recorded_by: call.principal.id,
      created_at: now,
    });
    await ctx.emit({
      type: 'agent.called',
      data: { ...refOf(found, call.principal.id), run_id: run.id, reason: 'on_demand' },
    });
    return { reply: answer.content, run_id: run.id };
  });
}
