import { uuidv7 } from '@platform/kit';
import { decisionDetail, decisionTitle } from '../domain/decisions.ts';
import type { Decision, DecisionInput } from '../schemas/decisions.ts';
import { insertDecision } from '../store/decisions.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Proposes a decision (editors): title trimmed, 1 to 200 characters (422 invalid_title), optional
 * detail. It reads proposed; project.decision_proposed carries ids only (and feeds the activity).
 * Decisions take no change number: the change feed follows tasks, goals, views and settings.
 */
export async function proposeDecision(ctx: CommandCtx, projectId: string, input: DecisionInput): Promise<Decision> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const title = decisionTitle(input.title);
  const detail = decisionDetail(input.detail);
  const decision = await insertDecision(
    trx,
    { id: uuidv7(now.getTime()), project_id: project.id, title, detail, proposed_by: principal.id },
    now,
  );
  await ctx.emit({
    type: 'project.decision_proposed',
    data: { projectId: project.id, decisionId: decision.id, actor: principal.id },
  });
  return decision;
}
