import type { Principal } from '@platform/kit';
import type { Intelligence } from '../clients/intelligence.ts';
import { requireActiveConversation, requireConversationWriter, turnNotFound } from '../domain/conversations.ts';
import {
  type Audience,
  audienceOf,
  forAudience,
  OBJECTIONS_AUTHOR,
  OBJECTIONS_LIMIT,
  planText,
  type Rating,
  RELATED_LIMIT,
  type RelatedAction,
  relatedSkip,
  requireOwnMessage,
  requireRaised,
} from '../domain/panels.ts';
import { requireActiveProject } from '../domain/roles.ts';
import type { Objections, Related } from '../schemas/panels.ts';
import type { Db } from '../store/db.ts';
import { memberIds, raisedClaims, rateClaim, recordRelatedAction } from '../store/panels.ts';
import { appendTurn, findTurn } from '../store/turns.ts';
import type { CommandCtx } from './context.ts';
import { conversationForWrite, readableConversation } from './conversation-access.ts';

type Claim = Objections['claims'][number];

/** What the objections panel learned before its transaction. */
export interface AskedObjections {
  audience: Audience;
  degraded: boolean;
  claims: Claim[];
}

/**
 * The objections panel's work before its transaction (never for a replay): the caller needs
 * editor on the conversation (unfiled: its starter; filed: an editor of its project, 403 below),
 * which is active; claims already raised in it are sent as exclusions and dropped from the answer
 * too; a shared answer loses its quotes. When the intelligence service does not answer, the
 * answer is degraded with no claims.
 */
export async function askObjections(
  db: Db,
  intelligence: Intelligence | undefined,
  principal: Principal,
  asMember: boolean,
  conversationId: string,
  rawPlan: string,
): Promise<AskedObjections> {
  const { conversation, project } = await readableConversation(db, principal, asMember, conversationId);
  if (project) {
    requireConversationWriter(project.access);
    requireActiveProject(project.project);
  }
  requireActiveConversation(conversation);
  const plan = planText(rawPlan);
  const members = conversation.project_id ? await memberIds(db, conversation.project_id) : [];
  const audience = audienceOf(conversation.project_id, members, principal.id);
  const raised = await raisedClaims(db, conversation.id);
  const answer = intelligence
    ? await intelligence.objections(
        {
          conversation_id: conversation.id,
          project_id: conversation.project_id,
          plan,
          audience,
          exclude_claim_ids: [...raised],
          limit: OBJECTIONS_LIMIT,
        },
        principal.email ?? principal.id,
      )
    : ({ ok: false, reason: 'unconfigured' } as const);
  if (!answer.ok) return { audience, degraded: true, claims: [] };
  const seen = new Set(raised);
  const claims: Claim[] = [];
  for (const c of answer.data.claims) {
    if (seen.has(c.claim_id) || claims.length >= OBJECTIONS_LIMIT) continue;
    seen.add(c.claim_id);
    claims.push(forAudience(c, audience));
  }
  return { audience, degraded: false, claims };
}

/**
 * The objections panel's transaction: the claims it answers are recorded as raised on an
 * assistant turn (author agent:objections, a lookup turn, so utterance counts do not move) whose
 * extra.raised_objections lists their ids; later calls exclude them. Claims a concurrent call
 * raised first are left out. No claims: nothing is written.
 */
export async function recordObjections(
  ctx: CommandCtx,
  conversationId: string,
  asked: AskedObjections,
): Promise<Objections> {
  const { trx, principal, now } = ctx;
  const none = { audience: asked.audience, degraded: asked.degraded, claims: [], raised_turn_seq: null };
  if (asked.claims.length === 0) return none;
  const { conversation } = await conversationForWrite(ctx, conversationId);
  requireActiveConversation(conversation);
  const raised = await raisedClaims(trx, conversation.id);
  const claims = asked.claims.filter((c) => !raised.has(c.claim_id));
  if (claims.length === 0) return none;
  const ids = claims.map((c) => c.claim_id);
  const turn = await appendTurn(
    trx,
    {
      conversation_id: conversation.id,
      turn_kind: 'lookup',
      author: OBJECTIONS_AUTHOR,
      text: claims.map((c) => `- ${c.statement}`).join('\n'),
      extra: { raised_objections: ids, audience: asked.audience },
      written_by: principal.id,
    },
    0,
    now,
  );
  await ctx.emit([
    {
      type: 'conversation.turn_appended',
      data: {
        conversationId: conversation.id,
        projectId: conversation.project_id,
        seq: turn.seq,
        turnKind: 'lookup',
        actor: principal.id,
      },
    },
    {
      type: 'conversation.objections_raised',
      data: {
        conversationId: conversation.id,
        projectId: conversation.project_id,
        seq: turn.seq,
        claimIds: ids,
        audience: asked.audience,
        actor: principal.id,
      },
    },
  ]);
  return { audience: asked.audience, degraded: false, claims, raised_turn_seq: turn.seq };
}

/**
 * Rates a claim the panel raised in this conversation (422 claim_not_raised otherwise): useful,
 * already_knew or wrong. Whoever may use the panel may rate; a later rating replaces theirs.
 */
export async function rateObjection(ctx: CommandCtx, conversationId: string, claimId: string, rating: Rating) {
  const { trx, principal, now } = ctx;
  const { conversation } = await conversationForWrite(ctx, conversationId);
  requireRaised(await raisedClaims(trx, conversation.id), claimId);
  const rated = await rateClaim(
    trx,
    { conversation_id: conversation.id, claim_id: claimId, rated_by: principal.id, rating },
    now,
  );
  await ctx.emit({
    type: 'conversation.objection_rated',
    data: { conversationId: conversation.id, projectId: conversation.project_id, claimId, rating, actor: principal.id },
  });
  return rated;
}

/** The turn of the caller's own message (404 turn_not_found; 422 not_own_message for anyone else's). */
async function ownMessage(db: Db, principal: Principal, conversationId: string, seq: number) {
  const turn = await findTurn(db, conversationId, seq);
  if (!turn) throw turnNotFound();
  requireOwnMessage(turn, principal);
  return turn;
}

/**
 * The related panel (a read: no row, no event): claims and records related to one of the
 * caller's own messages. A message under four words or a redacted one is skipped without a
 * lookup; an unanswered lookup is degraded. Either way the lists are empty.
 */
export async function relatedFor(
  db: Db,
  intelligence: Intelligence | undefined,
  principal: Principal,
  asMember: boolean,
  conversationId: string,
  seq: number,
): Promise<Related> {
  const { conversation } = await readableConversation(db, principal, asMember, conversationId);
  const turn = await ownMessage(db, principal, conversation.id, seq);
  const empty = { turn_seq: seq, claims: [], records: [] };
  const skipped = relatedSkip(turn);
  if (skipped) return { ...empty, skipped, degraded: false };
  const answer = intelligence
    ? await intelligence.related(
        {
          conversation_id: conversation.id,
          project_id: conversation.project_id,
          turn_seq: seq,
          text: turn.text ?? '',
          limit: RELATED_LIMIT,
        },
        principal.email ?? principal.id,
      )
    : ({ ok: false, reason: 'unconfigured' } as const);
  if (!answer.ok) return { ...empty, skipped: null, degraded: true };
  return {
    turn_seq: seq,
    skipped: null,
    degraded: false,
    claims: answer.data.claims.slice(0, RELATED_LIMIT),
    records: answer.data.records.slice(0, RELATED_LIMIT),
  };
}

/** Records what the caller did with an item the related panel showed for their own message. */
export async function recordRelated(
  ctx: CommandCtx,
  conversationId: string,
  input: { turn_seq: number; item_id: string; action: RelatedAction },
) {
  const { trx, principal, now } = ctx;
  const { conversation } = await readableConversation(trx, principal, ctx.asMember, conversationId);
  await ownMessage(trx, principal, conversation.id, input.turn_seq);
  const recorded = await recordRelatedAction(
    trx,
    { conversation_id: conversation.id, ...input, actor: principal.id },
    now,
  );
  await ctx.emit({
    type: 'conversation.related_action_recorded',
    data: {
      conversationId: conversation.id,
      projectId: conversation.project_id,
      seq: input.turn_seq,
      itemId: input.item_id,
      action: input.action,
      actor: principal.id,
    },
  });
  return recorded;
}
