import { uuidv7 } from '@platform/kit';
import { costEventNotFound, requireReversal } from '../domain/budget.ts';
import type { BudgetLine, CostEvent, CostInput, LineInput } from '../schemas/budget.ts';
import { findCost, insertCost, upsertLine } from '../store/budget.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/** Adds the line of a category or changes its budget (CON-067, CON-068); the project's budget total follows. */
export async function setBudgetLine(ctx: CommandCtx, projectId: string, input: LineInput): Promise<BudgetLine> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const { line, previous } = await upsertLine(trx, projectId, input.category, input.budget_minor, now);
  if (previous !== input.budget_minor) {
    await emit({
      type: 'development_project.budget_line_set',
      data: {
        project_id: projectId,
        category: input.category,
        budget_minor: input.budget_minor,
        previous_minor: previous,
        actor_fid: principal.id,
      },
    });
  }
  return line;
}

/**
 * Records a cost event (CON-069). Events are never changed: a correction is a new event, a
 * reversal names the event it undoes. A category with no line gets one with budget 0. The line's
 * committed and actual and the project's totals are moved by the database in this transaction.
 */
export async function recordCost(ctx: CommandCtx, projectId: string, input: CostInput): Promise<CostEvent> {
  const { trx, principal, now, emit } = ctx;
  await projectForWrite(ctx, projectId);
  const reverses = input.reverses_id ?? null;
  if (reverses !== null) {
    const original = await findCost(trx, projectId, reverses);
    if (!original) throw costEventNotFound();
    requireReversal(original, input);
  }
  const cost = await insertCost(
    trx,
    {
      id: uuidv7(now.getTime()),
      project_id: projectId,
      category: input.category,
      kind: input.kind,
      amount_minor: input.amount_minor,
      occurred_on: input.occurred_on,
      description: input.description ?? null,
      reverses_id: reverses,
    },
    principal.id,
    now,
  );
  await emit({
    type: 'development_project.cost_recorded',
    data: {
      project_id: projectId,
      cost_event_id: cost.id,
      category: cost.category,
      kind: cost.kind,
      amount_minor: cost.amount_minor,
      reverses_id: reverses,
      actor_fid: principal.id,
    },
  });
  return cost;
}
