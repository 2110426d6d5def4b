import { type EventSpecs, Uuid } from '@platform/kit';
import { Type } from '@sinclair/typebox';

/** Events of tasks (ids and short values, never emails or names of people). */
export const TASK_EVENTS = {
  'task.created': {
    description: 'A task was created on its primary project, linked to any other projects named',
    payload: Type.Object({
      task_id: Uuid,
      project_id: Uuid,
      linked_project_ids: Type.Array(Uuid),
      actor_fid: Type.String(),
    }),
  },
  'task.updated': {
    description: 'A task was changed (PUT): the names of the fields that changed',
    payload: Type.Object({
      task_id: Uuid,
      project_id: Uuid,
      changed_fields: Type.Array(Type.String()),
      actor_fid: Type.String(),
    }),
  },
  'task.progressed': {
    description: 'Progress was recorded on a task: its status and percentage after it',
    payload: Type.Object({
      task_id: Uuid,
      project_id: Uuid,
      status: Type.String(),
      previous_status: Type.String(),
      percent_complete: Type.Integer(),
      actor_fid: Type.String(),
    }),
  },
  'task.linked': {
    description: 'A task counts toward another project (or its link there changed type or share)',
    payload: Type.Object({
      task_id: Uuid,
      project_id: Uuid,
      linked_project_id: Uuid,
      relationship_type: Type.String(),
      share: Type.Union([Type.Integer(), Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
  'task.unlinked': {
    description: 'A task stopped counting toward another project',
    payload: Type.Object({ task_id: Uuid, project_id: Uuid, linked_project_id: Uuid, actor_fid: Type.String() }),
  },
  'task.dependency_added': {
    description: 'A task waits for another task',
    payload: Type.Object({ task_id: Uuid, project_id: Uuid, depends_on_task_id: Uuid, actor_fid: Type.String() }),
  },
  'task.document_required': {
    description: 'A task requires a document (optionally one revision of it) before it is done',
    payload: Type.Object({
      task_id: Uuid,
      project_id: Uuid,
      document_id: Uuid,
      revision_id: Type.Union([Uuid, Type.Null()]),
      actor_fid: Type.String(),
    }),
  },
  'task.document_released': {
    description: 'A task no longer requires a document',
    payload: Type.Object({ task_id: Uuid, project_id: Uuid, document_id: Uuid, actor_fid: Type.String() }),
  },
  'task.note_added': {
    description: 'A note was added to a task',
    payload: Type.Object({ task_id: Uuid, project_id: Uuid, note_id: Uuid, actor_fid: Type.String() }),
  },
} as const satisfies EventSpecs;
