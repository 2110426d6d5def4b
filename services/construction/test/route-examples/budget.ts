import type { RouteExample } from '@platform/kit/testing';
import { newProject, projectUrl } from '../fixtures/plan-items.ts';
import type { Harness } from '../harness.ts';

/** One valid request per budget command route. */
export const BUDGET_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const project = () => {
    shared ??= newProject(h).then((p) => p.id);
    return shared;
  };
  let n = 0;
  return {
    'PUT /v1/development-projects/{projectId}/budget/lines': {
      url: async () => projectUrl(await project(), '/budget/lines'),
      body: () => ({ data: { category: `route check ${++n}`, budget_minor: 100_000 } }),
    },
    'POST /v1/development-projects/{projectId}/budget/costs': {
      url: async () => projectUrl(await project(), '/budget/costs'),
      body: { data: { category: 'construction', kind: 'actual', amount_minor: 1_234, occurred_on: '2026-02-27' } },
    },
  };
};
