import type { RouteExample } from '@platform/kit/testing';
import { advanceTo } from '../fixtures/projects.ts';
import { type Harness, tag } from '../harness.ts';

const P = '/v1/development-projects';

/** One valid request per command route of projects and stages (a fresh project where the move is one-way). */
export const PROJECTS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const project = () => {
    shared ??= h.project().then((p) => p.id);
    return shared;
  };
  return {
    'POST /v1/development-projects': {
      body: () => ({ data: { code: `RC-${tag()}`, name: 'Route check', kind: 'ground_up' } }),
    },
    'PUT /v1/development-projects/{id}': {
      url: async () => `${P}/${await project()}`,
      body: () => ({ data: { name: `Renamed ${tag()}` } }),
    },
    'POST /v1/development-projects/{id}/status': {
      url: async () => `${P}/${(await h.project()).id}`.concat('/status'),
      body: { data: { status: 'on_hold' } },
    },
    'POST /v1/development-projects/{projectId}/advance': {
      url: async () => `${P}/${(await h.project()).id}/advance`,
      body: { data: { from_stage: 'initiation' } },
    },
    'POST /v1/development-projects/{projectId}/complete': {
      url: async () => {
        const p = await h.project();
        await advanceTo(h, p.id, 'closeout');
        return `${P}/${p.id}/complete`;
      },
      body: { data: {} },
    },
    'PUT /v1/development-projects/{projectId}/stages/{stage}/plan': {
      url: async () => `${P}/${await project()}/stages/design/plan`,
      body: () => ({ data: { planned_start: `2026-0${1 + Math.floor(Math.random() * 9)}-01` } }),
    },
  };
};
