import { Command, Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import {
  addDependency,
  addTaskNote,
  createTask,
  editTask,
  linkTask,
  recordTaskProgress,
  releaseDocument,
  requireDocument,
  taskDetail,
  unlinkTask,
} from '../commands/tasks.ts';
import { TASK_PAGE, taskNotFound, taskView } from '../domain/tasks.ts';
import {
  DependencyInput,
  LinkInput,
  NoteInput,
  ProgressInput,
  Task,
  TaskDetail,
  TaskDocumentInput,
  TaskDocumentParams,
  TaskInput,
  TaskLinkParams,
  TaskListQuery,
  TaskNote,
  TaskParams,
  TaskPatch,
} from '../schemas/tasks.ts';
import { listTasks } from '../store/task-list.ts';
import { findTask } from '../store/tasks.ts';
import { type Routes, route } from './deps.ts';

const tags = ['tasks'];
const CLOSED =
  "The task's primary project (and any project it is being linked to) must be open: completed or cancelled is 409 project_closed.";
const TASK_WRITE = ['task_not_found', 'project_not_found', 'project_closed'] as const;

export const TASK_ROUTES: Routes = [
  route({
    method: 'POST',
    url: '/v1/tasks',
    action: 'ManageTasks',
    tags,
    summary: 'Create a task on its primary project, counting toward other projects too',
    description:
      "project_id is the primary project: the task's link there has relationship_type primary. links names other " +
      'projects (relationship_type affects by default, shared or deliverable_for; share 0 to 100 percent); naming ' +
      "the task's own project or a primary link is 409 primary_link, one project twice 422. package_id is a package " +
      `of the primary project (404 package_not_found, 422 package_of_another_project). ${CLOSED}`,
    body: Command(TaskInput),
    response: Envelope(TaskDetail),
    status: 201,
    errors: ['project_not_found', 'project_closed', 'primary_link', 'package_not_found', 'package_of_another_project'],
    run: (ctx, { body }) => createTask(ctx, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/tasks',
    action: 'ReadTasks',
    tags,
    summary: 'Tasks, oldest first; page mode, 50 by default, at most 200',
    description:
      'project_id: tasks linked to the project in any way (its own and those counting toward it); owner_fid, ' +
      'status and vendor_id match exactly; search is part of the title, ignoring case.',
    query: TaskListQuery,
    response: PageEnvelope(Task),
    handler: async ({ query, reply }, deps) => {
      const page = pageRequest(query, TASK_PAGE.pageSize);
      const { project_id, owner_fid, status, vendor_id, search } = query;
      const { items, total } = await listTasks(
        deps.database.db,
        { project_id, owner_fid, status, vendor_id, search },
        page,
      );
      return reply.envelope(items.map(taskView), pageMeta(page, total));
    },
  }),

  route({
    method: 'GET',
    url: '/v1/tasks/:id',
    action: 'ReadTasks',
    tags,
    summary: 'One task with its links, prerequisites, dependents, notes and required documents',
    params: TaskParams,
    response: Envelope(TaskDetail),
    errors: ['task_not_found'],
    handler: async ({ params, reply }, deps) => {
      const db = deps.database.db;
      const task = await findTask(db, params.id);
      if (!task) throw taskNotFound();
      return reply.envelope(await taskDetail(db, task));
    },
  }),

  route({
    method: 'PUT',
    url: '/v1/tasks/:id',
    action: 'ManageTasks',
    tags,
    summary: 'Change a task',
    description:
      'The fields sent change, null clears an optional one, fields not sent stay; status and progress change ' +
      'through /progress, the primary project never. planned_start after planned_finish is 422. A new package is ' +
      `one of the primary project's. An edit that changes nothing publishes no event. ${CLOSED}`,
    params: TaskParams,
    body: Command(TaskPatch),
    response: Envelope(TaskDetail),
    errors: [...TASK_WRITE, 'package_not_found', 'package_of_another_project'],
    run: (ctx, { params, body }) => editTask(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/tasks/:id/progress',
    action: 'ManageTasks',
    tags,
    summary: 'Move a task, record its percentage, forecast finish or blocked reason',
    description:
      'Statuses not_started, in_progress, blocked, done; any may follow any. done sets percent_complete 100 (another ' +
      'percentage with done is 422) and needs every prerequisite done (409 unfinished_prerequisite) and every ' +
      'required document current: the named revision published, or any revision published when none is named ' +
      '(409 documents_not_current). blocked_reason goes only with blocked (else 422) and is cleared on leaving it. ' +
      'A report that changes nothing answers the task without an event. ' +
      `A package measured by tasks takes the mean percentage of its tasks. ${CLOSED}`,
    params: TaskParams,
    body: Command(ProgressInput),
    response: Envelope(TaskDetail),
    errors: [...TASK_WRITE, 'unfinished_prerequisite', 'documents_not_current'],
    run: (ctx, { params, body }) => recordTaskProgress(ctx, params.id, body.data),
  }),

  route({
    method: 'POST',
    url: '/v1/tasks/:id/links',
    action: 'ManageTasks',
    tags,
    summary: 'Count the task toward another project with a share',
    description:
      "relationship_type affects by default, shared or deliverable_for; a primary link or the task's own project " +
      `is 409 primary_link. A project already linked takes the new type and share. ${CLOSED}`,
    params: TaskParams,
    body: Command(LinkInput),
    response: Envelope(TaskDetail),
    status: 201,
    errors: [...TASK_WRITE, 'primary_link'],
    run: (ctx, { params, body }) => linkTask(ctx, params.id, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/tasks/:id/links/:projectId',
    action: 'ManageTasks',
    tags,
    summary: 'Stop the task counting toward a project',
    description: `No such link is 404 link_not_found; the primary link cannot be removed (409 primary_link). ${CLOSED}`,
    params: TaskLinkParams,
    response: Envelope(TaskDetail),
    errors: [...TASK_WRITE, 'link_not_found', 'primary_link'],
    run: (ctx, { params }) => unlinkTask(ctx, params.id, params.projectId),
  }),

  route({
    method: 'POST',
    url: '/v1/tasks/:id/dependencies',
    action: 'ManageTasks',
    tags,
    summary: 'Make the task wait for another task',
    description:
      'depends_on_task_id becomes a prerequisite (404 task_not_found when unknown). The task itself, or a task ' +
      `that already waits for this one, is 409 dependency_cycle; a repeat is 409 dependency_exists. ${CLOSED}`,
    params: TaskParams,
    body: Command(DependencyInput),
    response: Envelope(TaskDetail),
    status: 201,
    errors: [...TASK_WRITE, 'dependency_cycle', 'dependency_exists'],
    run: (ctx, { params, body }) => addDependency(ctx, params.id, body.data),
  }),

  route({
    method: 'PUT',
    url: '/v1/tasks/:id/documents/:documentId',
    action: 'ManageTasks',
    tags,
    summary: 'Require a document before the task is done, optionally one revision',
    description:
      'Unknown document 404 document_not_found; revision_id not of this document 404 revision_not_found. ' +
      `Requiring it again replaces the named revision (null: any published revision). ${CLOSED}`,
    params: TaskDocumentParams,
    body: Command(TaskDocumentInput),
    response: Envelope(TaskDetail),
    errors: [...TASK_WRITE, 'document_not_found', 'revision_not_found'],
    run: (ctx, { params, body }) => requireDocument(ctx, params.id, params.documentId, body.data),
  }),

  route({
    method: 'DELETE',
    url: '/v1/tasks/:id/documents/:documentId',
    action: 'ManageTasks',
    tags,
    summary: 'Stop requiring a document',
    description: `A document the task does not require is 404 document_not_found. ${CLOSED}`,
    params: TaskDocumentParams,
    response: Envelope(TaskDetail),
    errors: [...TASK_WRITE, 'document_not_found'],
    run: (ctx, { params }) => releaseDocument(ctx, params.id, params.documentId),
  }),

  route({
    method: 'POST',
    url: '/v1/tasks/:id/notes',
    action: 'ManageTasks',
    tags,
    summary: 'Add a note to the task',
    description: `body: 1 to 10,000 characters, not blank. ${CLOSED}`,
    params: TaskParams,
    body: Command(NoteInput),
    response: Envelope(TaskNote),
    status: 201,
    errors: [...TASK_WRITE],
    run: (ctx, { params, body }) => addTaskNote(ctx, params.id, body.data),
  }),
];
