import { uuidv7 } from '@platform/kit';
import {
  type HandoffPackage,
  type HandoffRecord,
  handoffNotFound,
  handoffTexts,
  missingText,
  packageOf,
  planHandoffEdit,
  requireCancellable,
  requireCanceller,
  requireCurrentOffer,
  requiredRevision,
  requireLinkedCase,
  requireNamedReceiver,
  requireOfferable,
  requireReceiver,
  requireSender,
} from '../domain/handoffs.ts';
import { roleAtLeast } from '../domain/roles.ts';
import type { HandoffActionInput, HandoffDetail, HandoffInput, HandoffPatch } from '../schemas/handoffs.ts';
import {
  caseOnProject,
  findHandoff,
  handoffDetail,
  handoffView,
  insertHandoff,
  insertReceipt,
  updateHandoff,
} from '../store/handoffs.ts';
import { insertNotification } from '../store/notifications.ts';
import { memberRole } from '../store/projects.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';
import { closeRequestsWaitingOn, openUnblockRequest } from './unblock-requests.ts';

/** The handoff on the project, locked for this command, or 404 handoff_not_found. */
async function handoffOnProject(ctx: CommandCtx, projectId: string, id: string): Promise<HandoffRecord> {
  const h = await findHandoff(ctx.trx, projectId, id, { lock: true });
  if (!h) throw handoffNotFound();
  return h;
}

/** The receiver (a member other than the sender) and the linked case (of the project), when they change. */
async function checkPeopleAndCase(ctx: CommandCtx, projectId: string, sender: string, p: Partial<HandoffPackage>) {
  if (p.receiver !== undefined) {
    requireReceiver(p.receiver, sender, (await memberRole(ctx.trx, projectId, p.receiver)) !== null);
  }
  if (p.case_id) requireLinkedCase(await caseOnProject(ctx.trx, projectId, p.case_id));
}

const eventData = (h: HandoffRecord, actor: string) => ({
  projectId: h.project_id,
  handoffId: h.id,
  revision: h.revision,
  sender: h.sender,
  receiver: h.receiver,
  actor,
});

const notify = (ctx: CommandCtx, h: HandoffRecord, recipient: string, kind: string) =>
  insertNotification(
    ctx.trx,
    { recipient, kind, project_id: h.project_id, subject_id: h.id, actor: ctx.principal.id },
    ctx.now,
  );

/** Offers the handoff (draft or changes requested to offered); the receiver is notified. */
async function offer(ctx: CommandCtx, h: HandoffRecord): Promise<HandoffRecord> {
  requireOfferable(h);
  const offered = await updateHandoff(ctx.trx, h.id, { status: 'offered', offered_at: ctx.now }, ctx.now);
  await ctx.emit({ type: 'project.handoff_offered', data: eventData(offered, ctx.principal.id) });
  await notify(ctx, offered, offered.receiver, 'handoff_offered');
  return offered;
}

/**
 * Drafts a handoff (editors; the caller is its sender) to a receiver who is another member of the
 * project, with an optional linked case of the project. `offer: true` offers it at once.
 */
export async function createHandoff(ctx: CommandCtx, projectId: string, input: HandoffInput): Promise<HandoffDetail> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const texts = handoffTexts(input);
  const pkg: HandoffPackage = {
    receiver: input.receiver,
    title: texts.title as string,
    next_step: texts.next_step as string,
    must_stay_true: texts.must_stay_true ?? [],
    evidence_links: texts.evidence_links ?? [],
    verify_by: input.verify_by ?? null,
    due_on: input.due_on,
    case_id: input.case_id ?? null,
  };
  await checkPeopleAndCase(ctx, project.id, principal.id, pkg);
  let h = await insertHandoff(
    trx,
    { ...pkg, id: uuidv7(now.getTime()), project_id: project.id, sender: principal.id },
    now,
  );
  await ctx.emit({ type: 'project.handoff_created', data: eventData(h, principal.id) });
  if (input.offer) h = await offer(ctx, h);
  return handoffDetail(trx, h, now);
}

/**
 * The sender's edit (editors). A draft changes in place; an offered, changes-requested or accepted
 * handoff becomes a draft of a new revision (earlier receipts stay). Nothing changed: no revision,
 * no event. A cancelled handoff is 409 invalid_handoff_transition.
 */
export async function editHandoff(
  ctx: CommandCtx,
  projectId: string,
  handoffId: string,
  input: HandoffPatch,
): Promise<HandoffDetail> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const h = await handoffOnProject(ctx, project.id, handoffId);
  requireSender(h, principal.id, 'edit it');
  const sent: Partial<HandoffPackage> = { ...input, ...handoffTexts(input) };
  const plan = planHandoffEdit(h, sent);
  if (plan.changedFields.length === 0) return handoffDetail(trx, h, now);
  await checkPeopleAndCase(ctx, project.id, h.sender, plan.changes);
  const updated = await updateHandoff(
    trx,
    h.id,
    plan.newRevision
      ? { ...plan.changes, status: 'draft', revision: h.revision + 1, offered_at: null, accepted_at: null }
      : plan.changes,
    now,
  );
  await ctx.emit({
    type: 'project.handoff_updated',
    data: { ...eventData(updated, principal.id), changedFields: plan.changedFields },
  });
  return handoffDetail(trx, updated, now);
}

/**
 * One move of a handoff: offer (the sender), accept and request_changes (the named receiver, on
 * the revision they read: another is 409 stale_revision), cancel (the sender or an owner, before
 * acceptance). Offer, changes requested and acceptance notify the other person in the same
 * transaction; changes requested also opens an unblock request for the sender there.
 */
export async function actOnHandoff(
  ctx: CommandCtx,
  projectId: string,
  handoffId: string,
  input: HandoffActionInput,
): Promise<HandoffDetail> {
  const { trx, principal, now } = ctx;
  const me = principal.id;
  const needed = input.action === 'offer' || input.action === 'cancel' ? 'editor' : 'viewer';
  const { project, role } = await projectForWrite(ctx, projectId, needed);
  const h = await handoffOnProject(ctx, project.id, handoffId);

  switch (input.action) {
    case 'offer': {
      requireSender(h, me, 'offer it');
      return handoffDetail(trx, await offer(ctx, h), now);
    }
    case 'accept': {
      requireNamedReceiver(h, me, 'accept it');
      requireCurrentOffer(h, requiredRevision(input.revision, 'accept'), handoffView(h, now), 'accepted');
      await insertReceipt(
        trx,
        { handoff_id: h.id, project_id: h.project_id, revision: h.revision, accepted_by: me, pkg: packageOf(h) },
        now,
      );
      const accepted = await updateHandoff(trx, h.id, { status: 'accepted', accepted_at: now }, now);
      // The acceptance answers whatever the receiver still asked the sender about this handoff.
      await closeRequestsWaitingOn(ctx, 'handoff', h.id, 'superseded');
      await ctx.emit({ type: 'project.handoff_accepted', data: eventData(accepted, me) });
      await notify(ctx, accepted, accepted.sender, 'handoff_accepted');
      return handoffDetail(trx, accepted, now);
    }
    case 'request_changes': {
      requireNamedReceiver(h, me, 'ask for changes');
      requireCurrentOffer(h, requiredRevision(input.revision, 'request_changes'), handoffView(h, now), 'sent back');
      const missing = missingText(input.missing);
      const changed = await updateHandoff(trx, h.id, { status: 'changes_requested' }, now);
      await closeRequestsWaitingOn(ctx, 'handoff', h.id, 'superseded');
      const request = await openUnblockRequest(
        ctx,
        {
          project_id: h.project_id,
          asker: me,
          recipient: h.sender,
          needed: missing,
          why_now: `The handoff "${h.title}" (revision ${h.revision}) cannot be accepted until this is provided`,
          waiting_type: 'handoff',
          waiting_id: h.id,
          answer_kind: 'explanation',
          options: [],
          due_on: h.due_on,
          snoozed_until: null,
          ranking_reason: `Blocks a handoff due ${h.due_on}`,
          source: 'handoff',
        },
        false,
      );
      await ctx.emit({
        type: 'project.handoff_changes_requested',
        data: { ...eventData(changed, me), unblockRequestId: request.id },
      });
      await notify(ctx, changed, changed.sender, 'handoff_changes_requested');
      return handoffDetail(trx, changed, now);
    }
    case 'cancel': {
      requireCanceller(h, me, roleAtLeast(role, 'owner'));
      requireCancellable(h);
      const cancelled = await updateHandoff(trx, h.id, { status: 'cancelled', cancelled_at: now }, now);
      await closeRequestsWaitingOn(ctx, 'handoff', h.id, 'withdrawn');
      await ctx.emit({ type: 'project.handoff_cancelled', data: eventData(cancelled, me) });
      return handoffDetail(trx, cancelled, now);
    }
  }
}
