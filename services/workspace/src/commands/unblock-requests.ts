import { uuidv7 } from '@platform/kit';
import {
  answerOptions,
  answerText,
  defaultRankingReason,
  requireParticipant,
  requirePersonSource,
  requireRecipient,
  requireStateFor,
  requireTheAsker,
  requireTheRecipient,
  requireWaitingRecord,
  snoozeUntil,
  type UnblockRecord,
  type UnblockStatus,
  unblockRequestNotFound,
  unblockTexts,
  type WaitingType,
} from '../domain/unblock-requests.ts';
import type { UnblockActionInput, UnblockInput, UnblockRequest } from '../schemas/unblock-requests.ts';
import { insertNotification } from '../store/notifications.ts';
import { memberRole } from '../store/projects.ts';
import {
  findUnblockRequest,
  insertAnswer,
  insertUnblockRequest,
  liveRequestsWaitingOn,
  type NewUnblockRequest,
  sendBackAnswer,
  unblockViews,
  updateUnblockRequest,
  waitingRecordOnProject,
} from '../store/unblock-requests.ts';
import type { CommandCtx } from './context.ts';
import { projectForWrite } from './project-access.ts';

const asRead = async (ctx: CommandCtx, r: UnblockRecord): Promise<UnblockRequest> =>
  (await unblockViews(ctx.trx, [r]))[0] as UnblockRequest;

const people = (r: UnblockRecord) => ({
  projectId: r.project_id,
  requestId: r.id,
  asker: r.asker,
  recipient: r.recipient,
});

/**
 * Writes an open request and publishes project.unblock_request_opened, in the caller's
 * transaction (a person's POST, or a handoff's changes request). Notifies the recipient unless
 * `notify` is false (a handoff's changes request notifies the sender once, as the handoff).
 */
export async function openUnblockRequest(
  ctx: CommandCtx,
  r: Omit<NewUnblockRequest, 'id'>,
  notify: boolean,
): Promise<UnblockRecord> {
  const { trx, principal, now } = ctx;
  const created = await insertUnblockRequest(trx, { ...r, id: uuidv7(now.getTime()) }, now);
  await ctx.emit({
    type: 'project.unblock_request_opened',
    data: { ...people(created), answerKind: created.answer_kind, source: created.source, actor: principal.id },
  });
  if (notify) {
    await insertNotification(
      trx,
      {
        recipient: created.recipient,
        kind: 'unblock_request_opened',
        project_id: created.project_id,
        subject_id: created.id,
        actor: principal.id,
      },
      now,
    );
  }
  return created;
}

/**
 * Opens an unblock request (editors): one question for one project member other than the asker;
 * an agent source is refused (422 agent_source_refused) before anything is written; the waiting
 * record is a task, goal or handoff of the project. The recipient is notified.
 */
export async function createUnblockRequest(
  ctx: CommandCtx,
  projectId: string,
  input: UnblockInput,
): Promise<UnblockRequest> {
  requirePersonSource(input.source);
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'editor');
  const texts = unblockTexts(input);
  const options = answerOptions(input.answer_kind, input.options);
  requireRecipient(input.recipient, principal.id, (await memberRole(trx, project.id, input.recipient)) !== null);
  const waiting = input.waiting_record;
  requireWaitingRecord(await waitingRecordOnProject(trx, project.id, waiting.type, waiting.id));
  const snoozed = input.snoozed_until ? snoozeUntil(input.snoozed_until, now) : null;
  const dueOn = input.due_on ?? null;

  const created = await openUnblockRequest(
    ctx,
    {
      project_id: project.id,
      asker: principal.id,
      recipient: input.recipient,
      needed: texts.needed,
      why_now: texts.why_now,
      waiting_type: waiting.type,
      waiting_id: waiting.id,
      answer_kind: input.answer_kind,
      options,
      due_on: dueOn,
      snoozed_until: snoozed,
      ranking_reason: texts.ranking_reason ?? defaultRankingReason(dueOn, now),
      source: 'person',
    },
    true,
  );
  return asRead(ctx, created);
}

/** The request on the project, locked for this command, or 404 unblock_request_not_found. */
async function requestOnProject(ctx: CommandCtx, projectId: string, id: string): Promise<UnblockRecord> {
  const r = await findUnblockRequest(ctx.trx, projectId, id, { lock: true });
  if (!r) throw unblockRequestNotFound();
  return r;
}

/**
 * One move of a request: answer (the recipient; open to answered), confirm (the asker; answered
 * to resolved), send_back (the asker; answered to open, the answer kept), withdraw (the asker;
 * open or answered to withdrawn), snooze (the asker or the recipient; hides the card until a time,
 * the due date unchanged; no event). Every state change wakes a snoozed card.
 */
export async function actOnUnblockRequest(
  ctx: CommandCtx,
  projectId: string,
  requestId: string,
  input: UnblockActionInput,
): Promise<UnblockRequest> {
  const { trx, principal, now } = ctx;
  const { project } = await projectForWrite(ctx, projectId, 'viewer');
  const r = await requestOnProject(ctx, project.id, requestId);
  const me = principal.id;
  const move = async (status: UnblockStatus, closes: boolean) =>
    updateUnblockRequest(trx, r.id, { status, snoozed_until: null, ...(closes ? { closed_at: now } : {}) }, now);

  switch (input.action) {
    case 'answer': {
      requireTheRecipient(r, me);
      requireStateFor(r, 'answer');
      await insertAnswer(trx, r.id, answerText(r, input.answer), me, now);
      const updated = await move('answered', false);
      await ctx.emit({ type: 'project.unblock_request_answered', data: { ...people(r), actor: me } });
      await insertNotification(
        trx,
        { recipient: r.asker, kind: 'unblock_request_answered', project_id: r.project_id, subject_id: r.id, actor: me },
        now,
      );
      return asRead(ctx, updated);
    }
    case 'confirm': {
      requireTheAsker(r, me, 'confirm');
      requireStateFor(r, 'confirm');
      const updated = await move('resolved', true);
      await ctx.emit({ type: 'project.unblock_request_resolved', data: { ...people(r), actor: me } });
      return asRead(ctx, updated);
    }
    case 'send_back': {
      requireTheAsker(r, me, 'send back');
      requireStateFor(r, 'send_back');
      const reason = input.reason?.trim() || null;
      await sendBackAnswer(trx, r.id, reason, now);
      const updated = await move('open', false);
      await ctx.emit({ type: 'project.unblock_request_sent_back', data: { ...people(r), actor: me } });
      await insertNotification(
        trx,
        {
          recipient: r.recipient,
          kind: 'unblock_request_sent_back',
          project_id: r.project_id,
          subject_id: r.id,
          actor: me,
        },
        now,
      );
      return asRead(ctx, updated);
    }
    case 'withdraw': {
      requireTheAsker(r, me, 'withdraw');
      requireStateFor(r, 'withdraw');
      const updated = await move('withdrawn', true);
      await ctx.emit({ type: 'project.unblock_request_withdrawn', data: { ...people(r), actor: me } });
      return asRead(ctx, updated);
    }
    case 'snooze': {
      requireParticipant(r, me);
      requireStateFor(r, 'snooze');
      const until = snoozeUntil(input.until, now);
      const updated = await updateUnblockRequest(trx, r.id, { snoozed_until: until }, now);
      return asRead(ctx, updated);
    }
  }
}

/**
 * Closes the open and answered requests waiting on a record, in the caller's transaction:
 * superseded (a later changes request, or the handoff's acceptance) or withdrawn (the handoff was
 * cancelled). Each publishes its event. Returns how many were closed.
 */
export async function closeRequestsWaitingOn(
  ctx: CommandCtx,
  type: WaitingType,
  id: string,
  status: 'superseded' | 'withdrawn',
): Promise<number> {
  const live = await liveRequestsWaitingOn(ctx.trx, type, id);
  for (const r of live) {
    await updateUnblockRequest(ctx.trx, r.id, { status, snoozed_until: null, closed_at: ctx.now }, ctx.now);
    await ctx.emit({
      type: status === 'superseded' ? 'project.unblock_request_superseded' : 'project.unblock_request_withdrawn',
      data: { ...people(r), actor: ctx.principal.id },
    });
  }
  return live.length;
}
