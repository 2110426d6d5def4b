import type { RouteExample } from '@platform/kit/testing';
import { awardedProject, draft, variationIn } from '../fixtures/registers.ts';
import { EDITOR, type Harness } from '../harness.ts';

/** One valid request per variation command route: each call works on fresh records of one awarded project. */
export const VARIATIONS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const project = () => {
    shared ??= awardedProject(h);
    return shared;
  };
  return {
    'POST /v1/variations': {
      body: async () => ({ data: { project_id: await project(), title: 'Extra lift shaft' } }),
    },
    'PUT /v1/variations/{id}/price': {
      url: async () => `/v1/variations/${(await draft(h, await project())).id}/price`,
      body: { data: { cost_change_minor: 12_000, days: 4 } },
    },
    'POST /v1/variations/{id}/submit': {
      url: async () => `/v1/variations/${(await variationIn(h, await project(), 'priced')).id}/submit`,
      body: { data: { reviewers: [{ email: EDITOR, required: true }] } },
    },
    'POST /v1/variations/{id}/incorporate': {
      url: async () => `/v1/variations/${(await variationIn(h, await project(), 'approved')).id}/incorporate`,
      body: { data: {} },
    },
  };
};
