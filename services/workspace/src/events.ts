import { defineEvents, type EventOf } from '@platform/kit';
import { type TProperties, Type } from '@sinclair/typebox';

/**
 * The workspace's events (spec 2, Events). Payloads carry ids, field names and short values,
 * never a title, body, name or other text, so every one stays on the public subjects.
 */
const Id = Type.String();
const Actor = Type.String({ description: 'The principal that ran the command' });
const Role = Type.String({ description: 'owner, editor, commenter or viewer' });
const FieldNames = Type.Array(Type.String(), { description: 'Names of the changed fields, never their values' });

/** The project and item of a project.item_* event and who acted. */
const item = <P extends TProperties>(more: P = {} as P) =>
  Type.Object({ projectId: Id, itemId: Id, actor: Actor, ...more });
const goal = <P extends TProperties>(more: P = {} as P) =>
  Type.Object({ projectId: Id, goalId: Id, actor: Actor, ...more });
const view = () => Type.Object({ projectId: Id, viewId: Id, actor: Actor });
const status = <P extends TProperties>(more: P = {} as P) =>
  Type.Object({
    projectId: Id,
    action: Type.String({ description: 'The status action taken' }),
    actor: Actor,
    ...more,
  });

/** A handoff event: its revision, sender and receiver, and who acted. */
const handoff = <P extends TProperties>(more: P = {} as P) =>
  Type.Object({
    projectId: Id,
    handoffId: Id,
    revision: Type.Integer(),
    sender: Id,
    receiver: Id,
    actor: Actor,
    ...more,
  });
/** An unblock request event: its asker and recipient, and who acted. */
const unblock = <P extends TProperties>(more: P = {} as P) =>
  Type.Object({ projectId: Id, requestId: Id, asker: Id, recipient: Id, actor: Actor, ...more });

export const events = defineEvents('workspace', {
  'project.created': {
    description: 'A project was created (with its template, if any)',
    payload: Type.Object({
      projectId: Id,
      workflow: Type.String(),
      templateId: Type.Union([Id, Type.Null()]),
      actor: Actor,
    }),
  },
  'project.updated': {
    description: "A project's settings changed (field names only)",
    payload: Type.Object({ projectId: Id, changedFields: FieldNames, actor: Actor }),
  },
  'project.archived': { description: 'A project was archived', payload: status() },
  'project.restored': { description: 'An archived project was restored', payload: status() },
  'project.knowledge_changed': {
    description: 'A project was withdrawn from, or contributed to, knowledge',
    payload: status({ contributesToKnowledge: Type.Boolean() }),
  },
  'project.legal_hold_changed': {
    description: 'A legal hold was placed on a project or released',
    payload: status({ legalHold: Type.Boolean() }),
  },
  'project.template_saved': {
    description: 'A project was saved as a template',
    payload: Type.Object({ templateId: Id, workflow: Type.String(), actor: Actor }),
  },
  'project.member_added': {
    description: 'A principal became a member of a project',
    payload: Type.Object({ projectId: Id, principalId: Id, role: Role, actor: Actor }),
  },
  'project.member_removed': {
    description: 'A member was removed or left',
    payload: Type.Object({ projectId: Id, principalId: Id, role: Role, actor: Actor }),
  },
  'project.member_role_changed': {
    description: "A member's role changed (setting the same role emits nothing)",
    payload: Type.Object({ projectId: Id, principalId: Id, fromRole: Role, toRole: Role, actor: Actor }),
  },
  'project.join_requested': {
    description: 'A non-member asked to join a project',
    payload: Type.Object({ projectId: Id, principalId: Id, actor: Actor }),
  },
  'project.join_request_decided': {
    description: 'An owner approved or declined a join request',
    payload: Type.Object({
      projectId: Id,
      principalId: Id,
      decision: Type.Union([Type.Literal('approve'), Type.Literal('decline')]),
      role: Type.Union([Role, Type.Null()]),
      actor: Actor,
    }),
  },
  'project.goal_created': { description: 'A goal was added to a project', payload: goal() },
  'project.goal_updated': { description: 'A goal changed', payload: goal({ changedFields: FieldNames }) },
  'project.goal_deleted': { description: 'A goal was deleted', payload: goal() },
  'project.goal_checked_in': {
    description: 'A check-in was recorded on a goal',
    payload: goal({ checkinId: Id, status: Type.String() }),
  },
  'project.view_created': { description: 'A saved view was added', payload: view() },
  'project.view_updated': { description: 'A saved view changed', payload: view() },
  'project.view_deleted': { description: 'A saved view was deleted', payload: view() },
  'project.views_reordered': {
    description: "A project's saved views were put in a new order",
    payload: Type.Object({ projectId: Id, viewIds: Type.Array(Id), actor: Actor }),
  },
  'project.item_created': {
    description: 'A task was added',
    payload: item({ type: Type.String(), category: Type.String(), origin: Type.String(), statusId: Id }),
  },
  'project.item_updated': {
    description: 'A content edit: the new version and the names of the changed fields',
    payload: item({ version: Type.Integer(), changedFields: FieldNames, evidenceChanged: Type.Boolean() }),
  },
  'project.item_status_changed': {
    description: "A task's status changed",
    payload: item({
      fromStatusId: Id,
      toStatusId: Id,
      fromCategory: Type.String(),
      toCategory: Type.String(),
      evidenceChanged: Type.Boolean(),
    }),
  },
  'project.item_resolved': {
    description: 'A task moved from open to completed or canceled by any route, or was added in a closed status',
    payload: item({ statusId: Id, category: Type.String() }),
  },
  'project.item_assigned': {
    description: "A task's assignee changed",
    payload: item({ assignee: Type.Union([Id, Type.Null()]), previousAssignee: Type.Union([Id, Type.Null()]) }),
  },
  'project.item_archived': { description: 'A task was archived', payload: item() },
  'project.item_unarchived': { description: 'An archived task was brought back', payload: item() },
  'project.item_restored': {
    description: 'A task was restored to an earlier version (as a new version)',
    payload: item({ version: Type.Integer(), fromVersion: Type.Integer() }),
  },
  // Decisions and data sources (issue 16): ids and kinds, never a title, detail, name or reference.
  'project.decision_proposed': {
    description: 'A decision was proposed',
    payload: Type.Object({ projectId: Id, decisionId: Id, actor: Actor }),
  },
  'project.decision_approved': {
    description: 'A proposed decision was approved',
    payload: Type.Object({ projectId: Id, decisionId: Id, actor: Actor }),
  },
  'project.data_source_connected': {
    description: 'A data source was connected to a project',
    payload: Type.Object({ projectId: Id, dataSourceId: Id, kind: Type.String(), actor: Actor }),
  },
  // Cases (issue 16): ids, states, stages, currencies and minor-unit amounts; never a title, subject,
  // evidence, correction, reason or method.
  'project.case_opened': {
    description: 'A case was opened (in needs_validation)',
    payload: Type.Object({ projectId: Id, caseId: Id, owner: Id, status: Type.String(), actor: Actor }),
  },
  'project.case_status_changed': {
    description: 'A case moved to another state by its transition route',
    payload: Type.Object({
      projectId: Id,
      caseId: Id,
      fromStatus: Type.String(),
      toStatus: Type.String(),
      actor: Actor,
    }),
  },
  'project.case_updated': {
    description: 'An open case was edited (names of the changed fields, never their values)',
    payload: Type.Object({ projectId: Id, caseId: Id, changedFields: FieldNames, actor: Actor }),
  },
  'project.case_amount_recorded': {
    description: 'An amount row was recorded on a case (stage, currency, integer minor units)',
    payload: Type.Object({
      projectId: Id,
      caseId: Id,
      amountId: Id,
      stage: Type.String(),
      amount: Type.Integer(),
      currency: Type.String(),
      actor: Actor,
    }),
  },
  // Handoffs (issue 16): ids, revisions and the two people, never the package's text.
  'project.handoff_created': { description: 'A handoff was drafted', payload: handoff() },
  'project.handoff_updated': {
    description: "The sender changed a handoff's package (a new revision once it had been offered)",
    payload: handoff({ changedFields: FieldNames }),
  },
  'project.handoff_offered': {
    description: 'The sender offered a handoff; the receiver is notified',
    payload: handoff(),
  },
  'project.handoff_changes_requested': {
    description: 'The receiver said something is missing; the sender is notified and has an unblock request',
    payload: handoff({ unblockRequestId: Id }),
  },
  'project.handoff_accepted': {
    description: 'The receiver accepted a revision (its receipt is kept); the sender is notified',
    payload: handoff(),
  },
  'project.handoff_cancelled': { description: 'A handoff was cancelled before acceptance', payload: handoff() },
  // Unblock requests (issue 16): ids, the two people and the kind of answer, never the question or answer.
  'project.unblock_request_opened': {
    description: 'An unblock request was opened for one member',
    payload: unblock({ answerKind: Type.String(), source: Type.String() }),
  },
  'project.unblock_request_answered': { description: 'The recipient answered', payload: unblock() },
  'project.unblock_request_resolved': { description: 'The asker confirmed the answer', payload: unblock() },
  'project.unblock_request_sent_back': {
    description: 'The asker sent the answer back; the request is open again (the answer is kept)',
    payload: unblock(),
  },
  'project.unblock_request_withdrawn': {
    description: 'The asker withdrew the request, or its handoff was cancelled',
    payload: unblock(),
  },
  'project.unblock_request_superseded': {
    description: "A later changes request or the handoff's acceptance took the request's place",
    payload: unblock(),
  },
  // Conversations (issue 16): ids, kinds and flags, never a title or a turn's text. projectId is
  // null while a conversation is unfiled.
  'conversation.started': {
    description: 'A conversation was started, unfiled or filed onto a project',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      contributesToKnowledge: Type.Boolean(),
      actor: Actor,
    }),
  },
  'conversation.updated': {
    description: 'A conversation was renamed, archived or restored, or its knowledge setting changed',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      changedFields: FieldNames,
      status: Type.String({ description: 'active or archived, after the change' }),
      contributesToKnowledge: Type.Boolean(),
      actor: Actor,
    }),
  },
  'conversation.moved': {
    description: 'A conversation (with its files) was filed onto a project or moved to another',
    payload: Type.Object({
      conversationId: Id,
      fromProjectId: Type.Union([Id, Type.Null()]),
      projectId: Id,
      files: Type.Integer({ description: 'How many attached files moved with it' }),
      actor: Actor,
    }),
  },
  'conversation.turn_appended': {
    description: 'A turn was appended to a conversation (its seq and kind, never its text)',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      seq: Type.Integer(),
      turnKind: Type.String(),
      actor: Actor,
    }),
  },
  'conversation.session_started': {
    description: 'An agent session started on a conversation',
    payload: Type.Object({ conversationId: Id, projectId: Type.Union([Id, Type.Null()]), sessionId: Id, actor: Actor }),
  },
  'conversation.session_ended': {
    description: 'An agent session ended',
    payload: Type.Object({ conversationId: Id, projectId: Type.Union([Id, Type.Null()]), sessionId: Id, actor: Actor }),
  },
  'conversation.suggestion_resolved': {
    description: 'A suggested project for a conversation was accepted (the conversation filed there) or dismissed',
    payload: Type.Object({
      conversationId: Id,
      projectId: Id,
      decision: Type.String({ description: 'accept or dismiss' }),
      actor: Actor,
    }),
  },
  'conversation.redaction_requested': {
    description: "Destruction of a turn's text was requested",
    payload: Type.Object({
      redactionId: Id,
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      seq: Type.Integer(),
      actor: Actor,
    }),
  },
  // Saved outputs and the assistants panels (issue 16): ids, versions, digests and fixed values only.
  'project.output_saved': {
    description: 'A new version of a saved output was written on a project (the one it supersedes, if any, is named)',
    payload: Type.Object({
      projectId: Id,
      outputId: Id,
      conversationId: Type.Union([Id, Type.Null()]),
      version: Type.Integer(),
      sha256: Type.String(),
      supersededOutputId: Type.Union([Id, Type.Null()]),
      actor: Actor,
    }),
  },
  'conversation.objections_raised': {
    description: 'The objections panel raised claims in a conversation (recorded on an assistant turn)',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      seq: Type.Integer(),
      claimIds: Type.Array(Type.String()),
      audience: Type.String({ description: 'private or shared' }),
      actor: Actor,
    }),
  },
  'conversation.objection_rated': {
    description: 'A person rated a raised claim useful, already_knew or wrong',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      claimId: Type.String(),
      rating: Type.String(),
      actor: Actor,
    }),
  },
  'conversation.related_action_recorded': {
    description: 'A person opened, dismissed as not relevant, or asked about an item of the related panel',
    payload: Type.Object({
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      seq: Type.Integer(),
      itemId: Type.String(),
      action: Type.String(),
      actor: Actor,
    }),
  },
  'conversation.turn_redacted': {
    description: "A redaction was approved and the turn's text destroyed",
    payload: Type.Object({
      redactionId: Id,
      conversationId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      seq: Type.Integer(),
      actor: Actor,
    }),
  },
  // Customer presentations (issue 16): ids, revision numbers and fixed values only.
  'project.presentation_created': {
    description: 'A customer presentation (outline and sources) was created on a project',
    payload: Type.Object({ projectId: Id, presentationId: Id, actor: Actor }),
  },
  'project.presentation_revised': {
    description: 'A new revision of a presentation was written (a build from the outline or an edit of its slides)',
    payload: Type.Object({
      projectId: Id,
      presentationId: Id,
      revision: Type.Integer(),
      origin: Type.String({ description: 'build or edit' }),
      status: Type.String({ description: 'rendered or failed' }),
      actor: Actor,
    }),
  },
  'project.presentation_rendered': {
    description: "A presentation revision's file was rendered and stored in the documents service",
    payload: Type.Object({
      projectId: Id,
      presentationId: Id,
      revision: Type.Integer(),
      documentId: Id,
      attempts: Type.Integer(),
      actor: Actor,
    }),
  },
  'project.presentation_render_failed': {
    description:
      "A presentation revision's render failed (the model broker or the documents service); resume retries it",
    payload: Type.Object({
      projectId: Id,
      presentationId: Id,
      revision: Type.Integer(),
      attempts: Type.Integer(),
      actor: Actor,
    }),
  },
  'project.presentation_shared': {
    description: 'A presentation revision was shared through the communications service and pinned as the shared one',
    payload: Type.Object({
      projectId: Id,
      presentationId: Id,
      revision: Type.Integer(),
      shareId: Type.String(),
      actor: Actor,
    }),
  },
  // Evidence (issue 19; the intelligence service consumes these): ids, kinds, sources, labels and
  // flags only, never a title, body, utterance text or a participant's or speaker's name.
  'evidence.deleted': {
    description: 'An evidence record was deleted (a meeting whose transcript had no lines); derived claims go with it',
    payload: Type.Object({
      evidenceId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      kind: Type.String(),
      source: Type.String(),
      reason: Type.String({ description: 'Why: no_lines (a transcript with no lines)' }),
      actor: Actor,
    }),
  },
  'evidence.knowledge_changed': {
    description: 'An evidence record was withdrawn from, or contributed to, company knowledge',
    payload: Type.Object({
      evidenceId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      contributesToKnowledge: Type.Boolean(),
      actor: Actor,
    }),
  },
  'evidence.speaker_attributed': {
    description:
      "An unlabeled speaker of one meeting was named; the claims extracted from that speaker's lines are re-attributed",
    payload: Type.Object({
      evidenceId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      label: Type.String({ description: "The speaker's label in the lines (e.g. Speaker 1), never the name given" }),
      principalId: Type.Union([Id, Type.Null()], { description: 'The person the speaker is, when named by id' }),
      actor: Actor,
    }),
  },
  'evidence.summary_ready': {
    description:
      "A meeting's summary was written (meetings from a video call, phone or recorder turn its next steps into commitment claims)",
    payload: Type.Object({
      evidenceId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      kind: Type.String(),
      source: Type.String(),
      actor: Actor,
    }),
  },
  'evidence.redaction_recorded': {
    description: 'A redaction of evidence text was recorded; derived claims are withdrawn at once',
    payload: Type.Object({
      evidenceId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      redactionId: Id,
      actor: Actor,
    }),
  },
  // Files (issue 19; the file domain, read by audit): ids and the upload's purpose only.
  'file.registered': {
    description: 'An uploaded file was registered with the documents service (POST /v1/files)',
    payload: Type.Object({
      uploadId: Id,
      documentId: Id,
      projectId: Type.Union([Id, Type.Null()]),
      purpose: Type.String({ description: 'file, recording or live_recording' }),
      actor: Actor,
    }),
  },
  // Facts (issue 19; the fact domain, read by intelligence and audit): an approved decision is a
  // fact of its project. Ids and field names only; the intelligence service reads the text by id.
  'fact.recorded': {
    description: 'A decision was approved: a new fact of its project (knowledge derives claims from its text)',
    payload: Type.Object({
      factId: Id,
      projectId: Id,
      kind: Type.String({ description: 'What the fact is: decision' }),
      supersedes: Type.Union([Id, Type.Null()], { description: 'The fact it replaces, if any' }),
      actor: Actor,
    }),
  },
  'fact.updated': {
    description: "An approved decision's text was edited (knowledge derives its claims again)",
    payload: Type.Object({ factId: Id, projectId: Id, kind: Type.String(), changedFields: FieldNames, actor: Actor }),
  },
  'fact.superseded': {
    description: 'An approved decision was replaced by a newer one (knowledge withdraws its derived claims)',
    payload: Type.Object({ factId: Id, projectId: Id, kind: Type.String(), supersededBy: Id, actor: Actor }),
  },
  'fact.archived': {
    description: 'An approved decision was archived by an owner (knowledge withdraws its derived claims)',
    payload: Type.Object({ factId: Id, projectId: Id, kind: Type.String(), actor: Actor }),
  },
  'project.decision_updated': {
    description: "A decision's title or detail was edited (field names only)",
    payload: Type.Object({ projectId: Id, decisionId: Id, changedFields: FieldNames, actor: Actor }),
  },
  'project.decision_archived': {
    description: 'A decision was archived (a proposed one withdrawn, or an approved one retired)',
    payload: Type.Object({ projectId: Id, decisionId: Id, actor: Actor }),
  },
});

export type WorkspaceEvent = EventOf<typeof events>;

/**
 * The events that feed a project's activity feed (spec 2: every task, goal, check-in, case,
 * handoff, decision and conversation event, none for views; also unblock requests and data
 * sources). Every declared event whose type starts with a prefix writes one activity row (ids only)
 * in its command's transaction (commands/activity.ts, through the emit hook): kind is the source's
 * kind, a dot and the rest of the type (project.goal_checked_in: goal.checked_in); subject_id is the
 * payload's field named here; project and actor are the payload's projectId and actor. Events about
 * no project (an unfiled conversation) write none.
 */
export const ACTIVITY_SOURCES = [
  { prefix: 'project.item_', kind: 'item', subject: 'itemId' },
  { prefix: 'project.goal_', kind: 'goal', subject: 'goalId' },
  { prefix: 'project.case_', kind: 'case', subject: 'caseId' },
  { prefix: 'project.handoff_', kind: 'handoff', subject: 'handoffId' },
  { prefix: 'project.unblock_request_', kind: 'unblock_request', subject: 'requestId' },
  { prefix: 'project.decision_', kind: 'decision', subject: 'decisionId' },
  { prefix: 'project.data_source_', kind: 'data_source', subject: 'dataSourceId' },
  { prefix: 'project.output_', kind: 'output', subject: 'outputId' },
  { prefix: 'project.conversation_', kind: 'conversation', subject: 'conversationId' },
  { prefix: 'conversation.', kind: 'conversation', subject: 'conversationId' },
] as const;
export type ActivitySource = (typeof ACTIVITY_SOURCES)[number];
