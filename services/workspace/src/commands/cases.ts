import { uuidv7 } from '@platform/kit';
import {
  type CaseRecord,
  caseNotFound,
  caseSubject,
  caseTitle,
  caseView,
  evidenceEntries,
  expectedValue,
  planAmount,
  planCaseEdit,
  planCaseMove,
  proposedCorrection,
  requireOwnerMember,
  stillToCheck,
} from '../domain/cases.ts';
import type { AmountInput, Case, CaseAmount, CaseInput, CasePatch, TransitionInput } from '../schemas/cases.ts';
import { findCase, insertAmount, insertCase, moveCase, updateCase } from '../store/cases.ts';
import { memberRole } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

/**
 * Case commands (issue 16). Editors open, edit, move and add amounts to cases; each command locks
 * the project first (projectForWrite: 404, 403, 409 project_archived) and then the case. Case
 * writes take no change number: the change feed follows tasks, goals, check-ins, views and
 * settings (spec 2, Change following), and cases are none of these.
 */

/** The case on the project, locked for this command, or 404 case_not_found (a case on another project included). */
async function caseForWrite(ctx: CommandCtx, projectId: string, caseId: string): Promise<CaseRecord> {
  const found = await findCase(ctx.trx, projectId, caseId, { lock: true });
  if (!found) throw caseNotFound();
  return found;
}

/**
 * Opens a case in needs_validation. The owner (default: the caller) must be a project member;
 * title and subject are trimmed, 1 to 200 characters; a proposed correction is required. Publishes
 * project.case_opened (and not project.case_updated).
 */
export async function openCase(ctx: CommandCtx, projectId: string, input: CaseInput): Promise<Case> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const fields = {
    title: caseTitle(input.title),
    subject: caseSubject(input.subject),
    evidence: evidenceEntries(input.evidence ?? []),
    proposed_correction: proposedCorrection(input.proposed_correction),
    still_to_check: stillToCheck(input.still_to_check ?? ''),
    expected_value: input.expected_value ? expectedValue(input.expected_value) : null,
  };
  const owner = input.owner ?? principal.id;
  requireOwnerMember((await memberRole(trx, project.id, owner)) !== null);
  const opened = await insertCase(
    trx,
    { id: uuidv7(now.getTime()), project_id: project.id, owner, created_by: principal.id, ...fields },
    now,
  );
  await ctx.emit({
    type: 'project.case_opened',
    data: { projectId: project.id, caseId: opened.id, owner, status: opened.status, actor: principal.id },
  });
  return caseView(opened);
}

/**
 * Edits an open case: only the fields sent change. A verified or dismissed case is 409
 * case_closed and stays as it is. A new owner must be a member. An edit that changes something
 * publishes project.case_updated with the changed field names; one that changes nothing answers
 * the case without an event.
 */
export async function editCase(ctx: CommandCtx, projectId: string, caseId: string, input: CasePatch): Promise<Case> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const current = await caseForWrite(ctx, project.id, caseId);
  const { changes, changedFields } = planCaseEdit(current, input);
  if (changedFields.length === 0) return caseView(current);
  if (changes.owner !== undefined) requireOwnerMember((await memberRole(trx, project.id, changes.owner)) !== null);
  const updated = await updateCase(trx, current.id, changes, now);
  await ctx.emit({
    type: 'project.case_updated',
    data: { projectId: project.id, caseId: current.id, changedFields, actor: principal.id },
  });
  return caseView(updated);
}

/**
 * Moves a case to another state (allowed moves: domain/cases.ts CASE_MOVES). A dismissal needs
 * a reason, a verification a method. Publishes project.case_status_changed (and not
 * project.case_updated).
 */
export async function transitionCase(
  ctx: CommandCtx,
  projectId: string,
  caseId: string,
  input: TransitionInput,
): Promise<Case> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const current = await caseForWrite(ctx, project.id, caseId);
  const move = planCaseMove(current.status, input);
  const moved = await moveCase(trx, current.id, move, now);
  await ctx.emit({
    type: 'project.case_status_changed',
    data: {
      projectId: project.id,
      caseId: current.id,
      fromStatus: current.status,
      toStatus: moved.status,
      actor: principal.id,
    },
  });
  return caseView(moved);
}

/**
 * Records an amount row on a case: its stage must be one the case's state takes (409
 * amount_stage_not_allowed), in integer minor units of an ISO 4217 currency; a collected row
 * says whether it ties to the correction. Publishes project.case_amount_recorded.
 */
export async function recordAmount(
  ctx: CommandCtx,
  projectId: string,
  caseId: string,
  input: AmountInput,
): Promise<CaseAmount> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const current = await caseForWrite(ctx, project.id, caseId);
  const row = planAmount(current.status, input);
  const amount = await insertAmount(
    trx,
    { id: uuidv7(now.getTime()), case_id: current.id, project_id: project.id, recorded_by: principal.id, ...row },
    now,
  );
  await ctx.emit({
    type: 'project.case_amount_recorded',
    data: {
      projectId: project.id,
      caseId: current.id,
      amountId: amount.id,
      stage: amount.stage,
      amount: amount.amount,
      currency: amount.currency,
      actor: principal.id,
    },
  });
  return amount;
}
