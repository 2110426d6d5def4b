import { Envelope, PageEnvelope, pageMeta, pageRequest } from '@platform/kit';
import { Type } from '@sinclair/typebox';
import { createTask } from '../commands/tasks.ts';
import { itemNotFound, newYorkDate } from '../domain/tasks.ts';
import { AsMemberHeaders, Command, ProjectParams, Uuid } from '../schemas/common.ts';
import { ChangeLogQuery, TASK_PAGE, TaskChange, TaskHistory, TaskInput, TaskListQuery } from '../schemas/task-input.ts';
import { Task } from '../schemas/tasks.ts';
import { projectChanges, taskHistory } from '../store/task-history.ts';
import { listTasks } from '../store/task-list.ts';
import { findTask } from '../store/tasks.ts';
import { type Routes, readableProject, route } from './deps.ts';

const tags = ['items'];

/** {id, itemId}: itemId is a UUID, so /items/changes never reads as an item. */
export const ItemParams = Type.Object({ id: Uuid, itemId: Uuid });

/** 'none' in a filter means "not set". */
const noneIsNull = (v: string | undefined) => (v === undefined ? undefined : v === 'none' ? null : v);

export const itemRoutes: Routes = [
  route({
    method: 'POST',
    url: '/v1/projects/:id/items',
    action: 'use',
    tags,
    summary: 'Add a task (editors): at the top, in status_id or the default status (Triage, else Todo)',
    description:
      "type, or legacy kind (the project's first offered type of that kind; sent with type, it must agree: " +
      '422 kind_mismatch); neither gives the first offered type (task). Title trimmed, 1 to 200 characters ' +
      '(422 invalid_title). 422: type_not_offered, status_not_offered, assignee_not_member, goal_not_found, ' +
      'field_not_allowed, resolution_required (a bug added closed without a resolution). Viewers 403; ' +
      'an archived project 409 project_archived.',
    params: ProjectParams,
    body: Command(TaskInput),
    response: Envelope(Task),
    status: 201,
    errors: [
      'project_not_found',
      'project_archived',
      'type_not_offered',
      'kind_mismatch',
      'invalid_title',
      'status_not_offered',
      'field_not_allowed',
      'resolution_required',
      'assignee_not_member',
      'goal_not_found',
    ],
    run: (ctx, { params, body }) => createTask(ctx, params.id, body.data),
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/items',
    action: 'use',
    tags,
    summary: 'List tasks, top first, with filters (readers, viewers included)',
    description:
      'Filters combine (AND). assignee and goal_id take none for "not set". archived: false (default), true ' +
      '(only archived), all. due=overdue: open tasks whose target date is before today in the New York ' +
      'calendar. An unknown query key is 422.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: TaskListQuery,
    response: PageEnvelope(Task),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const q = input.query;
      const page = pageRequest(q, TASK_PAGE.pageSize);
      const { items, total } = await listTasks(
        deps.database.db,
        project.id,
        {
          state: q.state,
          kind: q.kind,
          type: q.type,
          category: q.category,
          status_id: q.status_id,
          assignee: noneIsNull(q.assignee),
          goal_id: noneIsNull(q.goal_id),
          archived: q.archived ?? 'false',
          overdueBefore: q.due === 'overdue' ? newYorkDate(deps.clock()) : undefined,
          sort: q.sort ?? 'position',
          sortDesc: q.sort_desc ?? false,
        },
        page,
      );
      return input.reply.envelope(items, pageMeta(page, total));
    },
  }),

  // Registered before /items/:itemId (which also only takes a UUID), so 'changes' is never an item id.
  route({
    method: 'GET',
    url: '/v1/projects/:id/items/changes',
    action: 'use',
    tags,
    summary: 'The change log across all tasks of the project, archived included, newest first',
    description:
      'field narrows it to one kind of change (status_id, assignee, target_date, goal_id, archived); ' +
      'limit 1 to 500, default 100.',
    schema: { headers: AsMemberHeaders },
    params: ProjectParams,
    query: ChangeLogQuery,
    response: Envelope(Type.Array(TaskChange)),
    errors: ['project_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const rows = await projectChanges(deps.database.db, project.id, {
        field: input.query.field,
        limit: input.query.limit ?? 100,
      });
      return input.reply.envelope(rows);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/items/:itemId',
    action: 'use',
    tags,
    summary: 'Read one task (archived included); 404 item_not_found when it is not on this project',
    schema: { headers: AsMemberHeaders },
    params: ItemParams,
    response: Envelope(Task),
    errors: ['project_not_found', 'item_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const task = await findTask(deps.database.db, project.id, input.params.itemId);
      if (!task) throw itemNotFound();
      return input.reply.envelope(task);
    },
  }),

  route({
    method: 'GET',
    url: '/v1/projects/:id/items/:itemId/history',
    action: 'use',
    tags,
    summary: "A task's content versions and change-log rows, newest first, at most 200 of each",
    schema: { headers: AsMemberHeaders },
    params: ItemParams,
    response: Envelope(TaskHistory),
    errors: ['project_not_found', 'item_not_found'],
    handler: async (input, deps) => {
      const { project } = await readableProject(deps, input, input.params.id);
      const task = await findTask(deps.database.db, project.id, input.params.itemId);
      if (!task) throw itemNotFound();
      return input.reply.envelope(await taskHistory(deps.database.db, task.id));
    },
  }),
];
