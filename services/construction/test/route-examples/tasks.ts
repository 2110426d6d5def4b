import type { RouteExample } from '@platform/kit/testing';
import { newTask, registerDocument, taskProject } from '../fixtures/tasks.ts';
import type { Harness } from '../harness.ts';

/** One valid request per tasks command route; each request gets its own task (and link, document). */
export const TASK_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  const freshTask = async (fields: Record<string, unknown> = {}) => newTask(h, await taskProject(h), fields);
  let n = 0;
  return {
    'POST /v1/tasks': {
      url: '/v1/tasks',
      body: async () => ({ data: { project_id: await taskProject(h), title: `Route check ${++n}` } }),
    },
    'PUT /v1/tasks/{id}': {
      url: async () => `/v1/tasks/${(await freshTask()).id}`,
      body: () => ({ data: { title: `Renamed ${++n}` } }),
    },
    'POST /v1/tasks/{id}/progress': {
      url: async () => `/v1/tasks/${(await freshTask()).id}/progress`,
      body: { data: { status: 'in_progress', percent_complete: 10 } },
    },
    'POST /v1/tasks/{id}/links': {
      url: async () => `/v1/tasks/${(await freshTask()).id}/links`,
      body: async () => ({ data: { project_id: await taskProject(h), share: 20 } }),
    },
    'DELETE /v1/tasks/{id}/links/{projectId}': {
      url: async () => {
        const other = await taskProject(h);
        return `/v1/tasks/${(await freshTask({ links: [{ project_id: other }] })).id}/links/${other}`;
      },
    },
    'POST /v1/tasks/{id}/dependencies': {
      url: async () => `/v1/tasks/${(await freshTask()).id}/dependencies`,
      body: async () => ({ data: { depends_on_task_id: (await freshTask()).id } }),
    },
    'PUT /v1/tasks/{id}/documents/{documentId}': {
      url: async () => `/v1/tasks/${(await freshTask()).id}/documents/${await registerDocument(h)}`,
      body: { data: {} },
    },
    'DELETE /v1/tasks/{id}/documents/{documentId}': {
      url: async () => {
        const task = await freshTask();
        const doc = await registerDocument(h);
        await h.ok('PUT', `/v1/tasks/${task.id}/documents/${doc}`, {});
        return `/v1/tasks/${task.id}/documents/${doc}`;
      },
    },
    'POST /v1/tasks/{id}/notes': {
      url: async () => `/v1/tasks/${(await freshTask()).id}/notes`,
      body: { data: { body: 'Route check note' } },
    },
  };
};
