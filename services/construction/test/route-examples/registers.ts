import type { RouteExample } from '@platform/kit/testing';
import { openDecision, raiseRisk, registerProject, requestApproval } from '../fixtures/registers.ts';
import { EDITOR, type Harness } from '../harness.ts';

/** One valid request per decision, approval and risk command route, on fresh records of one project. */
export const REGISTERS_EXAMPLES = (h: Harness): Record<string, RouteExample> => {
  let shared: Promise<string> | undefined;
  const project = () => {
    shared ??= registerProject(h);
    return shared;
  };
  const reviewers = [{ email: EDITOR, required: true }];
  return {
    'POST /v1/decisions': {
      body: async () => ({
        data: { project_id: await project(), question: 'Which roof?', alternatives: [{ title: 'Green roof' }] },
      }),
    },
    'POST /v1/decisions/{id}/outcome': {
      url: async () => `/v1/decisions/${(await openDecision(h, await project())).id}/outcome`,
      body: { data: { outcome: 'Green roof', cost_minor: 40_000 } },
    },
    'POST /v1/approvals': {
      body: async () => ({ data: { project_id: await project(), subject_type: 'budget', reviewers } }),
    },
    'POST /v1/approvals/{id}/response': {
      url: async () =>
        `/v1/approvals/${(await requestApproval(h, { project_id: await project(), subject_type: 'budget', reviewers })).id}/response`,
      body: { data: { response: 'approved', note: 'Fine' } },
    },
    'POST /v1/risks': {
      body: async () => ({ data: { project_id: await project(), title: 'Late steel delivery', likelihood: 'high' } }),
    },
    'POST /v1/risks/{id}/status': {
      url: async () => `/v1/risks/${(await raiseRisk(h, await project())).id}/status`,
      body: { data: { status: 'mitigated' } },
    },
  };
};
