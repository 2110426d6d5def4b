import { Envelope, OptionalDataCommand } from '@platform/kit';
import { archiveTask, editTask, moveTask, resolveTask, restoreTask, unarchiveTask } from '../commands/task-edits.ts';
import { Command } from '../schemas/common.ts';
import { ItemEditParams, NoData, TaskMove, TaskPatch, TaskRestore } from '../schemas/task-edits.ts';
import { Task } from '../schemas/tasks.ts';
import { type Routes, route } from './deps.ts';

const tags = ['items'];

const EDITORS = 'Editors and owners of the project (viewers 403; a project the caller cannot see 404).';
const COMMON =
  'A task not on this project is 404 item_not_found. An archived task is 409 item_archived; an archived project 409 project_archived.';

/** What every write to an existing task can answer (unarchive aside: it never refuses an archived task). */
const TASK_WRITE = ['project_not_found', 'project_archived', 'item_not_found', 'item_archived'] as const;

export const itemEditRoutes: Routes = [
  route({
    method: 'PATCH',
    url: '/v1/projects/:id/items/:itemId',
    action: 'use',
    tags,
    summary: 'Edit a task: content (needs version) and state (never does), possibly both',
    description:
      `${EDITORS} Content (title, body, type, fields, links, resolution) needs data.version, the version that was read: ` +
      'without it 422 version_required; any other than the current one 409 stale_version with the task as it is now in ' +
      'errors[0].value. A change writes version + 1; a type change drops the field values the new type does not have. ' +
      'State (status_id, assignee, target_date, goal_id) goes to the change log; an empty string or null clears ' +
      'assignee, target_date and goal_id. status_id with after_id / before_id places the task like a move. ' +
      'Values equal to the current ones change nothing. A bug closed without a resolution is 422 resolution_required. ' +
      COMMON,
    params: ItemEditParams,
    body: Command(TaskPatch),
    response: Envelope(Task),
    errors: [
      ...TASK_WRITE,
      'version_required',
      'stale_version',
      'type_not_offered',
      'field_not_allowed',
      'invalid_title',
      'status_not_offered',
      'assignee_not_member',
      'goal_not_found',
      'resolution_required',
      'invalid_position',
    ],
    run: (ctx, { params, body }) => editTask(ctx, params.id, params.itemId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/items/:itemId/move',
    action: 'use',
    tags,
    summary: 'Move a task: its status and its position between two neighbours',
    description:
      `${EDITORS} status_id (default: unchanged); after_id: the task it goes after (above it), before_id: the one it ` +
      "goes before. The rank (a double) is the mean of the neighbours' ranks; with only after_id the next task below it is the other " +
      'neighbour, with only before_id the task above it. When no double lies between them the project is renumbered ' +
      '(1024 apart) first. A neighbour must be another task of the project (422 invalid_position). A resolution sent ' +
      'with a move needs version (422 version_required; 409 stale_version). ' +
      COMMON,
    params: ItemEditParams,
    body: Command(TaskMove),
    response: Envelope(Task),
    errors: [
      ...TASK_WRITE,
      'version_required',
      'stale_version',
      'status_not_offered',
      'resolution_required',
      'invalid_position',
    ],
    run: (ctx, { params, body }) => moveTask(ctx, params.id, params.itemId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/items/:itemId/archive',
    action: 'use',
    tags,
    summary: 'Archive a task: read-only until unarchived; status unchanged',
    description: `${EDITORS} ${COMMON}`,
    params: ItemEditParams,
    body: OptionalDataCommand(NoData),
    emptyBody: true,
    response: Envelope(Task),
    errors: [...TASK_WRITE],
    run: (ctx, { params }) => archiveTask(ctx, params.id, params.itemId),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/items/:itemId/unarchive',
    action: 'use',
    tags,
    summary: 'Unarchive a task; status unchanged; a task not archived is answered as it is',
    description: `${EDITORS} A task not on this project is 404 item_not_found; an archived project 409 project_archived.`,
    params: ItemEditParams,
    body: OptionalDataCommand(NoData),
    emptyBody: true,
    response: Envelope(Task),
    errors: ['project_not_found', 'project_archived', 'item_not_found'],
    run: (ctx, { params }) => unarchiveTask(ctx, params.id, params.itemId),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/items/:itemId/restore',
    action: 'use',
    tags,
    summary: "Restore an older version: writes a new version copying from_version's content; status unchanged",
    description:
      `${EDITORS} version must be the current version (else 409 stale_version with the task as it is now). ` +
      'A from_version the task does not have is 422 version_not_found. ' +
      COMMON,
    params: ItemEditParams,
    body: Command(TaskRestore),
    response: Envelope(Task),
    errors: [...TASK_WRITE, 'stale_version', 'version_not_found', 'type_not_offered', 'resolution_required'],
    run: (ctx, { params, body }) => restoreTask(ctx, params.id, params.itemId, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/projects/:id/items/:itemId/resolve',
    action: 'use',
    tags,
    summary: 'Legacy: move an open task to Done',
    description:
      `${EDITORS} A task on another project, or a closed task, is 404 item_not_found. A bug with no resolution is ` +
      '422 resolution_required. An archived task is 409 item_archived.',
    params: ItemEditParams,
    body: OptionalDataCommand(NoData),
    emptyBody: true,
    response: Envelope(Task),
    errors: [...TASK_WRITE, 'resolution_required'],
    run: (ctx, { params }) => resolveTask(ctx, params.id, params.itemId),
  }),
];
