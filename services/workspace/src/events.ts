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
});

export type WorkspaceEvent = EventOf<typeof events>;
