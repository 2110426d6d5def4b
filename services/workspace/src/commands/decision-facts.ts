import { unprocessable } from '@platform/kit';
import {
  decisionDetail,
  decisionNotFound,
  decisionTitle,
  FACT_KIND,
  requireOpen,
  requireProposed,
} from '../domain/decisions.ts';
import type { ApproveDecisionInput, Decision, DecisionPatch } from '../schemas/decisions.ts';
import {
  approveDecision as approveRow,
  archiveDecisionRow,
  findDecision,
  supersedeDecision,
  updateDecisionText,
} from '../store/decisions.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Approves a proposed decision (owners): it becomes a fact of its project. project.decision_approved
 * and fact.recorded; with `supersedes` (an approved decision of the project), that one becomes
 * superseded by this one and fact.superseded is published for it, in the same transaction.
 */
export async function approveDecisionAsFact(
  ctx: CommandCtx,
  projectId: string,
  decisionId: string,
  input: ApproveDecisionInput = {},
): Promise<Decision> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const decision = await findDecision(trx, project.id, decisionId, { lock: true });
  if (!decision) throw decisionNotFound();
  requireProposed(decision.status);
  let replaced: Decision | undefined;
  if (input.supersedes !== undefined) {
    replaced =
      input.supersedes === decision.id
        ? undefined
        : await findDecision(trx, project.id, input.supersedes, { lock: true });
    if (replaced?.status !== 'approved') {
      throw unprocessable(
        'invalid_supersedes',
        'supersedes must name another approved decision of this project',
        'data/supersedes',
      );
    }
    await supersedeDecision(trx, replaced.id, decision.id, now);
  }
  const approved = await approveRow(trx, decision.id, principal.id, now, replaced?.id ?? null);
  const base = { projectId: project.id, actor: principal.id };
  await ctx.emit([
    { type: 'project.decision_approved', data: { ...base, decisionId: decision.id } },
    ...(replaced
      ? [
          {
            type: 'fact.superseded' as const,
            data: { ...base, factId: replaced.id, kind: FACT_KIND, supersededBy: decision.id },
          },
        ]
      : []),
    {
      type: 'fact.recorded',
      data: { ...base, factId: decision.id, kind: FACT_KIND, supersedes: replaced?.id ?? null },
    },
  ]);
  return approved;
}

/**
 * Edits a decision's title or detail (owners). project.decision_updated names the changed fields;
 * on an approved decision (a fact) fact.updated too. Unchanged text writes and publishes nothing.
 * A superseded or archived decision is 409 decision_closed.
 */
export async function editDecision(
  ctx: CommandCtx,
  projectId: string,
  decisionId: string,
  patch: DecisionPatch,
): Promise<Decision> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const decision = await findDecision(trx, project.id, decisionId, { lock: true });
  if (!decision) throw decisionNotFound();
  requireOpen(decision.status);
  const title = patch.title === undefined ? decision.title : decisionTitle(patch.title);
  const detail = patch.detail === undefined ? decision.detail : decisionDetail(patch.detail);
  const changedFields = [
    ...(title !== decision.title ? ['title'] : []),
    ...(detail !== decision.detail ? ['detail'] : []),
  ];
  if (changedFields.length === 0) return decision;
  const updated = await updateDecisionText(trx, decision.id, { title, detail }, now);
  const base = { projectId: project.id, actor: principal.id, changedFields };
  await ctx.emit([
    { type: 'project.decision_updated', data: { ...base, decisionId: decision.id } },
    ...(decision.status === 'approved'
      ? [{ type: 'fact.updated' as const, data: { ...base, factId: decision.id, kind: FACT_KIND } }]
      : []),
  ]);
  return updated;
}

/**
 * Archives a decision (owners): a proposal is withdrawn, an approved one (a fact) retired with
 * fact.archived. Archived or superseded already: 409 decision_closed.
 */
export async function archiveDecision(ctx: CommandCtx, projectId: string, decisionId: string): Promise<Decision> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'owner');
  const decision = await findDecision(trx, project.id, decisionId, { lock: true });
  if (!decision) throw decisionNotFound();
  requireOpen(decision.status);
  const archived = await archiveDecisionRow(trx, decision.id, now);
  const base = { projectId: project.id, actor: principal.id };
  await ctx.emit([
    { type: 'project.decision_archived', data: { ...base, decisionId: decision.id } },
    ...(decision.status === 'approved'
      ? [{ type: 'fact.archived' as const, data: { ...base, factId: decision.id, kind: FACT_KIND } }]
      : []),
  ]);
  return archived;
}
