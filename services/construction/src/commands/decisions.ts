import { uuidv7 } from '@platform/kit';
import { decisionNotFound, participantList, requireOpenDecision, requireOwnAlternative } from '../domain/decisions.ts';
import type { Decision, DecisionDetail, DecisionInput, OutcomeInput } from '../schemas/registers.ts';
import { alternativesOf, decisionDetail, findDecision, insertDecision, recordOutcome } from '../store/decisions.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** Opens a question on a project with its alternatives and participants (CON-142). */
export async function openDecision(ctx: CommandCtx, input: DecisionInput): Promise<DecisionDetail> {
  const { trx, principal, now } = ctx;
  const project = await projectForWrite(ctx, input.project_id);
  const id = uuidv7(now.getTime());
  const alternatives = (input.alternatives ?? []).map((a) => ({
    id: uuidv7(now.getTime()),
    title: a.title.trim(),
    description: a.description ?? '',
    cost_minor: a.cost_minor ?? null,
  }));
  await insertDecision(
    trx,
    {
      id,
      project_id: project.id,
      question: input.question.trim(),
      context: input.context ?? '',
      created_by: principal.id,
    },
    alternatives,
    participantList(input.participant_fids ?? []),
    now,
  );
  await ctx.emit({
    type: 'decision.opened',
    data: { decision_id: id, project_id: project.id, alternatives: alternatives.length, actor_fid: principal.id },
  });
  const detail = await decisionDetail(trx, id);
  if (!detail) throw decisionNotFound();
  return detail;
}

/**
 * Records the outcome and its cost, once (CON-144; settled: 409 already_decided, CON-146). A
 * chosen alternative must be one of this decision's (422 alternative_of_another_decision, CON-145).
 */
export async function recordDecision(ctx: CommandCtx, id: string, input: OutcomeInput): Promise<Decision> {
  const { trx, principal, now } = ctx;
  const found = await findDecision(trx, id);
  if (!found) throw decisionNotFound();
  await projectForWrite(ctx, found.project_id);
  const decision = await findDecision(trx, id, { lock: true });
  if (!decision) throw decisionNotFound();
  requireOpenDecision(decision);
  const alternativeId = requireOwnAlternative(input.alternative_id, await alternativesOf(trx, id));
  const decided = await recordOutcome(
    trx,
    id,
    {
      outcome: input.outcome.trim(),
      alternative_id: alternativeId,
      cost_minor: input.cost_minor,
      decided_by: principal.id,
    },
    now,
  );
  await ctx.emit({
    type: 'decision.recorded',
    data: {
      decision_id: id,
      project_id: decided.project_id,
      alternative_id: alternativeId,
      cost_minor: input.cost_minor,
      actor_fid: principal.id,
    },
  });
  return decided;
}
