import type { RouteExample } from '@platform/kit/testing';
import { newProject, projectUrl } from '../fixtures/plan-items.ts';
import type { Harness } from '../harness.ts';

/**
 * One valid request per command route of packages, milestones, weekly updates and relations.
 * Each call makes what it needs afresh (a milestone completes once, a relation exists once).
 */
export const PLAN_ITEMS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const project = () => {
    shared ??= newProject(h).then((p) => p.id);
    return shared;
  };
  const created = async (url: string, data: unknown) => (await h.ok<{ id: string }>('POST', url, data, 201)).id;
  const milestone = async () => created(projectUrl(await project(), '/milestones'), { name: 'Route check milestone' });
  return {
    'POST /v1/development-projects/{projectId}/packages': {
      url: async () => projectUrl(await project(), '/packages'),
      body: { data: { name: 'Route check package', measure: 'report' } },
    },
    'POST /v1/development-projects/{projectId}/packages/{packageId}/reports': {
      url: async () => {
        const id = await project();
        const pkg = await created(projectUrl(id, '/packages'), { name: 'Reported', measure: 'report' });
        return projectUrl(id, `/packages/${pkg}/reports`);
      },
      body: { data: { percent: 25, reported_on: '2026-02-27' } },
    },
    'POST /v1/development-projects/{projectId}/milestones': {
      url: async () => projectUrl(await project(), '/milestones'),
      body: { data: { name: 'Route check milestone', planned_date: '2026-09-01' } },
    },
    'POST /v1/milestones/{id}/complete': {
      url: async () => `/v1/milestones/${await milestone()}/complete`,
      body: { data: { actual_date: '2026-02-27' } },
    },
    'PUT /v1/milestones/{id}/forecast': {
      url: async () => `/v1/milestones/${await milestone()}/forecast`,
      body: { data: { forecast_date: '2026-10-01' } },
    },
    'POST /v1/development-projects/{projectId}/updates': {
      url: async () => projectUrl(await project(), '/updates'),
      body: { data: { summary: 'Route check update' } },
    },
    'POST /v1/development-projects/{projectId}/relations': {
      url: async () => projectUrl(await project(), '/relations'),
      body: async () => ({ data: { to_project_id: (await newProject(h)).id, relation_type: 'related_to' } }),
    },
  };
};
